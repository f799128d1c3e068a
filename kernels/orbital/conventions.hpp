#pragma once
// Normalisation conventions of Molden files (docs/orbital.md). kmol normalises every Cartesian
// function on its own (xy as well as xx); older writers (psi4 before 1.4, Molden's own
// convention) normalise all Cartesian functions of a shell as its axial one, x^l, so their d, f
// and g coefficients differ by a constant per function. Both are told apart by the orbitals'
// norms, which are 1 under the file's own convention only.
#include <string>
#include <vector>

#include "kernels/orbital/molden.hpp"

namespace kmol {

enum class CartesianNormalisation { each, axial };

CartesianNormalisation cartesian_normalisation_from_string(const std::string& name);

// Rewrites the coefficients of a file written with axially normalised Cartesian functions into
// kmol's convention (each function normalised); spherical shells and l < 2 are unchanged.
void convert_axial_cartesian(MoldenData& molden);

struct OrbitalNorms {
  int checked = 0;          // orbitals checked (0: the basis is too large to check)
  int off = 0;              // with |norm - 1| > tolerance
  int worst = -1;           // 0-based index of the orbital farthest from 1
  double worst_norm = 1;    // its norm
  bool axial_fits = false;  // every orbital normalised once converted from axial
  static constexpr double tolerance = 1e-3;
};

// The norm of every orbital (C^T S C, analytic overlaps), for bases of up to 3000 functions;
// with Cartesian d, f or g shells, also whether the axial convention explains the norms.
OrbitalNorms check_orbital_norms(const MoldenData& molden);

// The warnings a front end gives for these norms (none when every orbital is normalised):
// how many are not, and where the axial convention explains them and none was asked for, that
// `conversion` (the front end's "--cartesian-norm axial" or "cartesian_norm='axial'") converts.
std::vector<std::string> norm_warnings(const OrbitalNorms& norms, bool convention_given,
                                       const std::string& conversion);

}  // namespace kmol
