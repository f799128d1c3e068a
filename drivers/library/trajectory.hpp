#pragma once
// A trajectory opened for a whole-trajectory run: the reader, the topology, what selections can
// ask about the atoms, the frames to visit and the distance range, all checked against the file.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "drivers/library/selection.hpp"
#include "kmol/core/box.hpp"
#include "kmol/core/io/topology.hpp"
#include "kmol/core/io/trajectory_reader.hpp"

namespace kmol {

// Where the frames come from and which of them, as a user names them.
struct TrajectorySource {
  std::string trajectory;  // path
  std::string group;       // H5MD particle group; empty: the only one, or 'all'
  std::string top;         // topology path (TPR, PDB, GRO or PQR), or empty
  std::string frames = "::";
  std::string r_min = "0", r_max;  // lengths with units; empty r_max: the first box's limit
  bool no_pbc = false;             // plain distances, ignoring the file's box
  bool quiet = false;              // no warnings on stderr
  // The unit of a length typed as a bare number (kmol rdf --gmx: "nm", its output unit), with the
  // reason the notes give; empty: Angstrom.
  std::string bare_length_unit, bare_length_reason;
};

struct Trajectory {
  std::unique_ptr<io::TrajectoryReader> reader;
  std::unique_ptr<io::Topology> topology;  // null without a topology
  AtomTable atoms;
  std::vector<std::int64_t> frames;  // file frames to process
  double r_min = 0, r_max = 0;       // Angstrom
  BoxSpec first_box;
  std::vector<std::string> notes;  // how options were read: "--rmax 1.2 read as nm (...)"
  std::string r_max_origin;        // for a default r_max, the box it came from (result_check.hpp)
};

// Throws InputError naming the file and field, or the option, that does not fit.
Trajectory open_trajectory(const TrajectorySource& source);

}  // namespace kmol
