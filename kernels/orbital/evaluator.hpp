#pragma once
// The per-point physics every implementation shares: an orbital (or the Cartesian basis values)
// at one lattice point from the packed tables (tables.hpp). Kokkos-free, so the raw CUDA kernels
// include it too.
#include <type_traits>

#include "kernels/orbital/tables.hpp"
#include "kmol/core/math.hpp"

namespace kmol::orbital {

KMOL_INLINE float exp2_(float x) { return ::exp2f(x); }
KMOL_INLINE double exp2_(double x) { return ::exp2(x); }

// sum_c coef[c] * monomial_c(x, y, z) over the shell's Cartesian monomials of degree l, in
// Molden's order (cartesian.hpp lists the same order as exponent triples).
template <class T>
KMOL_INLINE T angular(int l, T x, T y, T z, const T* c) {
  using math::fma;
  switch (l) {
    case 0:
      return c[0];
    case 1:
      return fma(c[0], x, fma(c[1], y, c[2] * z));
    case 2: {                                            // xx yy zz xy xz yz
      const T a = fma(c[0], x, fma(c[3], y, c[4] * z));  // x (xx, xy, xz)
      const T b = fma(c[1], y, c[5] * z);                // y (yy, yz)
      return fma(a, x, fma(b, y, c[2] * z * z));
    }
    case 3: {  // xxx yyy zzz xyy xxy xxz xzz yzz yyz xyz
      const T xx = x * x, yy = y * y, zz = z * z;
      const T px = fma(
          c[0], xx, fma(c[3], yy, fma(c[4], x * y, fma(c[5], x * z, fma(c[6], zz, c[9] * y * z)))));
      const T py = fma(c[1], yy, fma(c[7], zz, c[8] * y * z));
      return fma(px, x, fma(py, y, c[2] * zz * z));
    }
    case 4: {  // xxxx yyyy zzzz xxxy xxxz yyyx yyyz zzzx zzzy xxyy xxzz yyzz xxyz yyxz zzxy
      const T xx = x * x, yy = y * y, zz = z * z;
      const T pxx =
          fma(c[0], xx,
              fma(c[3], x * y, fma(c[4], x * z, fma(c[9], yy, fma(c[10], zz, c[12] * y * z)))));
      const T pyy =
          fma(c[1], yy, fma(c[5], x * y, fma(c[6], y * z, fma(c[11], zz, c[13] * x * z))));
      const T pzz = fma(c[2], zz, fma(c[7], x * z, fma(c[8], y * z, c[14] * x * y)));
      return fma(pxx, xx, fma(pyy, yy, pzz * zz));
    }
    default:
      return T(0);  // l > 4 is refused when the tables are packed
  }
}

// Calls f(std::integral_constant<int, L>()) with L the shell's angular momentum l (4 for any l
// from 4: packing refuses more), so that a loop over points evaluates angular(L, ...) with the
// switch resolved at compile time.
template <int L = 0, class F>
KMOL_INLINE void with_constant_l(int l, F&& f) {
  if constexpr (L == 4)
    f(std::integral_constant<int, L>());
  else if (l == L)
    f(std::integral_constant<int, L>());
  else
    with_constant_l<L + 1>(l, f);
}

// The shell's Cartesian monomials of degree l at (x, y, z), each times `radial`, into v.
template <class T>
KMOL_INLINE void monomials(int l, T x, T y, T z, T radial, T* v) {
  const T rx = radial * x, ry = radial * y, rz = radial * z;
  switch (l) {
    case 0:
      v[0] = radial;
      return;
    case 1:
      v[0] = rx;
      v[1] = ry;
      v[2] = rz;
      return;
    case 2:
      v[0] = rx * x;
      v[1] = ry * y;
      v[2] = rz * z;
      v[3] = rx * y;
      v[4] = rx * z;
      v[5] = ry * z;
      return;
    case 3: {
      const T xx = x * x, yy = y * y, zz = z * z;
      v[0] = rx * xx;
      v[1] = ry * yy;
      v[2] = rz * zz;
      v[3] = rx * yy;
      v[4] = ry * xx;
      v[5] = rz * xx;
      v[6] = rx * zz;
      v[7] = ry * zz;
      v[8] = rz * yy;
      v[9] = rx * y * z;
      return;
    }
    case 4: {
      const T xx = x * x, yy = y * y, zz = z * z;
      v[0] = radial * xx * xx;
      v[1] = radial * yy * yy;
      v[2] = radial * zz * zz;
      v[3] = rx * xx * y;
      v[4] = rx * xx * z;
      v[5] = ry * yy * x;
      v[6] = ry * yy * z;
      v[7] = rz * zz * x;
      v[8] = rz * zz * y;
      v[9] = radial * xx * yy;
      v[10] = radial * xx * zz;
      v[11] = radial * yy * zz;
      v[12] = rx * x * y * z;
      v[13] = ry * y * x * z;
      v[14] = rz * z * x * y;
      return;
    }
    default:
      return;
  }
}

// R(r) = sum_k d_k exp(-alpha_k r^2), the exponents stored times log2(e) for exp2.
template <class T>
KMOL_INLINE T radial(const OrbitalTables<T>& t, int shell, T r2) {
  T sum = 0;
  for (int p = t.shell_prims[shell]; p < t.shell_prims[shell + 1]; ++p)
    sum = math::fma(t.d[p], exp2_(-t.alpha[p] * r2), sum);
  return sum;
}

// psi at (px, py, pz) (Angstrom from the lattice origin), bohr^-3/2.
template <class T>
KMOL_INLINE T orbital_value(const OrbitalTables<T>& t, T px, T py, T pz) {
  T psi = 0;
  for (int a = 0; a < t.atoms; ++a) {
    const T dx = px - t.xyz[3 * a], dy = py - t.xyz[3 * a + 1], dz = pz - t.xyz[3 * a + 2];
    const T r2 = math::fma(dx, dx, math::fma(dy, dy, dz * dz));
    for (int s = t.atom_shells[a]; s < t.atom_shells[a + 1]; ++s)
      psi = math::fma(radial(t, s, r2), angular(t.shell_l[s], dx, dy, dz, t.coef + t.shell_coef[s]),
                      psi);
  }
  return psi;
}

}  // namespace kmol::orbital
