#pragma once
// Where each frame of a GROMACS XTC file starts. XTC frames are compressed to varying sizes and
// the format has no index, so random access (--frames, --resume, ranks reading their own frames)
// needs one: scanning reads each frame's 92-byte header and skips its compressed bytes, without
// decompressing anything. The index is cached beside the trajectory (".NAME.kmol-xtc-index") with
// the file's size and modification time, so a changed file is indexed again.
//
// A frame that runs past the end of the file (a run killed while writing) or whose header is not
// a valid XTC header ends the index: it is recorded as the damaged frame, and the frames before
// it stay readable. Every header field is checked here (xtc_frame_size), once for the scan and
// again when a frame is decoded, so a damaged header never reaches a decoder.
#include <cstdint>
#include <string>
#include <vector>

namespace kmol::io {

struct XtcIndex {
  std::int32_t n_atoms = 0;
  std::vector<std::int64_t> offsets;  // byte offset of each complete frame
  std::int64_t damaged_frame = -1;    // index of the frame where the file breaks, or -1
  std::string damage;                 // what is wrong with it
  bool from_cache = false;            // read from the cache file rather than scanned
  std::string cache_note;             // why no cache could be written, or empty
};

// Scans `path` (or reads its valid cache). Throws InputError naming the file when the first frame
// is not an XTC frame.
XtcIndex index_xtc(const std::string& path);

// The cache file's name for `path`.
std::string xtc_index_cache_path(const std::string& path);

// What a frame's header holds besides its coordinates.
struct XtcFrameHeader {
  std::int32_t n_atoms = 0;
  std::int64_t step = 0;
  float time = 0;
  float box[9] = {};       // nm, row by row
  std::int64_t bytes = 0;  // the whole frame's size in the file
};

// The header bytes a frame needs before its size is known: 56 for frames of up to 9 atoms
// (stored as plain floats), else 92.
constexpr std::int64_t xtc_header_bytes(std::int32_t n_atoms) { return n_atoms <= 9 ? 56 : 92; }

// Reads and checks the header at `h` (`available` bytes, at least 56): the magic number, the atom
// count (positive, equal to `n_atoms` when that is positive, and repeated), a finite time and box,
// and for compressed frames a finite positive precision, a coordinate range whose sizes the
// decoder can divide by, a bit width within the format's table and a compressed size that fits
// the frame's atoms. Returns what is wrong, or an empty string.
std::string read_xtc_header(const unsigned char* h, std::int64_t available, std::int32_t n_atoms,
                            XtcFrameHeader& header);

// Decodes one whole frame (`size` bytes from its header on) of `n_atoms` atoms into `xyz`
// (3 floats per atom, nm), checking every bit read stays inside the frame and every atom
// decoded inside the count: the same coordinates libgromacs decodes from a valid frame. Returns
// what is wrong, or an empty string.
std::string decode_xtc_frame(const unsigned char* frame, std::int64_t size, std::int32_t n_atoms,
                             XtcFrameHeader& header, float* xyz);

}  // namespace kmol::io
