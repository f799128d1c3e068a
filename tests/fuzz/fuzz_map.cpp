// Maps read by kmol surf --map and kmol cc --ref: OpenDX or MRC/CCP4 by KMOL_FUZZ_ENDING.
#include "fuzz_support.hpp"
#include "kmol/core/errors.hpp"
#include "kmol/core/io/mrc.hpp"
#include "kmol/core/io/opendx.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string ending = KMOL_FUZZ_ENDING;
  return kmol::fuzz::read_input_file(data, size, ending, [&](const std::string& path) {
    const kmol::io::ScalarMap map =
        ending == ".dx" ? kmol::io::read_opendx(path) : kmol::io::read_mrc(path);
    const auto& n = map.grid.counts;
    if (n[0] < 1 || n[1] < 1 || n[2] < 1 || std::size_t(n[0] * n[1] * n[2]) != map.values.size())
      std::abort();
  });
}
