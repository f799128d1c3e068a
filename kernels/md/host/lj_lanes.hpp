#pragma once
// The shifted-force Lennard-Jones evaluator on AVX2 registers (xsimd batches), for the host sweeps
// and the portable engine's sweeps on CPUs. Only where KMOL_HOST_VECTORS is defined.
#include "kernels/md/host/avx2_lanes.hpp"
#include "kernels/md/lennard_jones.hpp"

#ifdef KMOL_HOST_VECTORS
namespace kmol::md_host {

// ShiftedForceLJ::evaluate on a register of squared distances, operation for operation (so each
// lane rounds exactly as the scalar evaluator does; tests/test_md.cpp checks it bit for bit).
// Lanes outside the cutoff or not in `valid` give zero force and energy.
template <class T>
struct LjLanes {
  using V = vec::Batch<T>;
  using M = vec::Mask<T>;
  V cutoff, cutoff2, force_at_cutoff, minus_force_at_cutoff, minus_energy_at_cutoff, one, minus_one,
      two, four, k24;

  explicit LjLanes(const ShiftedForceLJ<T>& lj)
      : cutoff(lj.cutoff),
        cutoff2(lj.cutoff2),
        force_at_cutoff(lj.force_at_cutoff),
        minus_force_at_cutoff(-lj.force_at_cutoff),
        minus_energy_at_cutoff(-lj.energy_at_cutoff),
        one(T(1)),
        minus_one(T(-1)),
        two(T(2)),
        four(T(4)),
        k24(T(24)) {}

  void evaluate(V r2, M valid, V& f_over_r, V& energy) const {
    const M in = (r2 < cutoff2) & valid;
    const V s = xsimd::select(in, r2, one);
    const V inv_r = one / xsimd::sqrt(s);
    const V r = s * inv_r;
    const V ir2 = inv_r * inv_r;
    const V ir6 = (ir2 * ir2) * ir2;
    const V f = xsimd::fma((k24 * ir6) * ir2, xsimd::fma(two, ir6, minus_one),
                           minus_force_at_cutoff * inv_r);
    const V e = xsimd::fma(r - cutoff, force_at_cutoff,
                           xsimd::fma(four * ir6, ir6 - one, minus_energy_at_cutoff));
    f_over_r = vec::keep(in, f);
    energy = vec::keep(in, e);
  }
};

}  // namespace kmol::md_host
#endif
