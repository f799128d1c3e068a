#pragma once
// Coulomb terms and sums in single-precision AVX2 registers (kernels/host_vectors.hpp), for the
// host kernels and the portable engine's runs on CPUs: each term with the hardware reciprocal
// square root and one Newton step (within 2 ulp a term, like CUDA's rsqrtf), where a plain loop
// pays a correctly rounded square root and a division (Kokkos 3.4 has no type to ask for less).
#include <cstdint>
#include <type_traits>

#include "kernels/coulomb/evaluator.hpp"
#include "kernels/host_vectors.hpp"

#ifdef KMOL_HOST_VECTORS
namespace kmol::coulomb {

using VF = vec::Batch<float>;

// direct_term of charges q at squared distances r2.
inline VF direct_terms(VF q, VF r2) { return vec::keep(r2 > VF(0.0f), q * vec::rsqrt_newton(r2)); }

// cutoff_term of charges q at squared distances r2.
inline VF cutoff_terms(VF q, VF r2, VF rc2, VF inv_rc2) {
  const VF shift = xsimd::fnma(r2, inv_rc2, VF(1.0f));
  return vec::keep((r2 < rc2) & (r2 > VF(0.0f)), (q * vec::rsqrt_newton(r2)) * (shift * shift));
}

// term added to sum (and carry) lane by lane, as Accumulator::add adds it.
template <Summation S>
inline void add_terms(VF& sum, VF& carry, VF term) {
  if constexpr (S == Summation::compensated) {
    const VF y = term - carry;
    const VF t = sum + y;
    carry = (t - sum) - y;
    sum = t;
  } else {
    sum += term;
  }
}

// Runs of P points of T that go through registers: single precision, whole registers.
template <class T, int P>
constexpr bool run_lanes = std::is_same_v<T, float>&& P % vec::width<float> == 0;

// Adds the terms(q, r2) of atoms begin..end-1 (atom_at(a): an AtomRecord) at a run's points (x:
// px, y: py, z: pz) to sums, kept in registers over the atoms. Atoms whose squared distance
// across the run (in y and z) fails in_reach are skipped.
template <Summation S, int P, class AtomAt, class InReach, class Terms>
inline void add_run_terms(Accumulators<float, S, P>& sums, const float (&px)[P], float py, float pz,
                          std::int64_t begin, std::int64_t end, AtomAt atom_at, InReach in_reach,
                          Terms terms) {
  constexpr int w = vec::width<float>, R = P / w;
  VF x[R], sum[R], carry[R];
  for (int k = 0; k < R; ++k) {
    x[k] = VF::load_unaligned(px + k * w);
    sum[k] = VF::load_unaligned(sums.sum + k * w);
    carry[k] = VF::load_unaligned(sums.carry + k * w);
  }
  for (std::int64_t a = begin; a < end; ++a) {
    const auto atom = atom_at(a);
    const float dy = atom.y - py, dz = atom.z - pz;
    const float across = math::fma(dy, dy, dz * dz);
    if (!in_reach(across)) continue;
    const VF q(atom.q), ax(atom.x), w2(across);
    for (int k = 0; k < R; ++k) {
      const VF dx = ax - x[k];
      add_terms<S>(sum[k], carry[k], terms(q, xsimd::fma(dx, dx, w2)));
    }
  }
  for (int k = 0; k < R; ++k) {
    sum[k].store_unaligned(sums.sum + k * w);
    carry[k].store_unaligned(sums.carry + k * w);
  }
}

}  // namespace kmol::coulomb
#endif
