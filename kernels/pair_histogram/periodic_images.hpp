#pragma once
// Pair histograms to any r_max in a periodic box: every image within r_max counts, the g(r) of the
// infinite periodic system. Beyond the box's inscribed radius the minimum-image functors no longer
// find every image, so the problem becomes a sum of no-box two-set histograms, one per lattice
// translation n of the second set, which every implementation counts exactly as it is:
//   - both sets wrapped into the cell (fractions in [0, 1)), so a pair's images within r_max have
//     |n_i| <= ceil(r_max / height_i);
//   - per n, only the atoms of A within r_max of the cell shifted by n, and those of B + n within
//     r_max of the cell, take part (a slab test per face pair, with a margin, so no pair within
//     r_max is left out);
//   - one set: the n = 0 term is the usual one-set histogram (i < j), and of each pair +-n only
//     one term, with every ordered (i, j), i = j included (an atom and its own image are a pair);
//   - species partials of one set: a job per ordered species pair of each n != 0 term;
//   - exclusions (same molecule, or an atom shared by both selections): the terms count every
//     image; afterwards the shortest image of each excluded pair, if it counted, is taken out
//     again, with the same arithmetic as its term. Within the minimum-image radius that is the
//     minimum-image result exactly; beyond it the other images of a molecule's atoms are atoms of
//     other molecules of the infinite system.
// Kokkos-free: the worker pool's raw paths run the same terms.
#include <cstdint>
#include <memory>
#include <vector>

#include "kernels/pair_histogram/job.hpp"

namespace kmol {

// Whether r_max needs the image sum in this (validated) box.
bool beyond_minimum_image(const BoxSpec& box, double r_max);

// The coordinates and labels of one term's jobs; the jobs point into it.
template <class T>
struct ImageTermStorage {
  std::vector<Vec3<T>> a, b;
  std::vector<PairHistogramJob<T>> jobs;
};

template <class T>
class PeriodicImages {
 public:
  // `whole` is the validated job with its periodic box (counts, labels and range are kept).
  explicit PeriodicImages(const PairHistogramJob<T>& whole);

  std::int64_t n_terms() const { return std::int64_t(terms_.size()); }

  // The no-box jobs of term k (empty sets left out), adding into `counts` laid out as the whole
  // job's [histogram][bin].
  const std::vector<PairHistogramJob<T>>& jobs(std::int64_t k, std::uint64_t* counts,
                                               ImageTermStorage<T>& storage) const;

  // Takes each excluded pair's shortest image out of `counts` (after every term has counted).
  void remove_excluded(std::uint64_t* counts) const;

 private:
  struct Translation {
    int n[3];
  };
  Vec3<double> shift(const Translation& t) const;
  Vec3<T> image_of(const Vec3<double>& wrapped, const Translation& t) const;
  bool a_reaches(std::int64_t i, const Translation& t) const;
  bool b_reaches(std::int64_t j, const Translation& t) const;
  Translation shortest(std::int64_t i, std::int64_t j) const;
  void remove_one(std::int64_t i, std::int64_t j, std::uint64_t* counts) const;

  PairHistogramJob<T> whole_;
  Vec3<double> edge_[3], reciprocal_[3];
  double reach_[3];  // r_max / height_i with a margin, in fractions of edge i
  int most_[3];      // |n_i| <= most_[i]
  std::vector<Vec3<double>> wrapped_a_, wrapped_b_, fraction_a_, fraction_b_;
  std::vector<Translation> terms_;
};

}  // namespace kmol
