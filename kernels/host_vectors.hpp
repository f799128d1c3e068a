#pragma once
// The host's vector registers as xsimd batches: AVX2 with FMA (x86-64-v3, what the build selects),
// named as xsimd's architecture type so that nothing depends on runtime dispatch. Host compilers
// only: nvcc and hipcc get nothing (KMOL_HOST_VECTORS stays undefined).
#if defined(__AVX2__) && defined(__FMA__) && !defined(__CUDACC__) && !defined(__HIPCC__)
#define KMOL_HOST_VECTORS 1
#include <xsimd/xsimd.hpp>

#include <cstdint>

namespace kmol::vec {

// fma3<avx2>: fma() is the FMA instruction (plain avx2 would multiply and add, rounding twice).
using Arch = xsimd::fma3<xsimd::avx2>;
template <class T>
using Batch = xsimd::batch<T, Arch>;
template <class T>
using Mask = xsimd::batch_bool<T, Arch>;
template <class T>
constexpr int width = int(Batch<T>::size);

// Lanes 0..m-1 set.
inline Mask<float> first(float, int m) {
  return Batch<float>{0.f, 1.f, 2.f, 3.f, 4.f, 5.f, 6.f, 7.f} < Batch<float>(float(m));
}
inline Mask<double> first(double, int m) {
  return Batch<double>{0., 1., 2., 3.} < Batch<double>(double(m));
}

// x where m is set, +0 elsewhere, in one AND: xsimd 8.1's select blends, which GCC then turns into
// a compare and an AND (one instruction more a term).
template <class T>
inline Batch<T> keep(Mask<T> m, Batch<T> x) {
  return x & Batch<T>(typename Batch<T>::register_type(m));
}

// 1/sqrt(r2) within 2 ulp in single precision: the hardware estimate refined by one Newton step
// (like CUDA's rsqrtf), where a square root and a division cost twice as much.
inline Batch<float> rsqrt_newton(Batch<float> r2) {
  const Batch<float> y0 = xsimd::rsqrt(r2);
  return y0 * xsimd::fnma((Batch<float>(0.5f) * r2) * y0, y0, Batch<float>(1.5f));
}

// The sum of the lanes in a fixed order: halves, then quarters, then pairs, (x0 + x4) + ... as
// the registers' own reductions add them, so that a sum does not depend on the library's order.
inline float sum(Batch<float> v) {
  using I = xsimd::batch<std::uint32_t, Arch>;
  v += xsimd::swizzle(v, xsimd::batch_constant<I, 4, 5, 6, 7, 0, 1, 2, 3>());
  v += xsimd::swizzle(v, xsimd::batch_constant<I, 2, 3, 0, 1, 6, 7, 4, 5>());
  v += xsimd::swizzle(v, xsimd::batch_constant<I, 1, 0, 3, 2, 5, 4, 7, 6>());
  return v.get(0);
}
inline double sum(Batch<double> v) {
  using I = xsimd::batch<std::uint64_t, Arch>;
  v += xsimd::swizzle(v, xsimd::batch_constant<I, 2, 3, 0, 1>());
  v += xsimd::swizzle(v, xsimd::batch_constant<I, 1, 0, 3, 2>());
  return v.get(0);
}

}  // namespace kmol::vec
#endif
