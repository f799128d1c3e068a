#include "drivers/library/atomic_write.hpp"

#include "kmol/core/stop.hpp"

namespace kmol {

void write_atomically(const std::string& path,
                      const std::function<void(const std::string&)>& write) {
  TemporaryFile output(path);
  write(output.temporary());
  output.commit();
}

}  // namespace kmol
