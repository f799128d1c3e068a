#pragma once
// The shifted-force Lennard-Jones pair evaluator and the periodic displacement every force
// implementation shares (Kokkos loops on every backend, the raw CUDA kernel, the test oracle), in
// reduced units (sigma = epsilon = m = 1).
//
// F(r) = F_LJ(r) - F_LJ(r_c) and V(r) = V_LJ(r) - V_LJ(r_c) + (r - r_c) F_LJ(r_c) for r < r_c, so
// force and energy both go to zero at the cutoff and energy is conserved without a jump there.
#include <cstdint>

#include "kmol/core/box.hpp"
#include "kmol/core/math.hpp"
#include "kmol/core/portability.hpp"

namespace kmol {

template <class T>
struct ShiftedForceLJ {
  T cutoff = 0, cutoff2 = 0;
  T force_at_cutoff = 0;   // F_LJ(r_c) = 24 (2 r_c^-13 - r_c^-7)
  T energy_at_cutoff = 0;  // V_LJ(r_c) = 4 (r_c^-12 - r_c^-6)

  static ShiftedForceLJ with_cutoff(double rc) {
    const double ir6 = 1 / (rc * rc * rc * rc * rc * rc);
    return {T(rc), T(rc * rc), T(24 * ir6 * (2 * ir6 - 1) / rc), T(4 * ir6 * (ir6 - 1))};
  }

  // For 0 < r2 < cutoff2: F(r)/r (force on i is f_over_r times x_i - x_j) and the pair energy.
  KMOL_INLINE void evaluate(T r2, T& f_over_r, T& energy) const {
    const T inv_r = T(1) / math::sqrt(r2);
    const T r = r2 * inv_r;
    const T ir2 = inv_r * inv_r;
    const T ir6 = ir2 * ir2 * ir2;
    f_over_r = math::fma(T(24) * ir6 * ir2, math::fma(T(2), ir6, T(-1)), -force_at_cutoff * inv_r);
    energy = math::fma(r - cutoff, force_at_cutoff,
                       math::fma(T(4) * ir6, ir6 - T(1), -energy_at_cutoff));
  }
};

// Minimum-image displacement in an orthorhombic box with positions wrapped into it.
template <class T>
struct PeriodicBox {
  Vec3<T> length, inverse;

  static PeriodicBox of(Vec3<double> l) {
    return {l.cast<T>(), Vec3<double>{1 / l.x, 1 / l.y, 1 / l.z}.cast<T>()};
  }
  KMOL_INLINE Vec3<T> displacement(Vec3<T> a, Vec3<T> b) const {
    const Vec3<T> d = a - b;
    return {OrthorhombicBox<T>::wrap(d.x, length.x, inverse.x),
            OrthorhombicBox<T>::wrap(d.y, length.y, inverse.y),
            OrthorhombicBox<T>::wrap(d.z, length.z, inverse.z)};
  }
  // Into [0, L) (L itself can come out when x is a rounding below 0; cell lookups clamp it).
  KMOL_INLINE static T wrap_into(T x, T l, T inv) { return math::fma(-math::floor(x * inv), l, x); }
};

}  // namespace kmol
