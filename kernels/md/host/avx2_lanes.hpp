#pragma once
// The AVX2 registers the host Lennard-Jones sweeps work in: one register of T (8 floats or 4
// doubles) with the loads, transposes, arithmetic and masks the sweeps use, kept apart so the
// force code reads as the algorithm. Only for builds with AVX2 and FMA (x86-64-v3).
#include <immintrin.h>

#include <cstdint>

namespace kmol::md_host {

// One AVX2 register of T and what the sweeps do with it. Positions and forces are rows of four
// (x, y, z, 0), so a partner's row is one aligned load and a register's worth of rows transposes
// into x, y and z registers: no per-component scalar gathers.
template <class T>
struct Lanes;

template <>
struct Lanes<float> {
  using V = __m256;
  static constexpr int width = 8;
  static V set(float a) { return _mm256_set1_ps(a); }
  static V add(V a, V b) { return _mm256_add_ps(a, b); }
  static V sub(V a, V b) { return _mm256_sub_ps(a, b); }
  static V mul(V a, V b) { return _mm256_mul_ps(a, b); }
  static V div(V a, V b) { return _mm256_div_ps(a, b); }
  static V fma(V a, V b, V c) { return _mm256_fmadd_ps(a, b, c); }
  static V sqrt(V a) { return _mm256_sqrt_ps(a); }
  static V floor(V a) { return _mm256_floor_ps(a); }
  static V less(V a, V b) { return _mm256_cmp_ps(a, b, _CMP_LT_OQ); }
  static V both(V a, V b) { return _mm256_and_ps(a, b); }
  static V select(V mask, V yes, V no) { return _mm256_blendv_ps(no, yes, mask); }
  static V first(int m) {  // lanes 0..m-1 set
    return _mm256_castsi256_ps(
        _mm256_cmpgt_epi32(_mm256_set1_epi32(m), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7)));
  }
  static int bits(V mask) { return _mm256_movemask_ps(mask); }
  static float sum(V v) {
    __m128 a = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    a = _mm_add_ps(a, _mm_movehl_ps(a, a));
    return _mm_cvtss_f32(_mm_add_ss(a, _mm_movehdup_ps(a)));
  }
  // Rows row(0..7) into x, y, z.
  template <class Row>
  static void load(Row row, V& x, V& y, V& z) {
    const auto pair = [&](int k) {
      return _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_load_ps(row(k))),
                                  _mm_load_ps(row(k + 4)), 1);
    };
    const V r0 = pair(0), r1 = pair(1), r2 = pair(2), r3 = pair(3);
    const V t0 = _mm256_unpacklo_ps(r0, r1), t1 = _mm256_unpackhi_ps(r0, r1);
    const V t2 = _mm256_unpacklo_ps(r2, r3), t3 = _mm256_unpackhi_ps(r2, r3);
    x = _mm256_shuffle_ps(t0, t2, 0x44);
    y = _mm256_shuffle_ps(t0, t2, 0xEE);
    z = _mm256_shuffle_ps(t1, t3, 0x44);
  }
  // Row row(k) -= (x, y, z) of lane k.
  template <class Row>
  static void subtract(Row row, V x, V y, V z) {
    const V zero = _mm256_setzero_ps();
    const V t0 = _mm256_unpacklo_ps(x, y), t1 = _mm256_unpackhi_ps(x, y);
    const V t2 = _mm256_unpacklo_ps(z, zero), t3 = _mm256_unpackhi_ps(z, zero);
    const V r[4] = {_mm256_shuffle_ps(t0, t2, 0x44), _mm256_shuffle_ps(t0, t2, 0xEE),
                    _mm256_shuffle_ps(t1, t3, 0x44), _mm256_shuffle_ps(t1, t3, 0xEE)};
    for (int k = 0; k < 4; ++k) {
      float* lo = row(k);
      float* hi = row(k + 4);
      _mm_store_ps(lo, _mm_sub_ps(_mm_load_ps(lo), _mm256_castps256_ps128(r[k])));
      _mm_store_ps(hi, _mm_sub_ps(_mm_load_ps(hi), _mm256_extractf128_ps(r[k], 1)));
    }
  }
};

template <>
struct Lanes<double> {
  using V = __m256d;
  static constexpr int width = 4;
  static V set(double a) { return _mm256_set1_pd(a); }
  static V add(V a, V b) { return _mm256_add_pd(a, b); }
  static V sub(V a, V b) { return _mm256_sub_pd(a, b); }
  static V mul(V a, V b) { return _mm256_mul_pd(a, b); }
  static V div(V a, V b) { return _mm256_div_pd(a, b); }
  static V fma(V a, V b, V c) { return _mm256_fmadd_pd(a, b, c); }
  static V sqrt(V a) { return _mm256_sqrt_pd(a); }
  static V floor(V a) { return _mm256_floor_pd(a); }
  static V less(V a, V b) { return _mm256_cmp_pd(a, b, _CMP_LT_OQ); }
  static V both(V a, V b) { return _mm256_and_pd(a, b); }
  static V select(V mask, V yes, V no) { return _mm256_blendv_pd(no, yes, mask); }
  static V first(int m) {
    return _mm256_castsi256_pd(
        _mm256_cmpgt_epi64(_mm256_set1_epi64x(m), _mm256_setr_epi64x(0, 1, 2, 3)));
  }
  static int bits(V mask) { return _mm256_movemask_pd(mask); }
  static double sum(V v) {
    const __m128d a = _mm_add_pd(_mm256_castpd256_pd128(v), _mm256_extractf128_pd(v, 1));
    return _mm_cvtsd_f64(_mm_add_sd(a, _mm_unpackhi_pd(a, a)));
  }
  template <class Row>
  static void load(Row row, V& x, V& y, V& z) {
    const V r0 = _mm256_load_pd(row(0)), r1 = _mm256_load_pd(row(1)), r2 = _mm256_load_pd(row(2)),
            r3 = _mm256_load_pd(row(3));
    const V t0 = _mm256_unpacklo_pd(r0, r1),
            t1 = _mm256_unpackhi_pd(r0, r1);  // x0 x1 z0 z1, y0 y1 w0 w1
    const V t2 = _mm256_unpacklo_pd(r2, r3), t3 = _mm256_unpackhi_pd(r2, r3);
    x = _mm256_permute2f128_pd(t0, t2, 0x20);
    y = _mm256_permute2f128_pd(t1, t3, 0x20);
    z = _mm256_permute2f128_pd(t0, t2, 0x31);
  }
  template <class Row>
  static void subtract(Row row, V x, V y, V z) {
    const V zero = _mm256_setzero_pd();
    const V t0 = _mm256_unpacklo_pd(x, y),
            t1 = _mm256_unpackhi_pd(x, y);  // x0 y0 x2 y2, x1 y1 x3 y3
    const V t2 = _mm256_unpacklo_pd(z, zero), t3 = _mm256_unpackhi_pd(z, zero);
    const V r[4] = {_mm256_permute2f128_pd(t0, t2, 0x20), _mm256_permute2f128_pd(t1, t3, 0x20),
                    _mm256_permute2f128_pd(t0, t2, 0x31), _mm256_permute2f128_pd(t1, t3, 0x31)};
    for (int k = 0; k < 4; ++k) {
      double* p = row(k);
      _mm256_store_pd(p, _mm256_sub_pd(_mm256_load_pd(p), r[k]));
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
  __m256i lanes(int mask) const {
    return _mm256_cvtepu8_epi32(_mm_cvtsi64_si128(std::int64_t(packed[mask])));
  }
};
inline const SetBitTable set_bits;

}  // namespace kmol::md_host
