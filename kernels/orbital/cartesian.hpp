#pragma once
// Angular parts of Gaussian basis functions as polynomials over Cartesian monomials, in the
// orders Molden files use (docs/orbital.md).
#include <array>
#include <vector>

namespace kmol::orbital {

using Powers = std::array<int, 3>;  // x^a y^b z^c

// Molden's Cartesian order for l = 0..4 (evaluator.hpp evaluates the same order).
const std::vector<Powers>& cartesian_powers(int l);

struct Term {
  double coefficient;
  Powers powers;
};
using Polynomial = std::vector<Term>;

// The function's polynomial up to normalisation: a single monomial for a Cartesian function;
// the real solid harmonic for a spherical one, in Molden's order m = 0, +1, -1, +2, -2, ...
Polynomial cartesian_function(int l, int index);
Polynomial spherical_function(int l, int index);

// Integral over all space of P(r)^2 exp(-beta r^2), P a polynomial (exact: products of 1-D
// Gaussian moments).
double squared_integral(const Polynomial& p, double beta);

}  // namespace kmol::orbital
