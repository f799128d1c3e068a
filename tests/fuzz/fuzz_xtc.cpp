// GROMACS XTC: the frame index and kmol's decoder over XDR-aware mutations of gmx-written files.
// Every frame kmol decodes is decoded again by libgromacs and must give the same coordinates,
// step, time and box: the decoder is checked against the library whose files it reads.
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "core/src/io/gromacs_api.hpp"
#include "fuzz_support.hpp"
#include "fuzz_xdr.hpp"
#include "kmol/core/errors.hpp"
#include "kmol/core/io/xtc_index.hpp"

extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size,
                                               std::size_t max_size, unsigned seed) {
  return kmol::fuzz::mutate_xdr(data, size, max_size, seed, 1995, 22);
}

namespace {

// The same frame through libgromacs, which must agree with kmol's decoding.
void compare_with_libgromacs(const std::string& path, std::int64_t offset, std::int32_t n_atoms,
                             const kmol::io::XtcFrameHeader& header,
                             const std::vector<float>& xyz) {
  t_fileio* file = open_xtc(path.c_str(), "r");
  if (file == nullptr) std::abort();
  std::vector<float> theirs(xyz.size() + 3 * 16);
  std::int64_t step = 0;
  float time = 0, precision = 0;
  bool ok = false;
  matrix box;
  if (gmx_fio_seek(file, offset) != 0 ||
      read_next_xtc(file, n_atoms, &step, &time, box, reinterpret_cast<rvec*>(theirs.data()),
                    &precision, &ok) == 0 ||
      !ok)
    std::abort();  // kmol decoded a frame libgromacs cannot
  close_xtc(file);
  if (step != header.step || std::memcmp(&time, &header.time, sizeof time) != 0 ||
      std::memcmp(&box[0][0], header.box, sizeof header.box) != 0 ||
      std::memcmp(theirs.data(), xyz.data(), xyz.size() * sizeof(float)) != 0)
    std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string path = kmol::fuzz::input_file(data, size, ".xtc");
  try {
    const kmol::io::XtcIndex index = kmol::io::index_xtc(path);
    std::vector<float> xyz(3 * std::size_t(index.n_atoms));
    for (std::size_t t = 0; t < index.offsets.size(); ++t) {
      const std::int64_t offset = index.offsets[t];
      const std::int64_t end =
          t + 1 < index.offsets.size() ? index.offsets[t + 1] : std::int64_t(size);
      kmol::io::XtcFrameHeader header;
      const std::string wrong = kmol::io::decode_xtc_frame(data + offset, end - offset,
                                                           index.n_atoms, header, xyz.data());
      if (wrong.empty()) compare_with_libgromacs(path, offset, index.n_atoms, header, xyz);
    }
  } catch (const kmol::InputError&) {
  }
  std::remove(kmol::io::xtc_index_cache_path(path).c_str());
  return 0;
}
