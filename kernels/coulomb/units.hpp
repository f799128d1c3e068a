#pragma once
// Physical constants (CODATA 2018, exact SI values where defined) and the factors that turn
// e / Angstrom into potentials (folded into the charges when a job is prepared).
#include <cmath>

#include "kernels/coulomb/coulomb.hpp"

namespace kmol::coulomb {

constexpr double elementary_charge = 1.602176634e-19;     // C
constexpr double vacuum_permittivity = 8.8541878128e-12;  // F/m
constexpr double boltzmann = 1.380649e-23;                // J/K
constexpr double avogadro = 6.02214076e23;                // 1/mol
constexpr double pi = 3.14159265358979323846;
constexpr double angstrom = 1e-10;  // m

// Volts per (e / Angstrom) in vacuum: e / (4 pi eps0 1 A), about 14.3996.
inline double volt_per_e_per_angstrom() {
  return elementary_charge / (4 * pi * vacuum_permittivity * angstrom);
}

// Factor from (e / Angstrom) to `units` in a medium of relative permittivity eps_r.
inline double potential_scale(PotentialUnits units, double temperature, double eps_r) {
  const double volts = volt_per_e_per_angstrom() / eps_r;
  switch (units) {
    case PotentialUnits::volt:
      return volts;
    case PotentialUnits::kcal_per_mol_e:
      return volts * elementary_charge * avogadro / 4184.0;
    case PotentialUnits::kT_per_e:
      break;
  }
  return volts * elementary_charge / (boltzmann * temperature);
}

// Inverse Debye length (1/Angstrom) of a 1:1 electrolyte of ionic strength I (mol/L):
// kappa^2 = 2 N_A e^2 I / (eps0 eps_r k T), I in mol/m^3.
inline double debye_kappa(double ionic_strength, double temperature, double eps_r) {
  const double i_si = ionic_strength * 1000.0;
  const double k2 = 2 * avogadro * elementary_charge * elementary_charge * i_si /
                    (vacuum_permittivity * eps_r * boltzmann * temperature);
  return std::sqrt(k2) * angstrom;
}

// An atom's mdh charge with its own factor exp(kappa a) / (1 + kappa a) folded in.
inline double mdh_charge(double q, double radius, double kappa) {
  return q * std::exp(kappa * radius) / (1 + kappa * radius);
}

}  // namespace kmol::coulomb
