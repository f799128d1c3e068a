#pragma once
// marching_cubes(): validate, copy the map to the space, run the passes, copy the mesh back.
// Instantiated per execution space in instances_<space>.cpp.
#include <Kokkos_Core.hpp>

#include "kernels/surface/kokkos/marching_cubes_kokkos.hpp"
#include "kernels/surface/surface.hpp"
#include "kmol/core/errors.hpp"
#include "kmol/core/execution_space.hpp"

namespace kmol {

void validate_surface_grid(const Grid& grid);

template <class ExecSpace>
SurfaceMesh marching_cubes(const ExecSpace& space, const Grid& grid, const float* values, float iso,
                           bool resident) {
  using Memory = typename ExecSpace::memory_space;
  validate_surface_grid(grid);
  Kokkos::Profiling::pushRegion("kmol::marching_cubes");
  const std::int64_t points = grid.counts[0] * grid.counts[1] * grid.counts[2];
  Kokkos::View<const float*, Memory> map =
      Kokkos::View<const float*, Memory, Kokkos::MemoryUnmanaged>(values, points);
  // A host space reads the caller's map where it is: a copy would only delay the passes.
  if (!resident && !runs_on_host<ExecSpace>) {
    Kokkos::View<float*, Memory> copy(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("kmol::surface::map")), points);
    Kokkos::deep_copy(
        space, copy,
        Kokkos::View<const float*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(values, points));
    map = copy;
  }
  const auto d = surface::marching_cubes_kokkos(space, grid, map, iso);
  SurfaceMesh mesh;
  mesh.positions.resize(d.positions.extent(0));
  mesh.normals.resize(d.normals.extent(0));
  mesh.triangles.resize(d.triangles.extent(0));
  using HostFloats =
      Kokkos::View<float* [3], Kokkos::LayoutRight, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>;
  using HostInts = Kokkos::View<std::int32_t* [3], Kokkos::LayoutRight, Kokkos::HostSpace,
                                Kokkos::MemoryUnmanaged>;
  // An empty mesh has no first element whose members could be addressed.
  const auto floats = [](std::vector<Vec3<float>>& v) { return v.empty() ? nullptr : &v[0].x; };
  std::int32_t* const corners = mesh.triangles.empty() ? nullptr : mesh.triangles[0].data();
  Kokkos::deep_copy(space, HostFloats(floats(mesh.positions), mesh.positions.size()), d.positions);
  Kokkos::deep_copy(space, HostFloats(floats(mesh.normals), mesh.normals.size()), d.normals);
  Kokkos::deep_copy(space, HostInts(corners, mesh.triangles.size()), d.triangles);
  space.fence();
  Kokkos::Profiling::popRegion();
  return mesh;
}

}  // namespace kmol

// The entry point and the kernel it calls (declared extern for every other unit).
#define KMOL_INSTANTIATE_SURFACE(Space)                                                          \
  template kmol::SurfaceMesh kmol::marching_cubes(const Space&, const kmol::Grid&, const float*, \
                                                  float, bool);                                  \
  namespace kmol::surface {                                                                      \
  KMOL_SURFACE_KOKKOS_INSTANCE(, Space)                                                          \
  }
