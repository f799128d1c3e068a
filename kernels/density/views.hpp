#pragma once
// Gaussian density maps of atoms a Kokkos application already holds in Views, in any memory space
// the execution space reads (device memory on GPUs): the atoms are checked, prepared and hashed
// into cells where they are, with no copy through the host, and the map equals the host-array
// entry point's with the same implementation (kokkos: the one that reads Views).
//
//   Kokkos::View<kmol::Vec3<float>*, Kokkos::CudaSpace> xyz = ...;   // or View<float*[3]>
//   Kokkos::View<float*, Kokkos::CudaSpace> radii = ...;
//   kmol::DensityMap map = kmol::gaussian_density(Kokkos::Cuda(), xyz, radii, settings);
//   kmol::DensityMap mass = kmol::gaussian_density(Kokkos::Cuda(), xyz, radii, masses, settings);
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>

#include "kernels/density/density.hpp"
#include "kernels/views.hpp"

namespace kmol {
namespace views_detail {

template <class ExecSpace, class Positions, class Radii>
DensityInput density_input(const Positions& positions, const Radii& radii) {
  static_assert(std::is_same_v<scalar_t<Positions>, float>, "density maps take float coordinates");
  DensityInput input;
  const std::int64_t n = place_atoms<ExecSpace>(input, positions, "position");
  input.radii = values<ExecSpace, float>(radii, n, "radius", "radii (one per atom)");
  return input;
}

}  // namespace views_detail

// Gaussians of height 1.
template <
    class ExecSpace, class Positions, class Radii,
    std::enable_if_t<Kokkos::is_view<Positions>::value && Kokkos::is_view<Radii>::value, int> = 0>
DensityMap gaussian_density(const ExecSpace& space, const Positions& positions, const Radii& radii,
                            const DensitySettings& settings) {
  return gaussian_density(space, views_detail::density_input<ExecSpace>(positions, radii),
                          settings);
}

// Each Gaussian as high as `heights` says (masses, for mass-weighted maps).
template <class ExecSpace, class Positions, class Radii, class Heights,
          std::enable_if_t<Kokkos::is_view<Positions>::value && Kokkos::is_view<Radii>::value &&
                               Kokkos::is_view<Heights>::value,
                           int> = 0>
DensityMap gaussian_density(const ExecSpace& space, const Positions& positions, const Radii& radii,
                            const Heights& heights, const DensitySettings& settings) {
  DensityInput input = views_detail::density_input<ExecSpace>(positions, radii);
  input.heights =
      views_detail::values<ExecSpace, float>(heights, input.n, "height", "heights (one per atom)");
  return gaussian_density(space, input, settings);
}

}  // namespace kmol
