#pragma once
// A structure-aware mutation for HDF5 files (H5MD): random bytes rarely get past HDF5's
// superblock, so this finds the structures' signatures (object headers, B-trees, local and
// global heaps, symbol table nodes) and sets one of the fields after one of them to a value that
// breaks size and address arithmetic (0, 1, all ones, a large power of two, a nearby size), else
// mutates as libFuzzer does.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

extern "C" std::size_t LLVMFuzzerMutate(std::uint8_t* data, std::size_t size, std::size_t max_size);

namespace kmol::fuzz {

// Offsets of every HDF5 structure signature in the input.
inline std::vector<std::size_t> hdf5_structures(const std::uint8_t* data, std::size_t size) {
  static const char* const signatures[] = {"GCOL", "TREE", "HEAP", "SNOD", "OHDR", "OCHK",
                                           "FRHP", "FHDB", "FHIB", "BTHD", "BTIN", "BTLF"};
  std::vector<std::size_t> found;
  for (std::size_t i = 0; i + 4 <= size; ++i)
    for (const char* s : signatures)
      if (std::memcmp(data + i, s, 4) == 0) found.push_back(i);
  return found;
}

// Writes `width` bytes of `value`, little-endian as HDF5 stores them.
inline void put_le(std::uint8_t* at, std::uint64_t value, int width) {
  for (int b = 0; b < width; ++b) at[b] = std::uint8_t(value >> (8 * b));
}

inline std::uint64_t get_le(const std::uint8_t* at, int width) {
  std::uint64_t value = 0;
  for (int b = 0; b < width; ++b) value |= std::uint64_t(at[b]) << (8 * b);
  return value;
}

inline std::size_t mutate_hdf5(std::uint8_t* data, std::size_t size, std::size_t max_size,
                               unsigned seed) {
  std::minstd_rand random(seed);
  const auto found = hdf5_structures(data, size);
  if (found.empty() || random() % 4 == 0) return LLVMFuzzerMutate(data, size, max_size);
  const std::size_t base = found[random() % found.size()];
  const int widths[] = {1, 2, 4, 8};
  const int width = widths[random() % 4];
  const std::size_t offset = 4 + random() % 60;  // the fields of the structure's header
  if (base + offset + std::size_t(width) > size) return LLVMFuzzerMutate(data, size, max_size);
  std::uint8_t* field = data + base + offset;
  const std::uint64_t old = get_le(field, width);
  const std::uint64_t values[] = {
      0,       1,       ~0ull,   std::uint64_t(1) << (8 * width - 1),
      old + 1, old - 1, old * 2, old + std::uint64_t(1 + random() % 4096)};
  put_le(field, values[random() % 8], width);
  return size;
}

}  // namespace kmol::fuzz
