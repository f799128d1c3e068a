#pragma once
// Marching cubes on every Kokkos backend, in three passes over the lattice points:
//   1. count and scan: each point owns the lattice edges to its +x, +y and +z neighbours (a vertex
//      where an edge crosses the iso value) and the cell it is the lower corner of (triangles from
//      the case table); one exclusive scan of both counts packed into a 64-bit word (vertices low,
//      triangles high) places every point's output;
//   2. vertices: position interpolated along the edge, normal from the central-difference gradient;
//   3. triangles: the cell's edges looked up in the scanned offsets of their owning points, so a
//      vertex is written once and shared by every triangle that uses it.
// Each pass goes in pieces of points a cancel can stop between.
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>

#include "kernels/empty_view.hpp"
#include "kernels/launch_pieces_kokkos.hpp"
#include "kernels/surface/cube_table.hpp"
#include "kmol/core/io/opendx.hpp"
#include "kmol/core/math.hpp"

namespace kmol::surface {

template <class Memory>
struct DeviceMesh {
  using Vectors = Kokkos::View<float* [3], Kokkos::LayoutRight, Memory>;
  using Triangles = Kokkos::View<std::int32_t* [3], Kokkos::LayoutRight, Memory>;
  Vectors positions = empty_view<Vectors>(), normals = empty_view<Vectors>();
  Triangles triangles = empty_view<Triangles>();
};

template <class Memory>
struct DeviceCubeTable {
  using Triangles = Kokkos::View<std::uint8_t*, Memory>;
  using Edges = Kokkos::View<std::int8_t*, Memory>;
  using Geometry = Kokkos::View<std::int8_t* [4], Kokkos::LayoutRight, Memory>;
  Triangles triangles = empty_view<Triangles>();
  Edges edges = empty_view<Edges>();                // 3 * max_cube_triangles per case
  Geometry edge_geometry = empty_view<Geometry>();  // di, dj, dk, axis
};

template <class Memory>
DeviceCubeTable<Memory> device_cube_table() {
  const CubeTable& t = cube_table();
  DeviceCubeTable<Memory> d;
  d.triangles =
      Kokkos::View<std::uint8_t*, Memory>(std::string("kmol::surface::case_triangles"), 256);
  d.edges = Kokkos::View<std::int8_t*, Memory>(std::string("kmol::surface::case_edges"),
                                               256 * 3 * max_cube_triangles);
  d.edge_geometry = Kokkos::View<std::int8_t* [4], Kokkos::LayoutRight, Memory>(
      std::string("kmol::surface::edges"), 12);
  auto tri = Kokkos::create_mirror_view(d.triangles);
  auto edges = Kokkos::create_mirror_view(d.edges);
  auto geometry = Kokkos::create_mirror_view(d.edge_geometry);
  for (int c = 0; c < 256; ++c) {
    tri(c) = t.triangles[std::size_t(c)];
    for (int k = 0; k < 3 * max_cube_triangles; ++k)
      edges(c * 3 * max_cube_triangles + k) = t.edges[std::size_t(c)][std::size_t(k)];
  }
  for (int e = 0; e < 12; ++e) {
    const CubeEdge g = cube_edge(e);
    geometry(e, 0) = std::int8_t(g.di);
    geometry(e, 1) = std::int8_t(g.dj);
    geometry(e, 2) = std::int8_t(g.dk);
    geometry(e, 3) = std::int8_t(g.axis);
  }
  Kokkos::deep_copy(d.triangles, tri);
  Kokkos::deep_copy(d.edges, edges);
  Kokkos::deep_copy(d.edge_geometry, geometry);
  return d;
}

// The map as the passes see it.
template <class Memory>
struct Field {
  using Values = Kokkos::View<const float*, Memory>;
  Values values = empty_view<Values>();
  std::int64_t nx, ny, nz;
  float iso;

  KOKKOS_INLINE_FUNCTION float at(std::int64_t i, std::int64_t j, std::int64_t k) const {
    return values((k * ny + j) * nx + i);
  }
  KOKKOS_INLINE_FUNCTION bool inside(std::int64_t i, std::int64_t j, std::int64_t k) const {
    return at(i, j, k) > iso;
  }
  // Bit a set: the edge from (i, j, k) along axis a crosses the iso value.
  KOKKOS_INLINE_FUNCTION int edge_mask(std::int64_t i, std::int64_t j, std::int64_t k) const {
    const bool here = inside(i, j, k);
    int mask = 0;
    if (i + 1 < nx && inside(i + 1, j, k) != here) mask |= 1;
    if (j + 1 < ny && inside(i, j + 1, k) != here) mask |= 2;
    if (k + 1 < nz && inside(i, j, k + 1) != here) mask |= 4;
    return mask;
  }
  KOKKOS_INLINE_FUNCTION int cube_case(std::int64_t i, std::int64_t j, std::int64_t k) const {
    int c = 0;
    for (int b = 0; b < 8; ++b)
      c |= int(inside(i + (b & 1), j + ((b >> 1) & 1), k + ((b >> 2) & 1))) << b;
    return c;
  }
  // Central differences inside, one-sided at the boundary; in value per lattice step.
  KOKKOS_INLINE_FUNCTION float gradient(std::int64_t i, std::int64_t j, std::int64_t k,
                                        int axis) const {
    std::int64_t lo[3] = {i, j, k}, hi[3] = {i, j, k};
    const std::int64_t n = axis == 0 ? nx : axis == 1 ? ny : nz;
    if (lo[axis] > 0) --lo[axis];
    if (hi[axis] + 1 < n) ++hi[axis];
    const float span = float(hi[axis] - lo[axis]);
    return span > 0 ? (at(hi[0], hi[1], hi[2]) - at(lo[0], lo[1], lo[2])) / span : 0.0f;
  }
};

KOKKOS_INLINE_FUNCTION int popcount3(int mask) {
  return (mask & 1) + ((mask >> 1) & 1) + ((mask >> 2) & 1);
}

// Vertices and triangles of the isosurface at `iso` of the map in `values` (i fastest).
template <class ExecSpace>
DeviceMesh<typename ExecSpace::memory_space> marching_cubes_kokkos(
    const ExecSpace& space, const Grid& grid,
    Kokkos::View<const float*, typename ExecSpace::memory_space> values, float iso) {
  using Memory = typename ExecSpace::memory_space;
  const DeviceCubeTable<Memory> table = device_cube_table<Memory>();
  const Field<Memory> f{values, grid.counts[0], grid.counts[1], grid.counts[2], iso};
  const std::int64_t nx = f.nx, ny = f.ny, nz = f.nz, points = nx * ny * nz;
  Kokkos::View<std::int64_t*, Memory> offsets(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("kmol::surface::offsets")),
      points);
  const std::int64_t total = parallel_scan_in_pieces(
      "kmol::surface::count", space, points, "the isosurface",
      KOKKOS_LAMBDA(const std::int64_t p, std::int64_t& update, const bool final) {
        const std::int64_t i = p % nx, j = (p / nx) % ny, k = p / (nx * ny);
        std::int64_t count = popcount3(f.edge_mask(i, j, k));
        if (i + 1 < nx && j + 1 < ny && k + 1 < nz)
          count += std::int64_t(table.triangles(f.cube_case(i, j, k))) << 32;
        if (final) offsets(p) = update;
        update += count;
      });
  const std::int64_t n_vertices = total & 0xffffffff, n_triangles = total >> 32;
  DeviceMesh<Memory> mesh;
  mesh.positions = decltype(mesh.positions)(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("kmol::surface::positions")),
      n_vertices);
  mesh.normals = decltype(mesh.normals)(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("kmol::surface::normals")),
      n_vertices);
  mesh.triangles = decltype(mesh.triangles)(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("kmol::surface::triangles")),
      n_triangles);
  const auto positions = mesh.positions, normals = mesh.normals;
  const auto triangles = mesh.triangles;
  const float origin[3] = {float(grid.origin.x), float(grid.origin.y), float(grid.origin.z)};
  const float ox = origin[0], oy = origin[1], oz = origin[2];
  const float hx = float(grid.spacing[0]), hy = float(grid.spacing[1]), hz = float(grid.spacing[2]);
  parallel_for_in_pieces(
      "kmol::surface::emit", space, points, "the isosurface", KOKKOS_LAMBDA(const std::int64_t p) {
        const std::int64_t i = p % nx, j = (p / nx) % ny, k = p / (nx * ny);
        const std::int64_t offset = offsets(p);
        const int mask = f.edge_mask(i, j, k);
        std::int64_t v = offset & 0xffffffff;
        const float here = f.at(i, j, k);
        for (int a = 0; a < 3; ++a) {
          if (!((mask >> a) & 1)) continue;
          const std::int64_t i1 = i + (a == 0), j1 = j + (a == 1), k1 = k + (a == 2);
          const float there = f.at(i1, j1, k1);
          const float t = (iso - here) / (there - here);
          positions(v, 0) = ox + (float(i) + (a == 0 ? t : 0.0f)) * hx;
          positions(v, 1) = oy + (float(j) + (a == 1 ? t : 0.0f)) * hy;
          positions(v, 2) = oz + (float(k) + (a == 2 ? t : 0.0f)) * hz;
          float g[3], len2 = 0;
          const float h[3] = {hx, hy, hz};
          for (int c = 0; c < 3; ++c) {
            const float g0 = f.gradient(i, j, k, c), g1 = f.gradient(i1, j1, k1, c);
            g[c] = -math::fma(t, g1 - g0, g0) / h[c];
            len2 = math::fma(g[c], g[c], len2);
          }
          const float scale = len2 > 0 ? 1.0f / math::sqrt(len2) : 0.0f;
          for (int c = 0; c < 3; ++c) normals(v, c) = g[c] * scale;
          ++v;
        }
        if (i + 1 >= nx || j + 1 >= ny || k + 1 >= nz) return;
        const int cube = f.cube_case(i, j, k);
        const int n_tri = table.triangles(cube);
        std::int64_t t = offset >> 32;
        for (int s = 0; s < 3 * n_tri; ++s) {
          const int e = table.edges(cube * 3 * max_cube_triangles + s);
          const std::int64_t qi = i + table.edge_geometry(e, 0), qj = j + table.edge_geometry(e, 1),
                             qk = k + table.edge_geometry(e, 2);
          const int axis = table.edge_geometry(e, 3);
          const std::int64_t q = (qk * ny + qj) * nx + qi;
          const int below = f.edge_mask(qi, qj, qk) & ((1 << axis) - 1);
          triangles(t + s / 3, s % 3) = std::int32_t((offsets(q) & 0xffffffff) + popcount3(below));
        }
      });
  return mesh;
}

// Instantiated once, in kernels/surface/instances_<space>.cpp: a second copy in another unit
// (with nvcc's extended lambdas, a different closure per unit behind one symbol) is avoided.
#define KMOL_SURFACE_KOKKOS_INSTANCE(prefix, Space)                      \
  prefix template DeviceMesh<Space::memory_space> marching_cubes_kokkos( \
      const Space&, const Grid&, Kokkos::View<const float*, Space::memory_space>, float);
#ifdef KOKKOS_ENABLE_SERIAL
KMOL_SURFACE_KOKKOS_INSTANCE(extern, Kokkos::Serial)
#endif
#ifdef KOKKOS_ENABLE_OPENMP
KMOL_SURFACE_KOKKOS_INSTANCE(extern, Kokkos::OpenMP)
#endif
#ifdef KOKKOS_ENABLE_CUDA
KMOL_SURFACE_KOKKOS_INSTANCE(extern, Kokkos::Cuda)
#endif

}  // namespace kmol::surface
