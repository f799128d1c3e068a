#pragma once
// Molecular orbitals on regular 3-D lattices, from Molden files (docs/orbital.md).
//
//   const kmol::MoldenData molden = kmol::read_molden("h2o.molden");
//   const kmol::OrbitalBasis basis(molden);
//   kmol::OrbitalSettings s;
//   s.lattice = kmol::grid_around(molden.positions.data(), molden.atoms(), 0.1, 5.0);
//   auto map = kmol::orbital_on_lattice<float>(Kokkos::DefaultExecutionSpace(), basis,
//                                              molden.orbitals[kmol::select_orbital(molden,
//                                              "homo")], s);
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/orbital/impl.hpp"  // generated from implementations.hpp
#include "kernels/orbital/molden.hpp"
#include "kmol/core/grid.hpp"

namespace kmol {

std::string to_string(OrbitalImpl impl);
OrbitalImpl orbital_impl_from_string(const std::string& name);

// A contracted Cartesian shell in the form every implementation evaluates: the radial part
// R(r) = sum_k d_k exp(-alpha_k r^2) and, per basis function of the file, its normalised
// expansion over the shell's Cartesian monomials (in Molden's Cartesian order, cartesian.hpp).
struct CartesianShell {
  int atom = 0, l = 0;
  std::vector<double> alpha, d;  // bohr^-2; radial coefficients with the primitives' normalisation
  int first_function = 0;        // index of the shell's first basis function in the MO coefficients
  int first_monomial = 0;        // index of the shell's first monomial in monomial_coefficients()
  int functions = 0;             // 2l+1 (spherical) or (l+1)(l+2)/2 (Cartesian)
  std::vector<double> expansion;  // functions x monomials(l), row-major
};

// The file's basis, normalised (the conventions are in docs/orbital.md), centres in Angstrom.
class OrbitalBasis {
 public:
  explicit OrbitalBasis(const MoldenData& molden);

  const std::vector<Vec3<double>>& centres() const { return centres_; }
  const std::vector<CartesianShell>& shells() const { return shells_; }
  int functions() const { return functions_; }  // basis functions of the file
  int monomials() const { return monomials_; }  // Cartesian monomials over all shells

  // The MO's coefficients over the Cartesian monomials, for positions in Angstrom: the
  // functions' normalisation and bohr^-l folded in, so that psi (in bohr^-3/2) is
  // sum over shells of R(r) * sum_c coef_c * monomial_c(r - centre).
  std::vector<double> monomial_coefficients(const std::vector<double>& mo) const;

 private:
  std::vector<Vec3<double>> centres_;
  std::vector<CartesianShell> shells_;
  int functions_ = 0, monomials_ = 0;
};

struct OrbitalSettings {
  Grid lattice;
  OrbitalImpl impl = OrbitalImpl::automatic;
  // cuda: the largest basis-and-coefficient table put in __constant__ memory; larger ones are
  // read from global memory through the L1 cache. On an H200 C60's 16 KB table ran at 115 G
  // evaluations/s from constant memory and 375 G/s through L1 (perf/results/2026-11-21-h200-
  // orbital.json): warps walking a table larger than the constant cache miss in it. Tables up to
  // 4 KiB (small molecules) stay in constant memory; tests set 64 KiB and 0 to force each path.
  std::int64_t constant_bytes_limit = 4 * 1024;
};

template <class T>
struct OrbitalMap {
  Grid lattice;
  std::vector<T> values;  // psi in bohr^-3/2, lattice.index order
  OrbitalImpl impl_used = OrbitalImpl::automatic;
  std::string launch;  // the implementation's launch choice, for the record

  T at(std::int64_t i, std::int64_t j, std::int64_t k) const {
    return values[lattice.index(i, j, k)];
  }
};

// One orbital on the lattice. ExecSpace: Kokkos::Serial, Kokkos::OpenMP or Kokkos::Cuda; T: float
// or double. Throws InputError for a bad lattice or coefficient count, UnsupportedError when the
// forced impl cannot run here.
template <class T, class ExecSpace>
OrbitalMap<T> orbital_on_lattice(const ExecSpace& space, const OrbitalBasis& basis,
                                 const MolecularOrbital& mo, const OrbitalSettings& settings);

// Several orbitals at once: the Cartesian basis values of a chunk of lattice points times the
// coefficient matrix, through Kokkos Kernels' gemm. Maps in the order of `mos`.
template <class T, class ExecSpace>
std::vector<OrbitalMap<T>> orbitals_on_lattice(const ExecSpace& space, const OrbitalBasis& basis,
                                               const std::vector<const MolecularOrbital*>& mos,
                                               const OrbitalSettings& settings);

}  // namespace kmol
