#pragma once
// Packs a basis and one orbital's monomial coefficients into the buffer layout of tables.hpp.
#include <vector>

#include "kernels/orbital/orbital.hpp"
#include "kernels/orbital/tables.hpp"

namespace kmol::orbital {

struct PackedTables {
  TableLayout layout;
  std::vector<unsigned char> bytes;  // 16-byte aligned sections; the allocation itself is aligned
};

// Atom positions relative to `origin` (Angstrom), shells grouped by atom. `coef` holds
// basis.monomials() values (OrbitalBasis::monomial_coefficients) or is empty (basis values only).
template <class T>
PackedTables pack_tables(const OrbitalBasis& basis, const std::vector<double>& coef,
                         const Vec3<double>& origin);

}  // namespace kmol::orbital
