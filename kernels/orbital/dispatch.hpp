#pragma once
// orbital_on_lattice() and orbitals_on_lattice(): validate, choose an implementation, run it.
// Instantiated per execution space in instances_<space>.cpp.
#include <Kokkos_Core.hpp>

#include <type_traits>

#include "kernels/host_copy.hpp"
#include "kernels/orbital/implementations.hpp"
#include "kernels/orbital/orbital.hpp"
#include "kernels/orbital/packing.hpp"
#include "kernels/orbital/runners.hpp"
#include "kernels/orbital/selection.hpp"
#include "kernels/run_implementation.hpp"
#include "kmol/core/cancel.hpp"
#include "kmol/core/execution_space.hpp"

namespace kmol {

template <class T, class ExecSpace>
OrbitalMap<T> orbital_on_lattice(const ExecSpace& space, const OrbitalBasis& basis,
                                 const MolecularOrbital& mo, const OrbitalSettings& settings) {
  Kokkos::Profiling::pushRegion("kmol::orbital_on_lattice");
  validate_orbital_lattice(settings.lattice, 1, int(sizeof(T)));
  const auto tables = orbital::pack_tables<T>(basis, basis.monomial_coefficients(mo.coefficients),
                                              settings.lattice.origin);
  OrbitalMap<T> map;
  map.lattice = settings.lattice;
  map.values.resize(std::size_t(settings.lattice.points()));
  map.impl_used = choose_orbital_impl(platform_of<ExecSpace>(), settings.impl);
  map.launch = run_implementation<OrbitalRunner, orbital_implementations>(
      "orbital", map.impl_used, space, tables, settings, map.values.data());
  throw_if_cancelled("the orbital map");  // an implementation that stopped early left it partial
  Kokkos::Profiling::popRegion();
  return map;
}

template <class T, class ExecSpace>
std::vector<OrbitalMap<T>> orbitals_on_lattice(const ExecSpace& space, const OrbitalBasis& basis,
                                               const std::vector<const MolecularOrbital*>& mos,
                                               const OrbitalSettings& settings) {
  Kokkos::Profiling::pushRegion("kmol::orbitals_on_lattice");
  validate_orbital_lattice(settings.lattice, std::int64_t(mos.size()), int(sizeof(T)));
  std::vector<double> coef;
  for (const MolecularOrbital* mo : mos) {
    const auto c = basis.monomial_coefficients(mo->coefficients);
    coef.insert(coef.end(), c.begin(), c.end());
  }
  const auto tables = orbital::pack_tables<T>(basis, {}, settings.lattice.origin);
  std::vector<OrbitalMap<T>> maps(mos.size());
  // The maps are hundreds of MB of fresh memory, zeroed as they are sized: one thread alone would
  // take every page fault (longer than the GPU work), so the host threads share them.
  for_each_in_parallel(std::int64_t(maps.size()), Kokkos::DefaultHostExecutionSpace().concurrency(),
                       [&](std::int64_t m) {
                         maps[std::size_t(m)].values.resize(std::size_t(settings.lattice.points()));
                       });
  std::vector<T*> values;
  for (auto& map : maps) {
    map.lattice = settings.lattice;
    map.impl_used = OrbitalImpl::kokkos;
    values.push_back(map.values.data());
  }
  if (!mos.empty()) {
    const std::string launch =
        orbitals_gemm(space, tables, coef, basis.monomials(), settings.lattice, values);
    for (auto& map : maps) map.launch = launch;
  }
  Kokkos::Profiling::popRegion();
  return maps;
}

}  // namespace kmol

#define KMOL_INSTANTIATE_ORBITAL_T(Space, T)                                                      \
  template kmol::OrbitalMap<T> kmol::orbital_on_lattice<T, Space>(                                \
      const Space&, const kmol::OrbitalBasis&, const kmol::MolecularOrbital&,                     \
      const kmol::OrbitalSettings&);                                                              \
  template std::vector<kmol::OrbitalMap<T>> kmol::orbitals_on_lattice<T, Space>(                  \
      const Space&, const kmol::OrbitalBasis&, const std::vector<const kmol::MolecularOrbital*>&, \
      const kmol::OrbitalSettings&);
#define KMOL_INSTANTIATE_ORBITAL(Space) \
  KMOL_INSTANTIATE_ORBITAL_T(Space, float) KMOL_INSTANTIATE_ORBITAL_T(Space, double)
