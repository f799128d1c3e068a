#pragma once
// Brute-force double-precision potentials straight from the formulas in docs/coulomb.md, in
// e/Angstrom times the unit factor: the oracle every implementation is checked against.
#include <cmath>
#include <random>
#include <vector>

#include "kernels/coulomb/coulomb.hpp"
#include "kernels/coulomb/units.hpp"
#include "kernels/coulomb/validation.hpp"

namespace kmol::test {

struct ChargedAtoms {
  std::vector<Vec3<double>> positions;
  std::vector<double> charges, radii;
};

// n atoms in a box [lo, lo + length)^3 with charges in [-1, 1] and radii in [1, 2].
inline ChargedAtoms random_atoms(std::int64_t n, Vec3<double> lo, double length, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0, length), q(-1, 1), r(1, 2);
  ChargedAtoms atoms;
  for (std::int64_t a = 0; a < n; ++a) {
    atoms.positions.push_back({lo.x + u(rng), lo.y + u(rng), lo.z + u(rng)});
    atoms.charges.push_back(q(rng));
    atoms.radii.push_back(r(rng));
  }
  return atoms;
}

// A small lattice for checking every implementation: rows longer than the 16-lane blocks and odd
// sizes, and a cutoff smaller than the lattice, so that cells and clipping matter.
inline CoulombSettings small_problem(CoulombMethod method) {
  CoulombSettings s;
  s.method = method;
  s.lattice.origin = {-3.3, 1.1, -0.4};
  s.lattice.spacing = {0.9, 0.9, 0.9};
  s.lattice.counts = {21, 9, 7};
  s.cutoff = 4.5;
  s.ionic_strength = 0.15;
  return s;
}

// The potential at p and, in `magnitude`, the sum of the terms' absolute values (the scale of the
// rounding error any summation order can make).
inline double oracle_point(const ChargedAtoms& atoms, const CoulombSettings& s, Vec3<double> p,
                           double* magnitude = nullptr) {
  const double eps_r = effective_dielectric(s);
  const double kappa = coulomb::debye_kappa(s.ionic_strength, s.temperature, eps_r);
  double sum = 0, size = 0;
  for (std::size_t a = 0; a < atoms.positions.size(); ++a) {
    const Vec3<double> d = atoms.positions[a] - p;
    const double r = std::sqrt(d.x * d.x + d.y * d.y + d.z * d.z);
    if (r == 0) continue;
    const double q = atoms.charges[a];
    const double before = sum;
    switch (s.method) {
      case CoulombMethod::direct:
        sum += q / r;
        break;
      case CoulombMethod::cutoff:
        if (r < s.cutoff) sum += q / r * std::pow(1 - r * r / (s.cutoff * s.cutoff), 2);
        break;
      case CoulombMethod::mdh: {
        const double a_i = atoms.radii[a];
        sum += q * std::exp(-kappa * (r - a_i)) / (r * (1 + kappa * a_i));
        break;
      }
    }
    size += std::fabs(sum - before);
  }
  const double scale = coulomb::potential_scale(s.units, s.temperature, eps_r);
  if (magnitude) *magnitude = size * std::fabs(scale);
  return sum * scale;
}

// The oracle on every lattice point (faces_only: interior points 0).
inline std::vector<double> oracle_map(const ChargedAtoms& atoms, const CoulombSettings& s) {
  const Grid& l = s.lattice;
  std::vector<double> out(std::size_t(l.points()), 0.0);
  for (const LatticeBlock& b : lattice_blocks(l, s.faces_only))
    for (std::int64_t k = b.begin[2]; k < b.begin[2] + b.size[2]; ++k)
      for (std::int64_t j = b.begin[1]; j < b.begin[1] + b.size[1]; ++j)
        for (std::int64_t i = b.begin[0]; i < b.begin[0] + b.size[0]; ++i)
          out[l.index(i, j, k)] = oracle_point(
              atoms, s,
              l.origin + Vec3<double>{double(i) * l.spacing[0], double(j) * l.spacing[0],
                                      double(k) * l.spacing[0]});
  return out;
}

}  // namespace kmol::test
