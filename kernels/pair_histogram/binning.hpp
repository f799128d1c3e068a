#pragma once
// The binning rule every implementation and backend shares (Kokkos-free, so raw CUDA uses it).
//
// A pair counts in bin k iff edge_k <= r < edge_{k+1}, with edge_0 = r_min, edge_n = r_max and
// edge_k = fma(k, width, r_min) in the working precision, width = (r_max - r_min) / n. The first
// guess k = (r - r_min) / width is corrected against those exact edges, so the result does not
// depend on how a kernel computed its guess. For n <= max_bins the guess is within one bin (its
// rounding error is below 0.1 bin in single precision), so one branch-free step each way suffices
// and the function vectorises.
#include <cstdint>

#include "kmol/core/box.hpp"

namespace kmol {

template <class T>
struct HistogramRange {
  T r_min{}, r_max{}, width{}, inverse_width{};
  std::int32_t n_bins = 0;

  HistogramRange() = default;
  HistogramRange(double rmin, double rmax, std::int32_t bins)
      : r_min(T(rmin)),
        r_max(T(rmax)),
        width((T(rmax) - T(rmin)) / T(bins)),
        inverse_width(T(bins) / (T(rmax) - T(rmin))),
        n_bins(bins) {}

  static constexpr std::int32_t max_bins = 1 << 20;

  KMOL_INLINE T edge(std::int32_t k) const {
    return k <= 0 ? r_min : k >= n_bins ? r_max : math::fma(T(k), width, r_min);
  }

  // The bin of distance r, or -1 when r lies outside [r_min, r_max) (or is NaN).
  KMOL_INLINE std::int32_t bin_of(T r) const {
    T guess = (r - r_min) * inverse_width;
    guess = guess > T(0) ? guess : T(0);
    guess = guess < T(n_bins - 1) ? guess : T(n_bins - 1);
    std::int32_t k = std::int32_t(guess);
    k -= r < math::fma(T(k), width, r_min) ? 1 : 0;
    k += r >= math::fma(T(k + 1), width, r_min) ? 1 : 0;
    k = k < 0 ? 0 : k;
    k = k < n_bins ? k : n_bins - 1;
    return (r >= r_min && r < r_max) ? k : -1;
  }

  // Squared distance beyond which no pair can count (lets kernels skip the square root).
  KMOL_INLINE T r_max_squared() const { return r_max * r_max; }
};

// The distance every implementation bins: |minimum image of (b - a)| in the working precision.
template <class T, class Box>
KMOL_INLINE T pair_distance(const Box& box, Vec3<T> a, Vec3<T> b) {
  return math::sqrt(norm2(box.minimum_image(b - a)));
}

}  // namespace kmol
