#pragma once
// A validated pair-histogram problem as every implementation receives it. Pointers are host
// memory, except a and b of a resident job (in the execution space's memory); an implementation
// that runs elsewhere copies what it needs (and that copy is part of its measured time, as VMD
// and CADISHI report it).
#include <cstdint>

#include "kernels/pair_histogram/binning.hpp"
#include "kernels/pair_histogram/pair_histogram.hpp"
#include "kernels/pair_histogram/pair_labels.hpp"

namespace kmol {

template <class T>
struct PairHistogramJob {
  const Vec3<T>* a = nullptr;
  std::int64_t n_a = 0;
  const Vec3<T>* b = nullptr;  // equals a when one_set
  std::int64_t n_b = 0;
  bool one_set = false;   // count each unordered pair i < j of a once
  bool resident = false;  // a and b are in the execution space's memory
  BoxSpec box;            // validated (triclinic cells reduced); r_max within its inscribed radius
  HistogramRange<T> range;
  PairLabels labels;  // host pointers, same layout as on devices
  std::int32_t n_histograms = 1;
  std::uint64_t* counts = nullptr;     // [n_histograms][n_bins], zeroed; implementations add to it
  PairHistogramLaunchOverride launch;  // forced launch parameters (cuda only)
  // The largest |coordinate| of a and b where the call already has it (from its caller, or the
  // finite check of resident atoms), else -1: the cell list's rounding margin needs it, and on a
  // GPU its own reduction would cost a wait for the device.
  double extent = -1;

  std::int64_t pair_count() const { return one_set ? n_a * (n_a - 1) / 2 : n_a * n_b; }
};

}  // namespace kmol
