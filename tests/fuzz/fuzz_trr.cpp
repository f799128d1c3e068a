// GROMACS TRR: kmol's reader (frame headers, sections, velocities) over XDR-aware mutations of
// gmx-written files.
#include <vector>

#include "core/src/io/trr_reader.hpp"
#include "fuzz_support.hpp"
#include "fuzz_xdr.hpp"
#include "kmol/core/errors.hpp"

extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size,
                                               std::size_t max_size, unsigned seed) {
  return kmol::fuzz::mutate_xdr(data, size, max_size, seed, 1993, 24);
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return kmol::fuzz::read_input_file(data, size, ".trr", [](const std::string& path) {
    const auto reader = kmol::io::open_trr(path);
    const auto n = std::size_t(reader->n_atoms());
    std::vector<kmol::Vec3<float>> single(n);
    std::vector<kmol::Vec3<double>> positions(n), velocities(n);
    for (std::int64_t t = 0; t < reader->n_frames(); ++t) {
      (void)reader->frame_info(t);
      reader->read_frame(t, single.data());
      reader->read_frame_with_velocities(t, positions.data(), velocities.data());
    }
  });
}
