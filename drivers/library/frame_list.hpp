#pragma once
// Which frames of a trajectory a run visits: one syntax for every command.
//   --frames start:stop:step   Python's slice (stop excluded, negatives count from the end), or
//                              one frame N (-1: the last)
//   --begin T --end T --dt T   gmx's -b, -e, -dt: times in the file's unit (ps for GROMACS
//                              files), T_begin <= t <= T_end, and with dt only the frames whose
//                              time from the file's first frame is a multiple of dt
// The two ways cannot be mixed.
#include <cstdint>
#include <string>
#include <vector>

#include "kmol/core/io/trajectory_reader.hpp"

namespace kmol {

struct FrameChoice {
  std::string frames;          // slice or one frame; empty: not given
  std::string begin, end, dt;  // times; empty: not given

  bool by_time() const { return !begin.empty() || !end.empty() || !dt.empty(); }
  // What the choice says, for output headers: "::" or "--begin 10 --end 50".
  std::string describe() const;
};

// start:stop:step with Python's meaning (stop excluded, negatives count from the end), or one
// frame. Throws InputError naming --frames (and the file, where given).
std::vector<std::int64_t> frame_list(const std::string& slice, std::int64_t n_frames,
                                     const std::string& file = "");

// The frames a choice picks (reading each frame's time for --begin/--end/--dt). Throws
// InputError naming the option when it picks none, or when both ways are given.
std::vector<std::int64_t> choose_frames(const FrameChoice& choice, io::TrajectoryReader& reader);

// The one frame a one-frame command (potential, surf, cc) maps: --frames N, or the first frame at
// or after --begin. Anything picking several frames is refused naming the option.
std::int64_t choose_one_frame(const FrameChoice& choice, io::TrajectoryReader& reader,
                              const std::string& command);

}  // namespace kmol
