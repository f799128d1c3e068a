#pragma once
// The libgromacs-backed readers, built only when CMake finds libgromacs (KMOL_HAVE_GROMACS);
// nothing here includes a GROMACS header, so callers compile either way.
#include <memory>
#include <string>

#include "kmol/core/io/topology.hpp"
#include "kmol/core/io/trajectory_reader.hpp"

namespace kmol::io::gromacs {

// kind is xtc, trr or tng (as sniff_file tells).
std::unique_ptr<TrajectoryReader> open_trajectory(const std::string& path, FileKind kind);

// Names, residues, molecules, charges and masses of a run input file (.tpr).
Topology read_tpr(const std::string& path);

// "GROMACS 2022.5-Debian_2022.5_2 (single precision)".
std::string library_version();

}  // namespace kmol::io::gromacs
