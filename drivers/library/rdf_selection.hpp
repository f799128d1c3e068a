#pragma once
// The pairs an RDF over a trajectory counts: two selections of the file's atoms (the second
// defaulting to the first, then one set, each pair once), the pairs within one residue or molecule
// left out on request, and an atom in both selections never paired with itself. The sets' sites
// are their atoms or, with pos1/pos2, the centres of their residues or molecules (centres.hpp);
// two centres of one residue or molecule are never paired. Selections that leave no pair are
// refused before the run.
#include <string>

#include "drivers/library/centres.hpp"
#include "drivers/library/frame_pipeline.hpp"
#include "drivers/library/rdf_job.hpp"
#include "drivers/library/trajectory.hpp"

namespace kmol {

struct RdfSelectionOptions {
  std::string sel1 = "all", sel2;   // empty sel2: the first
  std::string exclude_same;         // "", "residue" or "molecule"
  std::string pos1 = "atom", pos2;  // sites (centres.hpp); empty pos2: pos1
  bool quiet = false;               // no note on how molecules were found
  // How the front end names them in refusals.
  std::string sel1_option = "--sel1", sel2_option = "--sel2", exclude_option = "--exclude-same";
  std::string pos1_option = "--pos1", pos2_option = "--pos2";
};

struct RdfSelection : PairSets {
  SitePosition pos1 = SitePosition::atom, pos2 = SitePosition::atom;  // the sites as named
  RdfPairs pairs;
  std::string sel2;  // the second selection as used
};

RdfSelection select_rdf_pairs(const Trajectory& t, const RdfSelectionOptions& options);

// What every frame of the trajectory run becomes: the selection counted with the job's settings.
FrameJob rdf_frame_job(const RdfJob& job, const RdfSelection& selection);

}  // namespace kmol
