#pragma once
// Analytic overlap integrals of the normalised basis functions, so that a Molden file's orbitals
// can be checked (C^T S C = 1) independently of any lattice.
#include <vector>

#include "kernels/orbital/orbital.hpp"

namespace kmol {

// S (functions x functions, row-major), exact up to rounding.
std::vector<double> overlap_matrix(const OrbitalBasis& basis);

// c^T S c' for two orbitals' coefficient vectors.
double overlap(const std::vector<double>& s, const std::vector<double>& c1,
               const std::vector<double>& c2);

}  // namespace kmol
