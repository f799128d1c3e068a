#pragma once
// Marching cubes on a map a Kokkos application already holds in a View, in any memory space the
// execution space reads (device memory on GPUs): read where it is, with the same mesh as the
// host-array entry point.
//
//   Kokkos::View<float*, Kokkos::CudaSpace> values = ...;   // grid.points(), i fastest
//   kmol::SurfaceMesh mesh = kmol::marching_cubes(Kokkos::Cuda(), grid, values, 0.5f);
#include <Kokkos_Core.hpp>

#include <type_traits>

#include "kernels/surface/surface.hpp"
#include "kernels/views.hpp"

namespace kmol {

template <class ExecSpace, class Values, std::enable_if_t<Kokkos::is_view<Values>::value, int> = 0>
SurfaceMesh marching_cubes(const ExecSpace& space, const Grid& grid, const Values& values,
                           float iso) {
  return marching_cubes(
      space, grid,
      views_detail::values<ExecSpace, float>(values, grid.points(), "map", "values (the grid's)"),
      iso, true);
}

}  // namespace kmol
