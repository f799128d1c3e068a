#pragma once
// sweep_partners in AVX2 registers for CPU spaces (kernels/host_vectors.hpp): a register's
// partners come in as rows, one unaligned load of (x, y, z, next x) each and a transpose (as the
// host sweeps load theirs), where the plain loop copies 3 scalars a partner through memory; then
// the same minimum image, evaluator (md_host::LjLanes) and lane sums as the plain loop, so each
// pair rounds as it does there. Only where KMOL_HOST_VECTORS is defined.
#include "kernels/md/host/lj_lanes.hpp"
#include "kernels/md/kokkos/forces.hpp"

#ifdef KMOL_HOST_VECTORS
namespace kmol::md {

// The minimum image of differences d along an axis of length l (inv = 1 / l), as
// OrthorhombicBox::wrap.
template <class T>
inline vec::Batch<T> wrap_lanes(vec::Batch<T> d, vec::Batch<T> l, vec::Batch<T> inv) {
  return xsimd::fnma(xsimd::floor(xsimd::fma(d, inv, vec::Batch<T>(T(0.5)))), l, d);
}

// sweep_partners over the n atoms of xp (rows of three), the partners a register at a time. A
// register holding the last atom, whose row's fourth value lies past the array, or the list's
// tail takes its differences from scalar copies (the tail's lanes half a box apart, beyond the
// cutoff, as in sweep_partners).
template <bool KeepPairs, class T>
inline void sweep_partners_in_registers(const T* xp, int n, Vec3<T> xi, const int* partners, int m,
                                        const PeriodicBox<T>& box, const ShiftedForceLJ<T>& lj,
                                        PairSum<T>& s, T* dx, T* dy, T* dz) {
  using V = vec::Batch<T>;
  constexpr int w = vec::width<T>;
  const V xiv(xi.x), yiv(xi.y), ziv(xi.z), zero(T(0));
  const V lx(box.length.x), ly(box.length.y), lz(box.length.z);
  const V ix(box.inverse.x), iy(box.inverse.y), iz(box.inverse.z);
  const md_host::LjLanes<T> pair(lj);
  const vec::Mask<T> all = vec::first(T(), w);
  V fx = zero, fy = zero, fz = zero, energy = zero, virial = zero;
  for (int a = 0; a < m; a += w) {
    const int* idx = partners + a;
    bool rows = a + w <= m;
    for (int q = 0; q < w && rows; ++q) rows = idx[q] < n - 1;
    V x, y, z;
    if (rows) {
      md_host::Rows<T>::template load<false>([&](int q) { return xp + 3 * std::size_t(idx[q]); }, x,
                                             y, z);
      x = xiv - x;
      y = yiv - y;
      z = ziv - z;
    } else {
      alignas(32) T gx[w], gy[w], gz[w];
      for (int q = 0; q < w; ++q) {
        if (a + q < m) {
          const std::size_t j = std::size_t(idx[q]);
          gx[q] = xi.x - xp[3 * j];
          gy[q] = xi.y - xp[3 * j + 1];
          gz[q] = xi.z - xp[3 * j + 2];
        } else {
          gx[q] = T(0.5) * box.length.x;
          gy[q] = T(0.5) * box.length.y;
          gz[q] = T(0.5) * box.length.z;
        }
      }
      x = V::load_aligned(gx);
      y = V::load_aligned(gy);
      z = V::load_aligned(gz);
    }
    x = wrap_lanes(x, lx, ix);
    y = wrap_lanes(y, ly, iy);
    z = wrap_lanes(z, lz, iz);
    const V r2 = xsimd::fma(x, x, xsimd::fma(y, y, z * z));
    V f_over_r, e;
    pair.evaluate(r2, all, f_over_r, e);
    const V f_x = f_over_r * x, f_y = f_over_r * y, f_z = f_over_r * z;
    fx += f_x;
    fy += f_y;
    fz += f_z;
    energy += e;
    virial += f_over_r * r2;
    if constexpr (KeepPairs) {
      f_x.store_unaligned(dx + a);
      f_y.store_unaligned(dy + a);
      f_z.store_unaligned(dz + a);
    }
  }
  s.f = s.f + Vec3<T>{vec::sum(fx), vec::sum(fy), vec::sum(fz)};
  s.energy += vec::sum(energy);
  s.virial += vec::sum(virial);
}

}  // namespace kmol::md
#endif

namespace kmol::md {

// The CPU spaces' sweep: in registers where the build has them.
template <bool KeepPairs, class T>
KOKKOS_INLINE_FUNCTION void sweep_partners_on_host(const T* xp, int n, Vec3<T> xi,
                                                   const int* partners, int m,
                                                   const PeriodicBox<T>& box,
                                                   const ShiftedForceLJ<T>& lj, PairSum<T>& s,
                                                   T* dx, T* dy, T* dz) {
#ifdef KMOL_HOST_VECTORS
  sweep_partners_in_registers<KeepPairs>(xp, n, xi, partners, m, box, lj, s, dx, dy, dz);
#else
  (void)n;
  sweep_partners<KeepPairs>(xp, xi, partners, m, box, lj, s, dx, dy, dz);
#endif
}

}  // namespace kmol::md
