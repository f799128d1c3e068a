#pragma once
// Test and benchmark molecules with published basis sets, written as Molden files by kmol itself:
// water (experimental geometry) in STO-3G, and C60 (icosahedral, bonds 1.40 and 1.45 A) in
// 6-31G*. Their orbitals are not SCF solutions: they are the basis functions made orthonormal
// (Cholesky factor of the analytic overlap matrix, last function first, so that every orbital
// mixes many functions), which makes orthonormality on a lattice a genuine test.
#include <iosfwd>
#include <string>

#include "kernels/orbital/molden.hpp"

namespace kmol {

enum class ExampleMolecule { water_sto3g, c60_631gs };

struct ExampleOptions {
  int orbitals = 8;        // how many orthonormal orbitals the file lists
  int occupied = 5;        // the first `occupied` ones get occupation 2
  bool spherical = false;  // 5D/7F (spherical d, f) instead of the basis set's Cartesian 6D
  bool valence =
      false;  // orbitals without the 1s core functions (whose exponents need ~0.01 A lattices)
};

MoldenData example_molecule(ExampleMolecule molecule, const ExampleOptions& options);

// Molden text of `molden` (atoms in Angstrom, exponents and coefficients to 10 significant digits).
void write_molden(std::ostream& out, const MoldenData& molden);

}  // namespace kmol
