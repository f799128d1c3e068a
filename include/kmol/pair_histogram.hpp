#pragma once
// Pair-distance histograms and radial distribution functions: kmol::pair_histogram over atoms in
// host memory (one_set, two_sets) or in Kokkos Views (docs/views.md), and g(r) from the counts.
#include <cstdint>
#include <type_traits>

#include "kernels/pair_histogram/gr.hpp"
#include "kernels/pair_histogram/pair_histogram.hpp"
#include "kernels/pair_histogram/views.hpp"
#include "kmol/core/points.hpp"

namespace kmol {

// one_set and two_sets from flat arrays x0,y0,z0,x1,... of n atoms (3n values), and from
// contiguous ranges of Vec3s or of coordinates (points.hpp). The input points into them, so they
// outlive the call.
template <class T, class = std::enable_if_t<std::is_floating_point_v<T>>>
PairHistogramInput<T> one_set(const T* xyz, std::int64_t n) {
  return one_set(as_points(xyz), n);
}
template <class T, class = std::enable_if_t<std::is_floating_point_v<T>>>
PairHistogramInput<T> two_sets(const T* a, std::int64_t n_a, const T* b, std::int64_t n_b) {
  return two_sets(as_points(a), n_a, as_points(b), n_b);
}
template <class Range, class T = points_scalar_t<Range>>
PairHistogramInput<T> one_set(const Range& xyz) {
  const Points<T> p = points(xyz);
  return one_set(p.data, p.n);
}
template <class RangeA, class RangeB, class T = points_scalar_t<RangeA>>
PairHistogramInput<T> two_sets(const RangeA& a, const RangeB& b) {
  const Points<T> pa = points(a, "a"), pb = points(b, "b");
  return two_sets(pa.data, pa.n, pb.data, pb.n);
}

}  // namespace kmol
