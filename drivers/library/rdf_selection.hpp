#pragma once
// The pairs an RDF over a trajectory counts: two selections of the file's atoms (the second
// defaulting to the first, then one set, each pair once), the pairs within one residue or molecule
// left out on request, and an atom in both selections never paired with itself. Selections that
// leave no pair are refused before the run.
#include <cstdint>
#include <string>
#include <vector>

#include "drivers/library/frame_pipeline.hpp"
#include "drivers/library/rdf_job.hpp"
#include "drivers/library/trajectory.hpp"

namespace kmol {

struct RdfSelectionOptions {
  std::string sel1 = "all", sel2;  // empty sel2: the first
  std::string exclude_same;        // "", "residue" or "molecule"
  bool quiet = false;              // no note on how molecules were found
  // How the front end names them in refusals.
  std::string sel1_option = "--sel1", sel2_option = "--sel2", exclude_option = "--exclude-same";
};

struct RdfSelection {
  std::vector<std::int64_t> atoms_a, atoms_b;        // indices into the file; b empty: one set
  std::vector<std::int32_t> molecule_a, molecule_b;  // exclusion labels, or empty
  RdfPairs pairs;
  std::string sel2;  // the second selection as used
};

RdfSelection select_rdf_pairs(const Trajectory& t, const RdfSelectionOptions& options);

// What every frame of the trajectory run becomes: the selection counted with the job's settings.
FrameJob rdf_frame_job(const RdfJob& job, const RdfSelection& selection);

}  // namespace kmol
