#pragma once
// The RDF job every front end runs (kmol rdf, kmol.RDF, the C API's kmol_rdf_*): its settings
// checked once; each frame's pairs counted exactly (the count step, on the execution space the
// device policy names) and added, or the totals of a trajectory run handed in; then the counts
// normalised into g(r) and n(r), checked (result_check) and laid out for the writers
// (rdf_output). Every frame must be like the first; one that is not is refused before it is added.
#include <cstdint>
#include <string>
#include <vector>

#include "drivers/library/device_policy.hpp"
#include "drivers/library/rdf_output.hpp"
#include "drivers/library/result_check.hpp"
#include "kernels/pair_histogram/gr.hpp"
#include "kernels/pair_histogram/kirkwood_buff.hpp"
#include "kernels/pair_histogram/pair_histogram.hpp"
#include "kernels/pair_histogram/rdf_blocks.hpp"
#include "kmol/core/box.hpp"
#include "kmol/core/precision.hpp"

namespace kmol {

// How a front end names the RDF's inputs in refusals: options ("--bins") or keywords ("bins"),
// and the value that means "none" (None, NULL).
struct RdfNames {
  std::string r_min = "--rmin", r_max = "--rmax", bins = "--bins", norm = "--norm";
  std::string no_pbc = "--no-pbc", kb = "--kb", plane = "--plane";
  std::string a = "a", b = "b", box = "box", molecules = "molecules", none = "None";
  // The normalisations that need no box, as the front end names them.
  std::string boxless_norms = "--norm density or none";
  // Blocks of frames for standard errors: the option, how to ask for them, and the name of the
  // automatic choice.
  std::string blocks = "--blocks", ask_blocks = "--blocks N or auto", auto_blocks = "auto";
};

// Everything that fixes an RDF's counts and their normalisation.
struct RdfSettings {
  double r_min = 0, r_max = 0;  // the binned range [r_min, r_max), Angstrom
  std::int32_t bins = 200;
  RdfNormalization norm = RdfNormalization::rdf;
  bool gmx = false;           // gmx rdf's bins (counted in 2 bins half bins) and normalisation
  bool periodic = true;       // false: plain distances, every box ignored
  Plane plane = Plane::none;  // distances in a plane: 2-D RDFs (plane.hpp)
  PairHistogramImpl impl = PairHistogramImpl::automatic;
  Precision precision = Precision::single;  // of a run that converts the coordinates it reads
  DevicePolicy device = DevicePolicy::automatic;
  DeviceOption device_option;
  ResultOptions result;  // the names of the range and of allow_empty, and the output unit
  RdfNames names;
};

// The pairs counted in every frame: the sets' sizes, the atoms both share, the pairs excluded.
struct RdfPairs {
  std::int64_t n_a = 0, n_b = 0;  // n_b ignored for one set
  bool one_set = true;
  std::int64_t shared_atoms = 0, excluded_pairs = 0;
};

// One frame the caller holds: the sets and their exclusion labels (host memory, species unused)
// and its box (none: no periodicity).
template <class T>
struct RdfFrame {
  PairHistogramInput<T> input;
  BoxSpec box = BoxSpec::none();
};

// A checked result: the values, the counts in the output's bins, and the warning of an empty
// result kept because allow_empty ("" otherwise).
struct RdfResult {
  Rdf rdf;
  std::vector<std::uint64_t> counts;
  std::string warning;
};

class RdfJob {
 public:
  // Refuses settings that cannot make a result (InputError naming the front end's option), and
  // a device policy that cannot run here (UnsupportedError).
  explicit RdfJob(RdfSettings settings);

  const RdfSettings& settings() const { return settings_; }
  // Whether result() keeps an empty result (with a warning) instead of refusing it.
  void allow_empty(bool allow) { settings_.result.allow_empty = allow; }
  // The pair-histogram settings every frame is counted with (--gmx: half bins).
  PairHistogramSettings count_settings() const;

  // The count step: one frame's counts, nothing added. `frame.input.a` and `b` hold T.
  template <class T>
  PairHistogramResult count(const RdfFrame<T>& frame) const;
  // One frame checked against the first, counted in T and added: check_frame, count and
  // add_counted (a front end that counts without its lock calls the three itself).
  template <class T>
  void add_frame(const RdfFrame<T>& frame);
  // The frame's pairs; InputError naming the front end's field where it is unlike the first.
  template <class T>
  RdfPairs check_frame(const RdfFrame<T>& frame) const;
  template <class T>
  void add_counted(const RdfFrame<T>& frame, const RdfPairs& pairs,
                   const PairHistogramResult& counted);
  // Adds counts made elsewhere for one frame with these pairs (refusing a frame unlike the first).
  void add_counts(const RdfPairs& pairs, bool periodic, const std::vector<std::uint64_t>& counts,
                  double inverse_volume);
  // The totals of a run that counted its frames elsewhere (the trajectory pipeline).
  void set_totals(const RdfPairs& pairs, std::vector<std::uint64_t> counts, std::int64_t frames,
                  double mean_inverse_volume, std::string impl);

  std::int64_t frames() const { return summary_.frames; }
  // The counts in the count step's bins, with what normalises them.
  const RdfCountsSummary& summary() const { return summary_; }
  const std::string& impl() const { return impl_; }
  // The values normalised as the settings say (or as `norm`), unchecked (for their bins).
  Rdf values() const { return values(settings_.norm); }
  Rdf values(RdfNormalization norm) const;
  // The normalised values, checked: no pair counted (unless allow_empty) or a value that is not
  // finite is refused with InputError naming the front end's option.
  RdfResult result() const { return result(settings_.norm); }
  RdfResult result(RdfNormalization norm) const;
  // The result laid out for the writers; the caller adds the header lines it knows, the
  // selections, and for the HDF5 output the run state and frames.
  RdfReport report(const RdfResult& result) const;
  // The Kirkwood-Buff integrals of the counts so far (InputError naming names.kb where they
  // cannot be taken: no box, r_min > 0, a plane).
  KirkwoodBuff kirkwood_buff() const;
  // Standard errors by blocks of frames (rdf_blocks.hpp) in the job's conventions (its
  // normalisation, or `norm`): `requested`
  // blocks of equal frames merged from the base blocks (those left over join none), or with 0
  // the base blocks of full length, whose length blocking analysis chooses.
  RdfBlockErrors block_errors(const std::vector<RdfBlock>& base, std::int64_t requested) const;
  RdfBlockErrors block_errors(const std::vector<RdfBlock>& base, std::int64_t requested,
                              RdfNormalization norm) const;
  // Keeps each frame added from now on as a base block, for standard errors from `requested`
  // blocks of equal frames (0: blocking analysis chooses the block from single frames). Refused
  // (InputError naming names.blocks) after the first frame, and for 1 or fewer than 0 blocks.
  void keep_blocks(std::int64_t requested);
  // The kept frames in blocks, with the standard errors of g and n: InputError naming
  // names.blocks without keep_blocks, or with fewer frames than blocks (or than 2).
  RdfBlockErrors frame_block_errors() const { return frame_block_errors(settings_.norm); }
  RdfBlockErrors frame_block_errors(RdfNormalization norm) const;
  // Distances in `plane` (Plane::none: 3-D) from the first frame on; refused (InputError naming
  // names.plane) once a frame was added.
  void set_plane(Plane plane);
  // "key: value" lines on the range, normalisation, boundaries, precision and implementation.
  std::vector<std::string> describe() const;

 private:
  void refuse_unlike(const RdfPairs& pairs, bool periodic) const;
  Rdf values_of(const RdfCountsSummary& counts, RdfNormalization norm) const;

  RdfSettings settings_;
  RdfCountsSummary summary_;
  double inverse_volume_sum_ = 0;
  bool periodic_ = false;     // the first frame's: a box or none
  std::int64_t blocks_ = -1;  // keep_blocks: N, 0 for automatic, -1 for none
  std::vector<RdfBlock> kept_frames_;
  std::string impl_;
};

// The pairs of one frame's input: its sizes and the pairs its labels exclude (refused when they
// exclude every pair, naming `names.molecules`).
template <class T>
RdfPairs pairs_of(const PairHistogramInput<T>& input, const RdfNames& names);

}  // namespace kmol
