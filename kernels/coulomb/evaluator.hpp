#pragma once
// The per-(point, atom) physics every implementation shares: charge over distance, the charges
// already carrying the unit factor (units.hpp). Kokkos-free, so the raw CUDA kernels include it
// too.
#include <type_traits>

#include "kmol/core/math.hpp"

namespace kmol::coulomb {

// The kernels' compile-time options, always in this order after the value type: <T, Term,
// Summation>. Which term each (point, atom) pair adds: the bare q / r, or the Debye-Hueckel one.
enum class Term { direct, mdh };
// How the terms are added up: plainly, or compensated (Kahan), which bounds the rounding error
// independently of how many atoms contribute.
enum class Summation { plain, compensated };

template <Term K>
using TermOption = std::integral_constant<Term, K>;
template <Summation S>
using SummationOption = std::integral_constant<Summation, S>;

// Calls f(TermOption<...>{}, SummationOption<...>{}) with the options a job asks for at run time,
// so that one call site instantiates every combination.
template <class F>
void with_options(bool mdh, bool compensated, F&& f) {
  using Plain = SummationOption<Summation::plain>;
  using Compensated = SummationOption<Summation::compensated>;
  if (mdh)
    compensated ? f(TermOption<Term::mdh>{}, Compensated{}) : f(TermOption<Term::mdh>{}, Plain{});
  else
    compensated ? f(TermOption<Term::direct>{}, Compensated{})
                : f(TermOption<Term::direct>{}, Plain{});
}

// Summation S only, for the kernels that have one term.
template <class F>
void with_summation(bool compensated, F&& f) {
  compensated ? f(SummationOption<Summation::compensated>{})
              : f(SummationOption<Summation::plain>{});
}

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

// One step of Kahan's compensated summation: x added to sum, the low-order bits the addition loses
// kept in carry (subtracted from the sum at the end), which bounds the error independently of how
// many atoms contribute. Every compensated sum of every implementation takes this step.
template <class T>
KMOL_INLINE void compensated_add(T& sum, T& carry, T x) {
  const T y = x - carry;
  const T t = sum + y;
  carry = (t - sum) - y;
  sum = t;
}

// A running sum, optionally compensated (compensated_add).
template <class T, Summation S>
struct Accumulator {
  static constexpr bool compensated = S == Summation::compensated;
  T sum = 0, carry = 0;
  KMOL_INLINE void add(T x) {
    if constexpr (compensated)
      compensated_add(sum, carry, x);
    else
      sum += x;
  }
  // The sum with the last lost bits put back.
  KMOL_INLINE T value() const { return compensated ? sum - carry : sum; }
};

// P running sums side by side (structure of arrays, so that a loop over them vectorises), each
// added to exactly as Accumulator adds.
template <class T, Summation S, int P>
struct Accumulators {
  static constexpr bool compensated = S == Summation::compensated;
  T sum[P] = {}, carry[P] = {};
  KMOL_INLINE void add(int l, T x) {
    if constexpr (compensated)
      compensated_add(sum[l], carry[l], x);
    else
      sum[l] += x;
  }
  KMOL_INLINE T value(int l) const { return compensated ? sum[l] - carry[l] : sum[l]; }
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
