#pragma once
// The brute-force orbital in double precision, straight from the Molden data: every basis
// function built as the textbook says (normalised primitives, contraction renormalised, the
// solid harmonic or monomial of cartesian.hpp), in bohr, summed with the MO's coefficients.
// It shares none of OrbitalBasis' folding (radial factors, Angstrom monomials, packed tables).
#include <cmath>
#include <vector>

#include "kernels/orbital/cartesian.hpp"
#include "kernels/orbital/molden.hpp"

namespace kmol::test {

inline double polynomial_at(const orbital::Polynomial& p, double x, double y, double z) {
  double sum = 0;
  for (const auto& t : p)
    sum += t.coefficient * std::pow(x, t.powers[0]) * std::pow(y, t.powers[1]) *
           std::pow(z, t.powers[2]);
  return sum;
}

// psi at r (Angstrom); *magnitude gets sum |c_f phi_f(r)| (the scale of rounding errors).
inline double oracle_orbital(const MoldenData& m, const std::vector<double>& c, Vec3<double> r,
                             double* magnitude = nullptr) {
  double psi = 0, mag = 0;
  int f = 0;
  for (const GaussianShell& g : m.shells) {
    const Vec3<double> d = (1 / bohr_in_angstrom) * (r - m.positions[std::size_t(g.atom)]);
    const double r2 = d.x * d.x + d.y * d.y + d.z * d.z;
    for (int i = 0; i < g.functions(); ++i, ++f) {
      const orbital::Polynomial p =
          g.spherical ? orbital::spherical_function(g.l, i) : orbital::cartesian_function(g.l, i);
      std::vector<double> n(g.exponents.size());
      for (std::size_t k = 0; k < n.size(); ++k)
        n[k] = 1 / std::sqrt(orbital::squared_integral(p, 2 * g.exponents[k]));
      double norm2 = 0;
      for (std::size_t a = 0; a < n.size(); ++a)
        for (std::size_t b = 0; b < n.size(); ++b)
          norm2 += g.coefficients[a] * n[a] * g.coefficients[b] * n[b] *
                   orbital::squared_integral(p, g.exponents[a] + g.exponents[b]);
      double radial = 0;
      for (std::size_t k = 0; k < n.size(); ++k)
        radial += g.coefficients[k] * n[k] * std::exp(-g.exponents[k] * r2);
      const double phi = radial / std::sqrt(norm2) * polynomial_at(p, d.x, d.y, d.z);
      psi += c[std::size_t(f)] * phi;
      mag += std::fabs(c[std::size_t(f)] * phi);
    }
  }
  if (magnitude) *magnitude = mag;
  return psi;
}

}  // namespace kmol::test
