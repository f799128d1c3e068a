#pragma once
// Gaussian density maps: kmol::gaussian_density over atoms in host memory or in Kokkos Views.
#include <cstdint>

#include "kernels/density/density.hpp"
#include "kernels/density/views.hpp"
#include "kmol/core/points.hpp"

namespace kmol {

// The input from contiguous ranges (std::vector, std::array, kmol::Span): coordinates as Vec3s or
// as 3n floats x0,y0,z0,x1,..., one radius (and height) per atom.
template <class Xyz, class Radii, class = points_scalar_t<Xyz>>
DensityInput density_input(const Xyz& positions, const Radii& radii) {
  const Points<float> p = points(positions, "positions");
  return {p.data, per_atom(radii, p.n, "radii"), p.n};
}
template <class Xyz, class Radii, class Heights, class = points_scalar_t<Xyz>>
DensityInput density_input(const Xyz& positions, const Radii& radii, const Heights& heights) {
  DensityInput input = density_input(positions, radii);
  input.heights = per_atom(heights, input.n, "heights");
  return input;
}

// density_grid_around of a flat array x0,y0,z0,x1,... of n atoms.
inline Grid density_grid_around(const float* xyz, std::int64_t n, double spacing, double padding) {
  return density_grid_around(as_points(xyz), n, spacing, padding);
}

}  // namespace kmol
