#pragma once
// Where each frame of a GROMACS XTC file starts. XTC frames are compressed to varying sizes and
// the format has no index, so random access (--frames, --resume, ranks reading their own frames)
// needs one: scanning reads each frame's 92-byte header and skips its compressed bytes, without
// decompressing anything. The index is cached beside the trajectory (".NAME.kmol-xtc-index") with
// the file's size and modification time, so a changed file is indexed again.
//
// A frame that runs past the end of the file (a run killed while writing) or whose header is not
// an XTC header ends the index: it is recorded as the damaged frame, and the frames before it stay
// readable.
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

}  // namespace kmol::io
