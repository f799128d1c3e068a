// Whole H5MD files, HDF5's internals included, through kmol's path to a trajectory: the
// structure check in a child process, the reader, every frame. libhdf5 may crash or loop on a
// damaged file; kmol must refuse it (InputError), never crash or hang itself.
//
// The custom mutator works on HDF5's structures (fuzz_hdf5.hpp).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "kmol/core/errors.hpp"
#include "kmol/core/io/trajectory_reader.hpp"
#include "tests/fuzz/fuzz_hdf5.hpp"
#include "tests/fuzz/fuzz_support.hpp"

extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size,
                                               std::size_t max_size, unsigned int seed) {
  return kmol::fuzz::mutate_hdf5(data, size, max_size, seed);
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
