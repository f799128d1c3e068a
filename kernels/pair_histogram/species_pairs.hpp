#pragma once
// A one-set job of atoms sorted by species, without exclusions, as one unlabelled job per species
// pair: (s, s) one set over s's run of atoms, (s, t) two sets, s's run against t's. Each runs the
// kernel's unlabelled path over one histogram's bins; the labelled job would look up every pair's
// type and sweep n(n+1)/2 histograms' bins in windows of what one block holds.
#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "kernels/pair_histogram/job.hpp"

namespace kmol {

template <class T>
struct SpeciesPairJob {
  PairHistogramJob<T> job;  // counts into the pair's histogram of the labelled job
  std::int64_t first_bin;   // of that histogram in the flattened counts
};

// Empty when the job is not such a job (two sets, no species, exclusions, atoms not sorted).
// The lower species' atoms come first in both layouts, so every displacement keeps the labelled
// job's direction (a periodic image's length can depend on it right at half a box). Without a box
// the longer run becomes B, along which the kernels spread their threads.
template <class T>
std::vector<SpeciesPairJob<T>> species_pair_jobs(const PairHistogramJob<T>& job) {
  const PairLabels& l = job.labels;
  if (!job.one_set || l.species == nullptr || l.molecule_a != nullptr || l.n_species < 2) return {};
  std::vector<std::int64_t> begin(std::size_t(l.n_species) + 1, job.n_a);
  for (std::int64_t i = job.n_a - 1; i >= 0; --i) {
    if (i > 0 && l.species[i - 1] > l.species[i]) return {};
    begin[std::size_t(l.species[i])] = i;
  }
  for (std::int32_t s = l.n_species - 1; s >= 0; --s)
    begin[std::size_t(s)] = std::min(begin[std::size_t(s)], begin[std::size_t(s) + 1]);
  std::vector<SpeciesPairJob<T>> jobs;
  for (std::int32_t s = 0; s < l.n_species; ++s)
    for (std::int32_t t = s; t < l.n_species; ++t) {
      const std::int32_t h = species_pair_index(s, t, l.n_species);
      if (l.enabled != nullptr && !l.enabled[h]) continue;
      PairHistogramJob<T> pair = job;
      pair.labels = PairLabels{};
      pair.n_histograms = 1;
      pair.counts = job.counts + std::int64_t(h) * job.range.n_bins;
      pair.a = job.a + begin[std::size_t(s)];
      pair.n_a = begin[std::size_t(s) + 1] - begin[std::size_t(s)];
      pair.b = job.a + begin[std::size_t(t)];
      pair.n_b = begin[std::size_t(t) + 1] - begin[std::size_t(t)];
      pair.one_set = s == t;
      if (pair.one_set) pair.b = pair.a;
      if (!pair.one_set && job.box.kind == BoxKind::none && pair.n_a > pair.n_b) {
        std::swap(pair.a, pair.b);
        std::swap(pair.n_a, pair.n_b);
      }
      if (pair.pair_count() > 0) jobs.push_back({pair, std::int64_t(h) * job.range.n_bins});
    }
  return jobs;
}

}  // namespace kmol
