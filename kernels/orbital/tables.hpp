#pragma once
// The basis and one orbital's coefficients packed into one buffer, so that an implementation
// copies a single block (to __constant__ memory, a device View or nowhere) and reads it through
// raw pointers. Kokkos-free.
#include <cstdint>

#include "kmol/core/portability.hpp"

namespace kmol::orbital {

// Byte offsets of each array in the buffer (each 16-byte aligned).
struct TableLayout {
  int atoms = 0, shells = 0, prims = 0, monomials = 0;
  std::int64_t xyz = 0, atom_shells = 0, shell_l = 0, shell_prims = 0, shell_coef = 0, alpha = 0,
               d = 0, coef = 0;
  std::int64_t bytes = 0;
};

template <class T>
struct OrbitalTables {
  int atoms = 0;
  const T* xyz = nullptr;  // 3 per atom: Angstrom from the lattice origin
  const int* atom_shells =
      nullptr;  // atoms + 1: atom a owns shells [atom_shells[a], atom_shells[a + 1])
  const int* shell_l = nullptr;
  const int* shell_prims =
      nullptr;  // shells + 1: shell s owns primitives [shell_prims[s], shell_prims[s + 1])
  const int* shell_coef = nullptr;  // first monomial of each shell
  const T* alpha = nullptr;         // Angstrom^-2 times log2(e)
  const T* d = nullptr;             // radial coefficients
  const T* coef =
      nullptr;  // monomial coefficients of the orbital (OrbitalBasis::monomial_coefficients)
};

template <class T>
KMOL_INLINE OrbitalTables<T> tables_at(const unsigned char* base, const TableLayout& l) {
  OrbitalTables<T> t;
  t.atoms = l.atoms;
  t.xyz = reinterpret_cast<const T*>(base + l.xyz);
  t.atom_shells = reinterpret_cast<const int*>(base + l.atom_shells);
  t.shell_l = reinterpret_cast<const int*>(base + l.shell_l);
  t.shell_prims = reinterpret_cast<const int*>(base + l.shell_prims);
  t.shell_coef = reinterpret_cast<const int*>(base + l.shell_coef);
  t.alpha = reinterpret_cast<const T*>(base + l.alpha);
  t.d = reinterpret_cast<const T*>(base + l.d);
  t.coef = reinterpret_cast<const T*>(base + l.coef);
  return t;
}

}  // namespace kmol::orbital
