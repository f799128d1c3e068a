#pragma once
// Fast binning of a squared distance, exact: the same bin as range.bin_of(sqrt(r2)) wherever
// fast_kernel_exact(range) holds, for pairs whose r2 lies in [square_threshold(r_min),
// square_threshold(r_max)). GPU kernels (raw CUDA and the portable engine on devices) use it in
// place of the correctly rounded square root and bin_of's two edge tests. Kokkos-free.
//
// On devices it uses rounding-mode additions and the approximate reciprocal square root; the
// host versions compute the same values with ordinary operations, so the scheme is testable on
// the host.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "kernels/pair_histogram/binning.hpp"

namespace kmol {
namespace fast_binning {

// The fast path's compile-time options, named, in this order where both appear: Offset, Roots.
// Offset::from_zero: r_min is zero, so r - r_min is r and the subtraction is left out.
enum class Offset { from_r_min, from_zero };
// Roots::above_min: x >= fast_sqrt_min is proven, so the root's clamp is left out.
enum class Roots { clamped, above_min };

// Adding 1.5 * 2^23 (2^52) rounding down floors |x| < 2^22 (2^51) exactly: the sum has unit
// spacing, and its low bits hold floor(x) + magic_bits.
KMOL_INLINE float floor_plus_magic(float x) {
#ifdef __CUDA_ARCH__
  return __fadd_rd(x, 0x1.8p23f);
#else
  return 0x1.8p23f + std::floor(x);
#endif
}
KMOL_INLINE double floor_plus_magic(double x) {
#ifdef __CUDA_ARCH__
  return __dadd_rd(x, 0x1.8p52);
#else
  return 0x1.8p52 + std::floor(x);
#endif
}
KMOL_INLINE float floor_plus_one(float m) { return m - (0x1.8p23f - 1); }
KMOL_INLINE double floor_plus_one(double m) { return m - (0x1.8p52 - 1); }
KMOL_INLINE int low_bits(float m) {
#ifdef __CUDA_ARCH__
  return __float_as_int(m);
#else
  int bits;
  std::memcpy(&bits, &m, sizeof bits);
  return bits;
#endif
}
KMOL_INLINE int low_bits(double m) {
#ifdef __CUDA_ARCH__
  return __double2loint(m);
#else
  std::uint64_t bits;
  std::memcpy(&bits, &m, sizeof bits);
  return int(std::uint32_t(bits));
#endif
}
template <class T>
constexpr int magic_bits = sizeof(T) == sizeof(float) ? 0x4B400000 : 0;

// The bin of r in [r_min, r_max) plus magic_bits (callers fold it into their offsets), with one
// edge test instead of two: floor(guess - 1/2) is the bin or the one before where
// fast_kernel_exact holds, and the edge above it decides. Gives n_bins where bin_of clamps to
// n_bins - 1 (r at or above edge n_bins, below r_max).
template <class T>
KMOL_INLINE int fast_bin_plus_magic(const HistogramRange<T>& range, T r) {
  const T m = floor_plus_magic(math::fma(r - range.r_min, range.inverse_width, T(-0.5)));
  const T next_edge = math::fma(floor_plus_one(m), range.width, range.r_min);
  return low_bits(m) + (r >= next_edge ? 1 : 0);
}

// Below this the fast square root is not CUDA's correctly rounded one (see fast_sqrt).
constexpr float fast_sqrt_min = 0x1p-100f;

// sqrtf for x >= 2^-100 without its branch: CUDA's correctly rounded sqrtf computes exactly
// this (sm_80, sm_90) and branches to a slow path only for x < 2^-101, infinities and NaN.
// Smaller x are raised to 2^-100 (see fast_kernel_exact); infinities and NaN only come from
// pairs that never count.
// fast_sqrt for x >= fast_sqrt_min, where a kernel proves that every x it takes lies there.
KMOL_INLINE float fast_sqrt_above_min(float x) {
#ifdef __CUDA_ARCH__
  float y;
  asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  const float s = x * y, half_y = 0.5f * y;
  return fmaf(fmaf(-s, s, x), half_y, s);
#else
  return std::sqrt(x);
#endif
}
KMOL_INLINE float fast_sqrt(float x) {
#ifdef __CUDA_ARCH__
  return fast_sqrt_above_min(fmaxf(x, fast_sqrt_min));
#else
  return fast_sqrt_above_min(std::fmax(x, fast_sqrt_min));
#endif
}
template <Roots R = Roots::clamped>
KMOL_INLINE double fast_root(double x) {
  return math::sqrt(x);
}
template <Roots R = Roots::clamped>
KMOL_INLINE float fast_root(float x) {
  return R == Roots::above_min ? fast_sqrt_above_min(x) : fast_sqrt(x);
}

// Whether fast_bin_plus_magic(range, fast_root(r2)) bins every pair as bin_of(sqrt(r2)).
//
// fast_bin_plus_magic: let u be the unit roundoff, n the bins and
// rho = n max(|r_min|, |r_max|) / (r_max - r_min). Rounding moves bin_of's guess
// (r - r_min) * inverse_width by at most 4.02 u n bins from the exact position, each edge
// fma(k, width, r_min) by at most u (2.01 n + 1.01 rho) bins, and the fast guess, half a bin
// lower, by 2.01 u n + u/2 more. If the sum stays below half a bin, bin_of's guess is within one
// bin of the bin its edges define (so bin_of returns that bin) and floor(fast guess) is that bin
// or the one before; accepted below a quarter bin.
//
// fast_root (float): exact from 2^-100 up. Roots of smaller r2 (< 2^-50) never count when
// r_min >= 2^-50; else they, like 2^-50 itself, all fall in bin 0 when r_min <= 0, the guess at
// 2^-50 is below 1 (guesses grow with r) and edge 1 lies above 2^-50.
template <class T>
inline bool fast_kernel_exact(const HistogramRange<T>& range) {
  const double u = std::numeric_limits<T>::epsilon() / 2, n = range.n_bins;
  const double rho = n * std::max(std::abs(double(range.r_min)), std::abs(double(range.r_max))) /
                     (double(range.r_max) - double(range.r_min));
  if (!(u * (8.1 * n + 1.1 * rho + 1) <= 0.25)) return false;
  if (sizeof(T) == sizeof(double)) return true;
  const T tiny_root = T(0x1p-50);
  if (range.r_min >= tiny_root) return true;
  return range.r_min <= 0 && (tiny_root - range.r_min) * range.inverse_width < 1 &&
         math::fma(T(1), range.width, range.r_min) > tiny_root;
}

// The table kernel (float): a guess from the approximate square root, then one test against the
// exact squared edge above it, held in shared memory.
//
// The guess floor(fma(sqrt_approx(r2), scale, offset)), scale = 1/width, offset = -r_min/width -
// 1/2, is the bin or the one before where table_guess_exact holds: next to the edge errors of
// fast_kernel_exact (u (2.01 n + 1.01 rho) bins), the approximate root (taken as within 8 u of
// the exact one, CUDA documents 1 ulp) and the correctly rounded one each move it by at most
// 9 u rho bins, the rounded scale and offset by u rho and u (rho + 1/2), and the fma's rounding by
// u (n + 1). Accepted below a quarter bin. A flush-to-zero root of r2 < 2^-126 is 0: off by
// under 2^-63, below a bin where the width exceeds 2^-40.
inline bool table_guess_exact(const HistogramRange<float>& range) {
  const double u = std::numeric_limits<float>::epsilon() / 2, n = range.n_bins;
  const double rho = n * std::max(std::abs(double(range.r_min)), std::abs(double(range.r_max))) /
                     (double(range.r_max) - double(range.r_min));
  return fast_kernel_exact(range) && u * (3.01 * n + 12.1 * rho + 1.5) <= 0.25 &&
         range.width >= 0x1p-40f;
}

struct TableGuess {
  float scale = 0, offset = 0;

  TableGuess() = default;
  explicit TableGuess(const HistogramRange<float>& range)
      : scale(range.inverse_width),
        offset(float(-double(range.r_min) * double(range.inverse_width) - 0.5)) {}

  // The guessed bin plus magic_bits<float>, from an approximate root of r2.
  KMOL_INLINE int bin_plus_magic(float root) const {
    return low_bits(floor_plus_magic(math::fma(root, scale, offset)));
  }
};

// The least x with sqrt(x) >= r. sqrt is monotone and correctly rounded on host and device, so
// r = sqrt(r2) lies in [r_min, r_max) exactly when r2 lies in [threshold(r_min), threshold(r_max)):
// out-of-range pairs are rejected before the square root.
template <class T>
inline T square_threshold(T r) {
  if (!(r > T(0))) return T(0);
  const T down = T(0), up = std::numeric_limits<T>::infinity();
  T x = T(double(r) * double(r));
  while (x > T(0) && math::sqrt(std::nextafter(x, down)) >= r) x = std::nextafter(x, down);
  while (math::sqrt(x) < r) x = std::nextafter(x, up);
  return x;
}

// square_threshold of edges 0..n_bins: pairs in bins [k, l) are those with r2 in [t[k], t[l]).
template <class T>
std::vector<T> edge_thresholds(const HistogramRange<T>& range) {
  std::vector<T> t(std::size_t(range.n_bins) + 1);
  for (std::int32_t k = 0; k <= range.n_bins; ++k)
    t[std::size_t(k)] = square_threshold(range.edge(k));
  return t;
}

// A counter's handle (a 32-bit shared address or offset) moved to the next counter where
// value >= edge: one predicated add on CUDA devices (a comparison and a select take two).
template <class T>
KMOL_INLINE std::uint32_t next_handle_if(std::uint32_t handle, T value, T edge) {
#ifdef __CUDA_ARCH__
  if constexpr (sizeof(T) == sizeof(float))
    asm("{\n .reg .pred up;\n setp.ge.f32 up, %1, %2;\n @up add.u32 %0, %0, 4;\n}"
        : "+r"(handle)
        : "f"(value), "f"(edge));
  else
    asm("{\n .reg .pred up;\n setp.ge.f64 up, %1, %2;\n @up add.u32 %0, %0, 4;\n}"
        : "+r"(handle)
        : "d"(value), "d"(edge));
  return handle;
#else
  return value >= edge ? handle + 4 : handle;
#endif
}

}  // namespace fast_binning
}  // namespace kmol
