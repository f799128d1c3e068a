#include "kernels/orbital/conventions.hpp"

#include <cmath>
#include <cstdio>

#include "kernels/orbital/cartesian.hpp"
#include "kernels/orbital/orbital.hpp"
#include "kernels/orbital/overlap.hpp"
#include "kmol/core/cancel.hpp"
#include "kmol/core/errors.hpp"

namespace kmol {
namespace {

double double_factorial(int n) { return n <= 1 ? 1.0 : n * double_factorial(n - 2); }

// The coefficient of x^a y^b z^c normalised on its own, for a unit coefficient of it normalised
// as x^l: the square root of their angular integrals' ratio (independent of the exponent).
double axial_to_each(const orbital::Powers& p) {
  const int l = p[0] + p[1] + p[2];
  return std::sqrt(double_factorial(2 * p[0] - 1) * double_factorial(2 * p[1] - 1) *
                   double_factorial(2 * p[2] - 1) / double_factorial(2 * l - 1));
}

bool has_cartesian_beyond_p(const MoldenData& molden) {
  for (const auto& shell : molden.shells)
    if (!shell.spherical && shell.l >= 2) return true;
  return false;
}

// Norms of every orbital and the one farthest from 1.
OrbitalNorms norms_of(const MoldenData& molden) {
  OrbitalNorms n;
  const OrbitalBasis basis(molden);
  const std::vector<double> s = overlap_matrix(basis);
  for (std::size_t k = 0; k < molden.orbitals.size(); ++k) {
    // A basis near the cap takes seconds of these: a cancel stops them between orbitals.
    if (cancel_requested()) throw_if_cancelled("the orbitals' norm check");
    const auto& c = molden.orbitals[k].coefficients;
    const double norm = overlap(s, c, c);
    ++n.checked;
    if (!(std::fabs(norm - 1) <= OrbitalNorms::tolerance)) ++n.off;
    if (n.worst < 0 || !(std::fabs(norm - 1) <= std::fabs(n.worst_norm - 1))) {
      n.worst = int(k);
      n.worst_norm = norm;
    }
  }
  return n;
}

}  // namespace

CartesianNormalisation cartesian_normalisation_from_string(const std::string& name) {
  if (name == "each") return CartesianNormalisation::each;
  if (name == "axial") return CartesianNormalisation::axial;
  throw UsageError({"", "--cartesian-norm", -1}, "expected each or axial, found '" + name + "'");
}

void convert_axial_cartesian(MoldenData& molden) {
  std::vector<double> factor;
  for (const auto& shell : molden.shells) {
    if (shell.spherical || shell.l < 2) {
      factor.insert(factor.end(), std::size_t(shell.functions()), 1.0);
      continue;
    }
    for (const auto& p : orbital::cartesian_powers(shell.l)) factor.push_back(axial_to_each(p));
  }
  for (auto& mo : molden.orbitals)
    for (std::size_t f = 0; f < mo.coefficients.size() && f < factor.size(); ++f)
      mo.coefficients[f] *= factor[f];
}

OrbitalNorms check_orbital_norms(const MoldenData& molden) {
  if (molden.functions() > 3000 || molden.orbitals.empty()) return {};
  OrbitalNorms n = norms_of(molden);
  if (n.off > 0 && has_cartesian_beyond_p(molden)) {
    MoldenData converted = molden;
    convert_axial_cartesian(converted);
    n.axial_fits = norms_of(converted).off == 0;
  }
  return n;
}

std::vector<std::string> norm_warnings(const OrbitalNorms& n, bool convention_given,
                                       const std::string& conversion) {
  std::vector<std::string> out;
  if (n.off == 0) return out;
  char worst[32];
  std::snprintf(worst, sizeof(worst), "%.6f", n.worst_norm);
  out.push_back(std::to_string(n.off) + " of the " + std::to_string(n.checked) +
                " orbitals are not normalised under the Molden conventions kmol assumes (orbital " +
                std::to_string(n.worst + 1) + ": norm " + worst + "; docs/orbital.md)");
  if (n.axial_fits && !convention_given)
    out.push_back(
        "the file normalises its Cartesian d, f and g functions as x^l, as older psi4 releases "
        "and Molden itself write them: " +
        conversion + " converts them");
  return out;
}

}  // namespace kmol
