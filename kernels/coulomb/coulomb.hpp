#pragma once
// Electrostatic potential maps on regular 3-D lattices: direct Coulomb summation, cutoff summation
// with the NAMD shifting function, and APBS' multiple Debye-Hueckel (mdh) spheres.
//
//   kmol::CoulombSettings s;  s.method = kmol::CoulombMethod::cutoff;  s.cutoff = 12;
//   s.lattice = kmol::grid_around(xyz, n, 0.5, 10);
//   auto map = kmol::coulomb_potential(Kokkos::DefaultExecutionSpace(),
//   kmol::CoulombInput<float>{...}, s);
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/coulomb/impl.hpp"  // generated from implementations.hpp
#include "kernels/default_init_allocator.hpp"
#include "kmol/core/grid.hpp"
#include "kmol/core/vec3.hpp"

namespace kmol {

enum class CoulombMethod { direct, cutoff, mdh };
enum class PotentialUnits { kT_per_e, volt, kcal_per_mol_e };

std::string to_string(CoulombMethod method);
std::string to_string(CoulombImpl impl);
std::string to_string(PotentialUnits units);
CoulombMethod coulomb_method_from_string(const std::string& name);
CoulombImpl coulomb_impl_from_string(const std::string& name);
PotentialUnits potential_units_from_string(const std::string& name);

// Host arrays kept by the caller. radii: mdh only (ignored otherwise). resident: the arrays live
// in the memory of the execution space that runs the call instead (a Kokkos application's Views:
// views.hpp); the kokkos implementation checks and prepares them there.
template <class T>
struct CoulombInput {
  const Vec3<T>* positions = nullptr;  // Angstrom
  const T* charges = nullptr;          // e
  const T* radii = nullptr;            // Angstrom
  std::int64_t n = 0;
  bool resident = false;
};

struct CoulombSettings {
  CoulombMethod method = CoulombMethod::direct;
  Grid lattice;
  double cutoff = 0;            // Angstrom; cutoff method only
  double ionic_strength = 0;    // mol/L; mdh only
  double temperature = 298.15;  // K: kT/e units and the Debye length
  double dielectric = 0;        // relative permittivity; 0: 1 for direct/cutoff, 78.54 for mdh
  bool faces_only = false;      // mdh: only the six boundary faces (APBS' boundary condition)
  bool compensated = false;     // Kahan summation of the per-point sums
  PotentialUnits units = PotentialUnits::kT_per_e;
  CoulombImpl impl = CoulombImpl::automatic;
};

template <class T>
struct PotentialMap {
  Grid lattice;
  MapValues<T> values;  // lattice.index order; faces_only leaves interior points at 0
  PotentialUnits units = PotentialUnits::kT_per_e;
  CoulombImpl impl_used = CoulombImpl::automatic;
  std::string launch;  // the implementation's launch choice, for the record

  T at(std::int64_t i, std::int64_t j, std::int64_t k) const {
    return values[lattice.index(i, j, k)];
  }
};

// ExecSpace: Kokkos::Serial, Kokkos::OpenMP or Kokkos::Cuda; T: float or double (the working
// precision of the sums). Throws InputError for bad settings (spacing <= 0, cutoff <= 0, negative
// ionic strength, a lattice too large for memory) and UnsupportedError when the forced impl cannot
// run the problem.
template <class ExecSpace, class T>
PotentialMap<T> coulomb_potential(const ExecSpace& space, const CoulombInput<T>& input,
                                  const CoulombSettings& settings);

}  // namespace kmol
