// XYZ frames (kmol histogram --xyz).
#include "drivers/library/xyz_reader.hpp"
#include "fuzz_support.hpp"
#include "kmol/core/errors.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return kmol::fuzz::read_input_file(data, size, ".xyz", [](const std::string& path) {
    const kmol::XyzFrame frame = kmol::read_xyz(path);
    if (frame.names.size() != frame.positions.size()) std::abort();
  });
}
