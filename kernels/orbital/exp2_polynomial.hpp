#pragma once
// 2^x for x <= 0 in plain arithmetic, for CPU loops over lattice points: libm's exp2 is a scalar
// call (without -ffast-math), so a loop calling it cannot vectorise, while this one can. GPUs
// keep exp2_ (evaluator.hpp), one special-function instruction there. Kokkos-free.
#include <cstdint>

#include "kmol/core/math.hpp"

namespace kmol::orbital {

KMOL_INLINE float float_from_bits(std::int32_t bits) {
#ifdef __CUDA_ARCH__
  return __int_as_float(bits);
#else
  return __builtin_bit_cast(float, bits);
#endif
}

KMOL_INLINE double double_from_bits(std::int64_t bits) {
#ifdef __CUDA_ARCH__
  return __longlong_as_double(bits);
#else
  return __builtin_bit_cast(double, bits);
#endif
}

// 2^n times e^(f ln 2) with x = n + f, |f| <= 1/2, the exponential's Taylor series to below the
// type's rounding (degree 7 for float, 13 for double); 0 below the smallest normal number.
// Branch-free, so a loop of it vectorises.
KMOL_INLINE float exp2_polynomial(float x) {
  const float n = ::floorf(x + 0.5f), t = (x - n) * 0.693147180559945309f;
  float p = ::fmaf(1.0f / 5040, t, 1.0f / 720);
  p = ::fmaf(p, t, 1.0f / 120);
  p = ::fmaf(p, t, 1.0f / 24);
  p = ::fmaf(p, t, 1.0f / 6);
  p = ::fmaf(p, t, 0.5f);
  p = ::fmaf(p, t, 1.0f);
  p = ::fmaf(p, t, 1.0f);
  const std::int32_t bits = (std::int32_t(n < -126.0f ? -126.0f : n) + 127) << 23;
  return n < -126.0f ? 0.0f : p * float_from_bits(bits);
}

KMOL_INLINE double exp2_polynomial(double x) {
  const double n = ::floor(x + 0.5), t = (x - n) * 0.693147180559945309417;
  double p = ::fma(1.0 / 6227020800.0, t, 1.0 / 479001600);  // 1/13!, 1/12!
  p = ::fma(p, t, 1.0 / 39916800);
  p = ::fma(p, t, 1.0 / 3628800);
  p = ::fma(p, t, 1.0 / 362880);
  p = ::fma(p, t, 1.0 / 40320);
  p = ::fma(p, t, 1.0 / 5040);
  p = ::fma(p, t, 1.0 / 720);
  p = ::fma(p, t, 1.0 / 120);
  p = ::fma(p, t, 1.0 / 24);
  p = ::fma(p, t, 1.0 / 6);
  p = ::fma(p, t, 0.5);
  p = ::fma(p, t, 1.0);
  p = ::fma(p, t, 1.0);
  const std::int64_t bits = std::int64_t(std::int32_t(n < -1022.0 ? -1022.0 : n) + 1023) << 52;
  return n < -1022.0 ? 0.0 : p * double_from_bits(bits);
}

}  // namespace kmol::orbital
