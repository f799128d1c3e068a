#pragma once
// Site-pair distance histograms (MDAnalysis' InterRDF_s): for each requested pair of groups
// (A_k, B_k), one histogram per atom pair (i of A_k, j of B_k), summed over frames. Every pair of
// every request is counted in one pass per frame, on any execution space: the groups are indices
// into one array of positions (their union), so each frame is copied once.
//
//   kmol::SiteHistograms<Kokkos::OpenMP, double> h(space, {{a, b}}, n, {0, 15, 75}, counts);
//   h.add_frame(positions, box);  ...  h.finish();
//   // counts[offset_k + (i * |B_k| + j) * n_bins + bin], requests one after another
//
// Pairs bin as every pair histogram bins them (HistogramRange::bin_of of pair_distance in the
// working precision: r_min <= r < r_max). Counts are doubles, exact up to 2^53 per bin.
#include <cstdint>
#include <memory>
#include <vector>

#include "kmol/core/box.hpp"
#include "kmol/core/vec3.hpp"

namespace kmol {

struct SiteHistogramSettings {
  double r_min = 0, r_max = 0;
  std::int32_t n_bins = 0;
};

struct SiteGroups {
  std::vector<std::int64_t> a, b;  // indices into the frame's positions
};

// The number of counts of all requests: sum of |A_k| |B_k| n_bins.
std::int64_t site_histogram_size(const std::vector<SiteGroups>& requests, std::int32_t n_bins);

template <class ExecSpace, class T>
class SiteHistograms {
 public:
  // counts: host array of site_histogram_size() doubles, added into (as each frame is counted
  // on a host space, by finish() on a device). Throws InputError for a bad range, bin count or
  // index.
  SiteHistograms(const ExecSpace& space, const std::vector<SiteGroups>& requests,
                 std::int64_t n_positions, const SiteHistogramSettings& settings, double* counts);
  ~SiteHistograms();
  SiteHistograms(const SiteHistograms&) = delete;
  SiteHistograms& operator=(const SiteHistograms&) = delete;

  // One frame: n_positions host positions (Angstrom) and its box (kind none: plain distances).
  // A box whose inscribed sphere is smaller than r_max is refused (UnsupportedError).
  void add_frame(const Vec3<T>* positions, const BoxSpec& box);
  // Makes every count so far visible in the host array.
  void finish();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace kmol
