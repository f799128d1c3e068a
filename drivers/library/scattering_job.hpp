#pragma once
// The scattering job every front end runs: the types and weights of the atoms, the histogram's
// range, the counts of frames added in blocks (the uncertainty comes from the blocks' spread),
// and the result: I(q), sigma(q), the discretisation error's estimate, the partial curves, the
// structure factors of a periodic system and the Guinier fit.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "drivers/library/scattering.hpp"
#include "kernels/pair_histogram/pair_histogram.hpp"

namespace kmol {

// histogram: Debye from the partial histograms; direct: Debye pair by pair; waves: a periodic
// system's |A(k)|^2 over the wave vectors its box allows (scattering_waves.hpp).
enum class ScatteringImpl { histogram, direct, waves };

struct ScatteringResult {
  std::vector<double> q, intensity, sigma, error;  // error: the discretisation error's estimate
  std::vector<double> partial;                     // [type pair][q]
  std::vector<std::string> pair_names;             // "C-O"
  StructureFactors structure;                      // periodic systems only
  GuinierFit guinier;                              // solutes in vacuum only
  double max_relative_error = 0;                   // of the estimate, over q
  std::int64_t frames = 0, blocks = 0;
};

// Atoms ordered by type (stable): atoms[k] = the k-th atom in that order; labels[k] its type.
// Counted in this order, a row's pairs fall into runs of one type pair, which the host kernel
// counts at its unlabelled rate.
struct TypeOrder {
  std::vector<std::int64_t> atoms;
  std::vector<std::int32_t> labels;
};
TypeOrder type_order(const std::vector<std::int32_t>& labels);

class ScatteringJob {
 public:
  // first_xyz: the first frame's atoms (the exchangeable hydrogens, the vacuum range); box: its
  // box (periodic) or none (solute in vacuum).
  ScatteringJob(ScatteringSettings settings, const AtomIdentity& atoms,
                const std::vector<std::string>& element_overrides,
                const std::vector<Vec3<double>>& first_xyz, const BoxSpec& box,
                ScatteringImpl impl = ScatteringImpl::histogram);

  // A solute-in-vacuum job over given types whose frames are subsets of atoms (add_subset), with
  // every pair within r_max (the observation volumes of a solution).
  ScatteringJob(ScatteringSettings settings, ScatteringTypes types, double r_max);

  const ScatteringSettings& settings() const { return settings_; }
  const ScatteringTypes& types() const { return types_; }
  const DebyeRange& range() const { return range_; }
  const DebyeTables& tables() const { return *tables_; }
  ScatteringSystem system() const { return system_; }
  ScatteringImpl impl() const { return impl_; }
  const std::vector<double>& q() const { return q_; }
  const std::vector<double>& weights() const { return weights_; }

  // The pair-histogram settings of a frame in `box` (species: types().of_atom).
  PairHistogramSettings count_settings(const BoxSpec& box) const;

  // One frame counted on `space` (histogram) or summed directly (direct), added as a block.
  template <class ExecSpace>
  void add_frame(const ExecSpace& space, const std::vector<Vec3<double>>& xyz, const BoxSpec& box);
  // One frame of some atoms: xyz and their type labels (types().of_atom's indices), counted on
  // `space` and added as a block.
  template <class ExecSpace>
  void add_subset(const ExecSpace& space, const std::vector<Vec3<double>>& xyz,
                  const std::vector<std::int32_t>& labels);
  // Counts of `frames` frames counted elsewhere, [type pair][bin], as one block;
  // inverse_volume_sum: the sum of their 1/V (periodic).
  void add_counts(const std::vector<std::uint64_t>& counts, std::int64_t frames,
                  double inverse_volume_sum);

  std::int64_t frames() const { return frames_; }
  // I(q) of each block added, in order (a frame's own for add_frame and add_subset).
  const std::vector<std::vector<double>>& block_intensities() const { return block_intensity_; }
  // Refuses a vacuum run whose pairs did not all fall within the range (naming r_max's option),
  // and no frame added.
  ScatteringResult result() const;
  // "key: value" lines on the probe, types, q grid, range, error and implementation.
  std::vector<std::string> describe(const ScatteringResult& result) const;

 private:
  std::vector<double> intensity_of(const std::vector<double>& counts, std::int64_t frames,
                                   double mean_inverse_volume, const DebyeKernel& kernel,
                                   const std::vector<double>& atoms) const;
  // Adds a block of counts with its atoms per type (summed over its frames) and the pairs every
  // frame has (those beyond the range are refused by result()).
  void add_block(const std::vector<std::uint64_t>& counts, std::int64_t frames,
                 double inverse_volume_sum, const std::vector<double>& atoms_sum,
                 std::uint64_t pairs);
  std::vector<double> direct_intensity(const std::vector<double>& pair_sum, double volume) const;
  void add_direct_block(const std::vector<double>& intensity, double inverse_volume);

  ScatteringSettings settings_;
  ScatteringTypes types_;
  ScatteringSystem system_;
  ScatteringImpl impl_;
  DebyeRange range_;
  std::shared_ptr<const DebyeTables> tables_;  // of q_ and range_, shared by a job's copies
  std::vector<double> q_, weights_;
  TypeOrder order_;                // of types_.of_atom
  std::vector<double> counts_;     // summed over frames
  std::vector<double> atoms_sum_;  // atoms of each type, summed over frames
  std::int64_t frames_ = 0;
  double inverse_volume_sum_ = 0;
  std::vector<std::vector<double>> block_intensity_;
  std::vector<std::int64_t> block_frames_;
  std::vector<double> direct_sum_;  // direct: sum of per-frame intensities
  std::uint64_t pairs_outside_ = 0;
};

}  // namespace kmol
