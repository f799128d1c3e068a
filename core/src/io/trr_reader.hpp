#pragma once
// GROMACS TRR trajectories, read by kmol itself: every frame header is checked (magic number,
// section sizes that agree with the atom count and one precision, finite time and box) and the
// frames are found before any coordinates are read, so a damaged header never sizes a buffer.
// libgromacs' reader trusts the header and writes past its coordinate buffer when the atom count
// grows, and ends the process on sizes it cannot make sense of.
#include <memory>
#include <string>

#include "kmol/core/io/trajectory_reader.hpp"

namespace kmol::io {

// Frames without coordinates (GROMACS writes velocities and forces at their own intervals) are
// skipped. A frame whose header is damaged or that runs past the end of the file ends the
// frames: the ones before it stay readable and reading it names what is wrong.
std::unique_ptr<TrajectoryReader> open_trr(const std::string& path);

}  // namespace kmol::io
