#pragma once
// Potential maps of charges a Kokkos application already holds in Views, in any memory space the
// execution space reads (device memory on GPUs). The kokkos implementation checks the atoms,
// moves them to the lattice origin, folds the unit factors into the charges and (cutoff) sorts
// them into cells where they are, with the host preparation's arithmetic, so the map equals the
// host-array entry point's with the same implementation to the bit. On GPUs it is the one that
// reads Views; on CPU spaces Views are host memory, which every implementation reads. mdh folds
// exp(kappa a) with the host's exp, so its radii (not the coordinates) travel to the host.
//
//   Kokkos::View<kmol::Vec3<float>*, Kokkos::CudaSpace> xyz = ...;   // or View<float*[3]>
//   Kokkos::View<float*, Kokkos::CudaSpace> charges = ...;
//   kmol::PotentialMap<float> map = kmol::coulomb_potential(Kokkos::Cuda(), xyz, charges, s);
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>

#include "kernels/coulomb/coulomb.hpp"
#include "kernels/views.hpp"

namespace kmol {
namespace views_detail {

template <class ExecSpace, class Positions, class Charges>
CoulombInput<scalar_t<Positions>> coulomb_input(const Positions& positions,
                                                const Charges& charges) {
  using T = scalar_t<Positions>;
  CoulombInput<T> input;
  const std::int64_t n = place_atoms<ExecSpace>(input, positions, "positions");
  input.charges = values<ExecSpace, T>(charges, n, "charges", "charges (one per atom)");
  return input;
}

}  // namespace views_detail

// Direct and cutoff: positions (Angstrom) and charges (e).
template <
    class ExecSpace, class Positions, class Charges,
    std::enable_if_t<Kokkos::is_view<Positions>::value && Kokkos::is_view<Charges>::value, int> = 0>
PotentialMap<views_detail::scalar_t<Positions>> coulomb_potential(const ExecSpace& space,
                                                                  const Positions& positions,
                                                                  const Charges& charges,
                                                                  const CoulombSettings& settings) {
  return coulomb_potential(space, views_detail::coulomb_input<ExecSpace>(positions, charges),
                           settings);
}

// Any method, mdh included: radii (Angstrom) as well.
template <class ExecSpace, class Positions, class Charges, class Radii,
          std::enable_if_t<Kokkos::is_view<Positions>::value && Kokkos::is_view<Charges>::value &&
                               Kokkos::is_view<Radii>::value,
                           int> = 0>
PotentialMap<views_detail::scalar_t<Positions>> coulomb_potential(const ExecSpace& space,
                                                                  const Positions& positions,
                                                                  const Charges& charges,
                                                                  const Radii& radii,
                                                                  const CoulombSettings& settings) {
  auto input = views_detail::coulomb_input<ExecSpace>(positions, charges);
  input.radii = views_detail::values<ExecSpace, views_detail::scalar_t<Positions>>(
      radii, input.n, "radii", "radii (one per atom)");
  return coulomb_potential(space, input, settings);
}

}  // namespace kmol
