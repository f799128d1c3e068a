#pragma once
// Frames a child process decoded (contained_call.hpp), kept in an unlinked temporary file: the
// child writes each frame's coordinates (and velocities) there as floats in the file's own unit
// and returns the per-frame records through its pipe; the parent reads frames back by offset and
// never calls the decoding library itself. The temporary file vanishes with its last descriptor,
// whatever ends the process.
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "kmol/core/io/trajectory_reader.hpp"

namespace kmol::io {

// One decoded frame; memcpy'd through the pipe between two copies of the same process.
struct SpooledFrame {
  std::int64_t step = 0;
  double time = 0;
  BoxSpec box;               // Angstrom
  std::int64_t atoms = 0;    // as the frame says
  std::int64_t offset = -1;  // of its coordinates in the spool, in floats; -1: none stored
  bool velocities = false;   // velocities follow the coordinates
};
static_assert(std::is_trivially_copyable_v<SpooledFrame>, "sent as bytes");

// The spool: an unlinked file in $TMPDIR (or /tmp), shared by every reader of it.
class Spool {
 public:
  explicit Spool(const std::string& for_path);
  ~Spool();
  Spool(const Spool&) = delete;
  Spool& operator=(const Spool&) = delete;
  int descriptor() const { return fd_; }

  // In the child: appends `count` floats, their offset (in floats) in `offset`; false on a write
  // error (a full disk), with its reason in `error`.
  bool append(const float* values, std::size_t count, std::int64_t& offset, std::string& error);
  std::int64_t size() const { return size_; }  // bytes

 private:
  int fd_ = -1;
  std::int64_t size_ = 0;
};

// The child's reply: the frames' records, then the write error if one stopped it.
std::string pack_frames(const std::vector<SpooledFrame>& frames, const std::string& error);
std::vector<SpooledFrame> unpack_frames(const std::string& bytes, std::string& error);

// Frames of `path` read back from the spool. `scale` turns the stored unit into Angstrom.
std::unique_ptr<TrajectoryReader> spooled_trajectory(const std::string& path,
                                                     const std::string& description,
                                                     std::shared_ptr<Spool> spool,
                                                     std::vector<SpooledFrame> frames,
                                                     double scale);

}  // namespace kmol::io
