#pragma once
// The per-(point, atom) physics every implementation shares: charge over distance, the charges
// already carrying the unit factor (units.hpp). Kokkos-free, so the raw CUDA kernels include it
// too.
#include "kmol/core/math.hpp"

namespace kmol::coulomb {

KMOL_INLINE float exp_(float x) { return ::expf(x); }
KMOL_INLINE double exp_(double x) { return ::exp(x); }

// 1 / sqrt(x): correctly rounded on the host; the hardware reciprocal square root on CUDA devices
// (within 2 ulp; the special-function unit bounds direct summation on GPUs). Its flush-to-zero
// form is one instruction: rsqrtf adds a rescaling for subnormal x around it, which only squares
// of distances below 1e-19 A could need.
KMOL_INLINE float inverse_sqrt(float x) {
#ifdef __CUDA_ARCH__
  float y;
  asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
#else
  return 1.0f / ::sqrtf(x);
#endif
}
KMOL_INLINE double inverse_sqrt(double x) {
#ifdef __CUDA_ARCH__
  return ::rsqrt(x);
#else
  return 1.0 / ::sqrt(x);
#endif
}

// A running sum, optionally compensated (Kahan): the carry holds the low-order bits each addition
// loses, which bounds the error independently of how many atoms contribute.
template <class T, bool Compensated>
struct Accumulator {
  T sum = 0, carry = 0;
  KMOL_INLINE void add(T x) {
    if constexpr (Compensated) {
      const T y = x - carry;
      const T t = sum + y;
      carry = (t - sum) - y;
      sum = t;
    } else {
      sum += x;
    }
  }
  // The sum with the last lost bits put back.
  KMOL_INLINE T value() const { return Compensated ? sum - carry : sum; }
};

// P running sums side by side (structure of arrays, so that a loop over them vectorises), each
// added to exactly as Accumulator adds.
template <class T, bool Compensated, int P>
struct Accumulators {
  T sum[P] = {}, carry[P] = {};
  KMOL_INLINE void add(int l, T x) {
    if constexpr (Compensated) {
      const T y = x - carry[l];
      const T t = sum[l] + y;
      carry[l] = (t - sum[l]) - y;
      sum[l] = t;
    } else {
      sum[l] += x;
    }
  }
  KMOL_INLINE T value(int l) const { return Compensated ? sum[l] - carry[l] : sum[l]; }
};

// q / r. An atom exactly on a lattice point is left out of that point (its self-term is infinite).
template <class T>
KMOL_INLINE T direct_term(T q, T r2) {
  const T term = q * inverse_sqrt(r2);  // computed unconditionally: a select, not a branch
  return r2 > T(0) ? term : T(0);
}

// q / r * (1 - r^2/rc^2)^2 inside the cutoff (NAMD's shifting function: value and slope vanish at
// rc). Computed unconditionally and selected, so that GPUs and vector units run it without
// branches.
template <class T>
KMOL_INLINE T cutoff_term(T q, T r2, T rc2, T inv_rc2) {
  const T s = math::fma(-r2, inv_rc2, T(1));
  const T term = q * inverse_sqrt(r2) * (s * s);
  return r2 < rc2 && r2 > T(0) ? term : T(0);
}

// APBS' Debye-Hueckel sphere: q exp(-kappa (d - a)) / (d (1 + kappa a)). The atom's factor
// exp(kappa a) / (1 + kappa a) is folded into `q` when the job is prepared (mdh_charge).
template <class T>
KMOL_INLINE T mdh_term(T q_folded, T r2, T kappa) {
  if (r2 == T(0)) return T(0);
  const T inv = inverse_sqrt(r2);
  return q_folded * exp_(-kappa * (r2 * inv)) * inv;
}

}  // namespace kmol::coulomb
