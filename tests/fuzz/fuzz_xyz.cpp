// XYZ frames (kmol histogram --xyz).
#include "drivers/library/xyz_reader.hpp"
#include "fuzz_support.hpp"
#include "kmol/core/errors.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string path = kmol::fuzz::input_file(data, size, ".xyz");
  try {
    const kmol::XyzFrame frame = kmol::read_xyz(path);
    if (frame.names.size() != frame.positions.size()) std::abort();
  } catch (const kmol::InputError&) {
  }
  return 0;
}
