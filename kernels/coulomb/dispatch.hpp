#pragma once
// coulomb_potential(): validate, choose an implementation, run it.
// Instantiated per execution space in instances_<space>.cpp.
#include <Kokkos_Core.hpp>

#include <type_traits>

#include "kernels/coulomb/coulomb.hpp"
#include "kernels/coulomb/implementations.hpp"
#include "kernels/coulomb/runners.hpp"
#include "kernels/coulomb/units.hpp"
#include "kernels/coulomb/validation.hpp"
#include "kernels/run_implementation.hpp"
#include "kmol/core/cancel.hpp"
#include "kmol/core/execution_space.hpp"

namespace kmol {

template <class ExecSpace, class T>
PotentialMap<T> coulomb_potential(const ExecSpace& space, const CoulombInput<T>& input,
                                  const CoulombSettings& settings) {
  Kokkos::Profiling::pushRegion("kmol::coulomb_potential");
  validate_coulomb(input.n, settings, int(sizeof(T)));
  std::int64_t points = 0;
  for (const LatticeBlock& block : lattice_blocks(settings.lattice, settings.faces_only))
    points += block.points();
  const CoulombShape shape{
      settings.method, input.n,       points, settings.faces_only, settings.lattice.spacing[0],
      settings.cutoff, input.resident};
  PotentialMap<T> map;
  map.lattice = settings.lattice;
  map.units = settings.units;
  map.impl_used = choose_coulomb_impl(shape, platform_of<ExecSpace>(), settings.impl);
  const auto& row = implementation_row(coulomb_implementations, map.impl_used);
  // Resident atoms on a host space are host memory, which the host implementation reads as given.
  CoulombJob<T> job =
      prepare_coulomb(input, settings, input.resident && row.has(row_trait::reads_space_atoms));
  // A map its row stores whole is left unzeroed: zeroing it would be a pass over tens of MB.
  if (row.writes_all_of(shape))
    map.values.resize(std::size_t(settings.lattice.points()));
  else
    map.values.assign(std::size_t(settings.lattice.points()), T(0));
  job.values = map.values.data();
  map.launch = run_implementation<CoulombRunner, coulomb_implementations>(
      "potential", map.impl_used, space, job);
  space.fence();
  throw_if_cancelled("the potential map");  // an implementation that stopped early left it partial
  Kokkos::Profiling::popRegion();
  return map;
}

}  // namespace kmol

#define KMOL_INSTANTIATE_COULOMB(Space)                                              \
  template kmol::PotentialMap<float> kmol::coulomb_potential(                        \
      const Space&, const kmol::CoulombInput<float>&, const kmol::CoulombSettings&); \
  template kmol::PotentialMap<double> kmol::coulomb_potential(                       \
      const Space&, const kmol::CoulombInput<double>&, const kmol::CoulombSettings&);
