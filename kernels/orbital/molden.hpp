#pragma once
// Molden files (the format of Molden, written by most quantum chemistry programs): atoms, a
// contracted Gaussian basis and molecular orbitals. Only what orbital maps need is kept.
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "kmol/core/vec3.hpp"

namespace kmol {

// A contracted shell as the file gives it (an sp shell is stored as an s and a p shell).
struct GaussianShell {
  int atom = 0;                      // index into MoldenData::positions
  int l = 0;                         // 0 s, 1 p, 2 d, 3 f, 4 g
  bool spherical = false;            // from the [5D], [7F], [5D7F], [5D10F], [9G] flags
  std::vector<double> exponents;     // bohr^-2, the file's scale factor applied
  std::vector<double> coefficients;  // contraction coefficients of normalised primitives

  int functions() const { return spherical ? 2 * l + 1 : (l + 1) * (l + 2) / 2; }
};

struct MolecularOrbital {
  std::string symmetry, spin = "Alpha";
  double energy = 0, occupation = 0;  // hartree, electrons
  std::vector<double> coefficients;   // one per basis function, in the file's order
};

struct MoldenData {
  std::string path;
  std::vector<std::string> symbols;
  std::vector<int> atomic_numbers;
  std::vector<Vec3<double>> positions;  // Angstrom
  std::vector<GaussianShell> shells;    // grouped by atom, in the file's order
  std::vector<MolecularOrbital> orbitals;

  std::int64_t atoms() const { return std::int64_t(positions.size()); }
  int functions() const;
};

inline constexpr double bohr_in_angstrom = 0.529177210903;  // CODATA 2018

// Throws InputError naming the file, the section or field and the line for malformed input:
// unknown units, bad numbers, shells of unknown type or with no primitives, orbitals with
// coefficients out of range, Slater-type ([STO]) bases, missing sections.
MoldenData read_molden(const std::string& path);
MoldenData parse_molden(std::istream& in, const std::string& name);

// The orbital `which` names: "homo", "lumo" (highest occupied / lowest empty of `spin`, by
// energy), "homo-K" / "lumo+K" (K levels below / above them), or a 1-based number: with `spin`
// empty, in the file's order; otherwise among the orbitals of that spin. Throws InputError
// (field --mo) if there is no such orbital.
int select_orbital(const MoldenData& molden, const std::string& which,
                   const std::string& spin = "");

}  // namespace kmol
