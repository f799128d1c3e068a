#include "drivers/library/atomic_write.hpp"

#include <unistd.h>

#include <cstdio>

#include "kmol/core/errors.hpp"

namespace kmol {

void write_atomically(const std::string& path,
                      const std::function<void(const std::string&)>& write) {
  const std::string temporary = path + ".tmp-" + std::to_string(getpid());
  try {
    write(temporary);
  } catch (...) {
    std::remove(temporary.c_str());
    throw;
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    std::remove(temporary.c_str());
    throw InputError({path, "", -1}, "cannot write the output file");
  }
}

}  // namespace kmol
