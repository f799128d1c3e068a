#pragma once
// The rows the host Lennard-Jones sweeps move between memory and AVX2 registers (xsimd batches,
// kernels/host_vectors.hpp): positions and forces are rows of four (x, y, z, 0), so a partner's
// row is one aligned load and a register's worth of rows transposes into x, y and z registers, no
// per-component scalar gathers. Only where KMOL_HOST_VECTORS is defined.
#include "kernels/host_vectors.hpp"

#ifdef KMOL_HOST_VECTORS
#include <immintrin.h>

#include <cstdint>

namespace kmol::md_host {

template <class T>
using V = vec::Batch<T>;

// The lanes set in a mask as bits. xsimd 8.1 has no mask-to-bits (batch_bool::mask() arrived in
// xsimd 9), so this is the register's movemask.
inline int bits(vec::Mask<float> m) { return _mm256_movemask_ps(m); }
inline int bits(vec::Mask<double> m) { return _mm256_movemask_pd(m); }

template <class T>
struct Rows;

template <>
struct Rows<float> {
  // xsimd 8.1 has no loads or stores of half a register: rows k and k + 4 go into (and out of)
  // the two halves of one register through its intrinsic type; the transposes are xsimd's.
  template <bool Aligned>
  static V<float> pair(const float* lo, const float* hi) {
    if constexpr (Aligned)
      return _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_load_ps(lo)), _mm_load_ps(hi), 1);
    else
      return _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(lo)), _mm_loadu_ps(hi), 1);
  }
  // Interleaves the 64-bit pairs of a and b within each 128-bit half (movelh / movehl).
  static V<float> pairs_lo(V<float> a, V<float> b) {
    return xsimd::bitwise_cast<V<float>>(
        xsimd::zip_lo(xsimd::bitwise_cast<V<double>>(a), xsimd::bitwise_cast<V<double>>(b)));
  }
  static V<float> pairs_hi(V<float> a, V<float> b) {
    return xsimd::bitwise_cast<V<float>>(
        xsimd::zip_hi(xsimd::bitwise_cast<V<double>>(a), xsimd::bitwise_cast<V<double>>(b)));
  }
  // Rows row(0..7) into x, y, z (Aligned: each row on 16 bytes; otherwise anywhere, the fourth
  // value read and ignored).
  template <bool Aligned = true, class Row>
  static void load(Row row, V<float>& x, V<float>& y, V<float>& z) {
    const V<float> r0 = pair<Aligned>(row(0), row(4)), r1 = pair<Aligned>(row(1), row(5)),
                   r2 = pair<Aligned>(row(2), row(6)), r3 = pair<Aligned>(row(3), row(7));
    const V<float> t0 = xsimd::zip_lo(r0, r1), t1 = xsimd::zip_hi(r0, r1);
    const V<float> t2 = xsimd::zip_lo(r2, r3), t3 = xsimd::zip_hi(r2, r3);
    x = pairs_lo(t0, t2);
    y = pairs_hi(t0, t2);
    z = pairs_lo(t1, t3);
  }
  // Row row(k) -= (x, y, z) of lane k.
  template <class Row>
  static void subtract(Row row, V<float> x, V<float> y, V<float> z) {
    const V<float> zero(0.0f);
    const V<float> t0 = xsimd::zip_lo(x, y), t1 = xsimd::zip_hi(x, y);
    const V<float> t2 = xsimd::zip_lo(z, zero), t3 = xsimd::zip_hi(z, zero);
    const __m256 r[4] = {pairs_lo(t0, t2), pairs_hi(t0, t2), pairs_lo(t1, t3), pairs_hi(t1, t3)};
    for (int k = 0; k < 4; ++k) {
      float* lo = row(k);
      float* hi = row(k + 4);
      _mm_store_ps(lo, _mm_sub_ps(_mm_load_ps(lo), _mm256_castps256_ps128(r[k])));
      _mm_store_ps(hi, _mm_sub_ps(_mm_load_ps(hi), _mm256_extractf128_ps(r[k], 1)));
    }
  }
};

template <>
struct Rows<double> {
  using Low = xsimd::batch_bool_constant<V<double>, true, true, false, false>;
  using Lows = xsimd::batch_constant<xsimd::batch<std::uint64_t, vec::Arch>, 0, 1, 0, 1>;
  using Highs = xsimd::batch_constant<xsimd::batch<std::uint64_t, vec::Arch>, 2, 3, 2, 3>;
  // The low halves of a and b (permute2f128 0x20), and their high halves (0x31).
  static V<double> lows(V<double> a, V<double> b) {
    return xsimd::select(Low(), a, xsimd::swizzle(b, Lows()));
  }
  static V<double> highs(V<double> a, V<double> b) {
    return xsimd::select(Low(), xsimd::swizzle(a, Highs()), b);
  }
  template <bool Aligned = true, class Row>
  static void load(Row row, V<double>& x, V<double>& y, V<double>& z) {
    const auto get = [&](int k) {
      if constexpr (Aligned)
        return V<double>::load_aligned(row(k));
      else
        return V<double>::load_unaligned(row(k));
    };
    const V<double> r0 = get(0), r1 = get(1), r2 = get(2), r3 = get(3);
    const V<double> t0 = xsimd::zip_lo(r0, r1), t1 = xsimd::zip_hi(r0, r1);  // x0 x1 z0 z1, y w
    const V<double> t2 = xsimd::zip_lo(r2, r3), t3 = xsimd::zip_hi(r2, r3);
    x = lows(t0, t2);
    y = lows(t1, t3);
    z = highs(t0, t2);
  }
  template <class Row>
  static void subtract(Row row, V<double> x, V<double> y, V<double> z) {
    const V<double> zero(0.0);
    const V<double> t0 = xsimd::zip_lo(x, y), t1 = xsimd::zip_hi(x, y);  // x0 y0 x2 y2, x1 y1 ..
    const V<double> t2 = xsimd::zip_lo(z, zero), t3 = xsimd::zip_hi(z, zero);
    const V<double> r[4] = {lows(t0, t2), lows(t1, t3), highs(t0, t2), highs(t1, t3)};
    for (int k = 0; k < 4; ++k) {
      double* p = row(k);
      (V<double>::load_aligned(p) - r[k]).store_aligned(p);
    }
  }
};

// For each 8-bit mask, the lanes whose bits are set, in order, packed into the low lanes.
struct SetBitTable {
  std::uint64_t packed[256];
  SetBitTable() {
    for (int m = 0; m < 256; ++m) {
      std::uint64_t p = 0;
      for (int lane = 0, k = 0; lane < 8; ++lane)
        if (m >> lane & 1) p |= std::uint64_t(lane) << (8 * k++);
      packed[m] = p;
    }
  }
  // The 8 bytes widened in one instruction (xsimd 8.1 converts lane by lane).
  V<std::int32_t> lanes(int mask) const {
    return _mm256_cvtepu8_epi32(_mm_cvtsi64_si128(std::int64_t(packed[mask])));
  }
};
inline const SetBitTable set_bits;

}  // namespace kmol::md_host
#endif
