// Whole H5MD files, HDF5's internals included, through kmol's path to a trajectory: the
// structure check in a child process, the reader, every frame. libhdf5 may crash or loop on a
// damaged file; kmol must refuse it (InputError), never crash or hang itself.
//
// Random bytes rarely get past HDF5's superblock, so the custom mutator works on HDF5's
// structures: it finds their signatures (object headers, B-trees, local and global heaps,
// symbol table nodes) and sets one of the fields after one of them to a value that breaks size
// and address arithmetic (0, 1, all ones, a large power of two, a nearby size), else mutates as
// libFuzzer does.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "kmol/core/errors.hpp"
#include "kmol/core/io/trajectory_reader.hpp"
#include "tests/fuzz/fuzz_support.hpp"

extern "C" std::size_t LLVMFuzzerMutate(std::uint8_t* data, std::size_t size, std::size_t max_size);

namespace {

const char* const signatures[] = {"GCOL", "TREE", "HEAP", "SNOD", "OHDR", "OCHK",
                                  "FRHP", "FHDB", "FHIB", "BTHD", "BTIN", "BTLF"};

// Offsets of every HDF5 structure signature in the input.
std::vector<std::size_t> structures(const std::uint8_t* data, std::size_t size) {
  std::vector<std::size_t> found;
  for (std::size_t i = 0; i + 4 <= size; ++i)
    for (const char* s : signatures)
      if (std::memcmp(data + i, s, 4) == 0) found.push_back(i);
  return found;
}

// Writes `width` bytes of `value`, little-endian as HDF5 stores them.
void put(std::uint8_t* at, std::uint64_t value, int width) {
  for (int b = 0; b < width; ++b) at[b] = std::uint8_t(value >> (8 * b));
}

std::uint64_t get(const std::uint8_t* at, int width) {
  std::uint64_t value = 0;
  for (int b = 0; b < width; ++b) value |= std::uint64_t(at[b]) << (8 * b);
  return value;
}

}  // namespace

extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size,
                                               std::size_t max_size, unsigned int seed) {
  std::minstd_rand random(seed);
  const auto found = structures(data, size);
  if (found.empty() || random() % 4 == 0) return LLVMFuzzerMutate(data, size, max_size);
  const std::size_t base = found[random() % found.size()];
  const int widths[] = {1, 2, 4, 8};
  const int width = widths[random() % 4];
  const std::size_t offset = 4 + random() % 60;  // the fields of the structure's header
  if (base + offset + std::size_t(width) > size) return LLVMFuzzerMutate(data, size, max_size);
  std::uint8_t* field = data + base + offset;
  const std::uint64_t old = get(field, width);
  const std::uint64_t values[] = {
      0,       1,       ~0ull,   std::uint64_t(1) << (8 * width - 1),
      old + 1, old - 1, old * 2, old + std::uint64_t(1 + random() % 4096)};
  put(field, values[random() % 8], width);
  return size;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string path = kmol::fuzz::input_file(data, size, ".h5");
  try {
    const auto reader = kmol::io::open_trajectory_file(path);
    std::vector<kmol::Vec3<float>> positions(std::size_t(reader->n_atoms()));
    for (std::int64_t t = 0; t < reader->n_frames() && t < 16; ++t)
      reader->read_frame(t, positions.data());
  } catch (const kmol::InputError&) {
  } catch (const kmol::UnsupportedError&) {  // an AMBER NetCDF-4 file in a build without NetCDF
  }
  return 0;
}
