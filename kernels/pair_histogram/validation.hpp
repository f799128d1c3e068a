#pragma once
// Turns user input into a PairHistogramJob, refusing bad input with errors that name the field.
#include <memory>
#include <string>
#include <vector>

#include "kernels/pair_histogram/job.hpp"
#include "kernels/pair_histogram/pair_histogram.hpp"
#include "kernels/pair_histogram/periodic_images.hpp"
#include "kernels/pair_histogram/selection.hpp"

namespace kmol {

template <class T>
struct PreparedPairHistogram {
  PairHistogramJob<T> job;  // points into `enabled` and `result.counts`
  std::vector<std::uint8_t> enabled;
  PairHistogramResult result;
  PairHistogramShape shape;  // of the jobs that run: without a box for an image sum
  std::unique_ptr<PeriodicImages<T>> images;      // r_max beyond the inscribed radius: every image
  std::vector<Vec3<T>> projected_a, projected_b;  // in a plane: the coordinates the job reads

  PreparedPairHistogram() = default;
  PreparedPairHistogram(const PreparedPairHistogram&) = delete;
  PreparedPairHistogram& operator=(const PreparedPairHistogram&) = delete;
};

// Whether atoms already in the space's memory are counted where they live on `platform`: not
// for distances in a plane or beyond the minimum image (counted from host copies), nor by an
// implementation that reads host arrays (cuda packs them into its own layout).
bool counts_resident_atoms(std::int64_t n_a, std::int64_t n_b, bool one_set,
                           const PairHistogramSettings& settings, Platform platform);

template <class T>
void prepare_pair_histogram(const PairHistogramInput<T>& input,
                            const PairHistogramSettings& settings, PreparedPairHistogram<T>& out);

// Counts the prepared problem: its job, or every term of its image sum and then the exclusions.
// `run(job)` adds one job's counts and returns the implementation's launch description.
template <class T, class Run>
std::string run_prepared(PreparedPairHistogram<T>& p, Run&& run) {
  if (!p.images) return p.job.pair_count() > 0 ? run(p.job) : std::string();
  std::string launch;
  ImageTermStorage<T> storage;
  for (std::int64_t k = 0; k < p.images->n_terms(); ++k)
    for (const auto& job : p.images->jobs(k, p.job.counts, storage))
      if (job.pair_count() > 0) launch = run(job);
  p.images->remove_excluded(p.job.counts);
  return launch + "; every image: " + std::to_string(p.images->n_terms()) + " lattice translations";
}

}  // namespace kmol
