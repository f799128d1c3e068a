// Marching cubes: a sphere's area and volume at fine spacing, closed meshes (every edge in two
// triangles) on smooth and on random maps full of ambiguous faces, outward normals, and the
// vertices against a plain host loop over the lattice edges, on every backend.
#include <cmath>
#include <random>

#include "kernels/surface/cube_table.hpp"
#include "kernels/surface/surface.hpp"
#include "kmol/core/errors.hpp"
#include "support/backend_test.hpp"

namespace {

using namespace kmol;

constexpr double pi = 3.14159265358979323846;

// exp(-r^2 / 8) about the lattice's centre, sampled at spacing h over [-half, half]^3.
std::vector<float> gaussian_ball(double half, double h, Grid& grid) {
  const std::int64_t n = std::int64_t(std::llround(2 * half / h)) + 1;
  grid = {{-half + 0.3, -half - 0.1, -half + 0.2},
          {h, h, h},
          {n, n, n}};  // centre off the lattice's symmetry
  std::vector<float> v(std::size_t(n * n * n));
  for (std::int64_t k = 0; k < n; ++k)
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t i = 0; i < n; ++i) {
        const double x = grid.origin.x + double(i) * h, y = grid.origin.y + double(j) * h,
                     z = grid.origin.z + double(k) * h;
        v[std::size_t((k * n + j) * n + i)] = float(std::exp(-(x * x + y * y + z * z) / 8.0));
      }
  return v;
}

KMOL_BACKEND_TEST(MarchingCubes, SphereAreaVolumeNormals) {
  Grid grid;
  const double radius = 4;
  const std::vector<float> values = gaussian_ball(6, 0.1, grid);
  const SurfaceMesh mesh =
      marching_cubes(ExecSpace(), grid, values.data(), float(std::exp(-radius * radius / 8.0)));
  const MeshMeasures m = measure_mesh(mesh);
  EXPECT_NEAR(m.area, 4 * pi * radius * radius, 0.01 * 4 * pi * radius * radius);
  EXPECT_NEAR(m.volume, 4.0 / 3.0 * pi * radius * radius * radius,
              0.01 * 4.0 / 3.0 * pi * radius * radius * radius);
  EXPECT_EQ(open_edges(mesh), 0);
  ASSERT_EQ(mesh.normals.size(), mesh.positions.size());
  for (std::size_t v = 0; v < mesh.positions.size(); ++v) {
    const Vec3<double> p = mesh.positions[v].cast<double>(), n = mesh.normals[v].cast<double>();
    ASSERT_NEAR(std::sqrt(norm2(p)), radius, 0.01) << "vertex " << v;
    ASSERT_GT(dot(n, p) / std::sqrt(norm2(p)), 0.999)
        << "normal of vertex " << v << " is not radial and outward";
  }
  for (const auto& t : mesh.triangles) {  // counter-clockwise seen from outside
    const Vec3<double> a = mesh.positions[std::size_t(t[0])].cast<double>(),
                       b = mesh.positions[std::size_t(t[1])].cast<double>(),
                       c = mesh.positions[std::size_t(t[2])].cast<double>();
    ASSERT_GE(dot(cross(b - a, c - a), a), 0.0);
  }
}

// Random values with a low border: closed surfaces through every kind of cell, ambiguous faces
// included; the vertices must be exactly the lattice edges that cross, in point-then-axis order.
KMOL_BACKEND_TEST(MarchingCubes, RandomMapClosedAndVerticesOnCrossingEdges) {
  const std::int64_t nx = 23, ny = 17, nz = 19;
  const Grid grid{{1, 2, 3}, {0.5, 0.7, 0.9}, {nx, ny, nz}};
  std::mt19937 gen(7);
  std::uniform_real_distribution<float> uniform(0, 1);
  std::vector<float> values(std::size_t(nx * ny * nz));
  for (std::int64_t k = 0; k < nz; ++k)
    for (std::int64_t j = 0; j < ny; ++j)
      for (std::int64_t i = 0; i < nx; ++i) {
        const bool border = i == 0 || j == 0 || k == 0 || i == nx - 1 || j == ny - 1 || k == nz - 1;
        values[std::size_t((k * ny + j) * nx + i)] = border ? 0.0f : uniform(gen);
      }
  const float iso = 0.5f;
  const SurfaceMesh mesh = marching_cubes(ExecSpace(), grid, values.data(), iso);
  EXPECT_GT(mesh.triangles.size(), 1000u);
  EXPECT_EQ(open_edges(mesh), 0);
  EXPECT_GT(measure_mesh(mesh).volume, 0);
  for (float other : {0.2f, 0.35f, 0.65f, 0.8f}) {  // other mixes of corner cases
    const SurfaceMesh m = marching_cubes(ExecSpace(), grid, values.data(), other);
    EXPECT_EQ(open_edges(m), 0) << "iso " << other;
    EXPECT_GT(measure_mesh(m).volume, 0) << "iso " << other;
  }

  auto at = [&](std::int64_t i, std::int64_t j, std::int64_t k) {
    return double(values[std::size_t((k * ny + j) * nx + i)]);
  };
  std::size_t v = 0;
  for (std::int64_t k = 0; k < nz; ++k)
    for (std::int64_t j = 0; j < ny; ++j)
      for (std::int64_t i = 0; i < nx; ++i)
        for (int a = 0; a < 3; ++a) {
          const std::int64_t i1 = i + (a == 0), j1 = j + (a == 1), k1 = k + (a == 2);
          if (i1 >= nx || j1 >= ny || k1 >= nz || (at(i, j, k) > iso) == (at(i1, j1, k1) > iso))
            continue;
          const double t = (iso - at(i, j, k)) / (at(i1, j1, k1) - at(i, j, k));
          const double expected[3] = {1 + (double(i) + (a == 0) * t) * 0.5,
                                      2 + (double(j) + (a == 1) * t) * 0.7,
                                      3 + (double(k) + (a == 2) * t) * 0.9};
          ASSERT_LT(v, mesh.positions.size());
          const Vec3<float> p = mesh.positions[v++];
          ASSERT_NEAR(p.x, expected[0], 1e-5) << "vertex " << v - 1;
          ASSERT_NEAR(p.y, expected[1], 1e-5) << "vertex " << v - 1;
          ASSERT_NEAR(p.z, expected[2], 1e-5) << "vertex " << v - 1;
        }
  EXPECT_EQ(v, mesh.positions.size());
}

KMOL_BACKEND_TEST(MarchingCubes, NoSurfaceGivesEmptyMesh) {
  const Grid grid{{0, 0, 0}, {1, 1, 1}, {4, 5, 6}};
  const std::vector<float> values(120, 1.0f);
  const SurfaceMesh mesh = marching_cubes(ExecSpace(), grid, values.data(), 2.0f);
  EXPECT_TRUE(mesh.positions.empty());
  EXPECT_TRUE(mesh.triangles.empty());
}

TEST(MarchingCubes, CaseTableIsComplementSymmetricInCountsAndBounded) {
  const auto& t = kmol::surface::cube_table();
  EXPECT_EQ(t.triangles[0], 0);
  EXPECT_EQ(t.triangles[255], 0);
  for (int c = 1; c < 255; ++c) {
    EXPECT_GT(t.triangles[std::size_t(c)], 0) << "case " << c;
    EXPECT_LE(t.triangles[std::size_t(c)], kmol::surface::max_cube_triangles);
  }
  EXPECT_EQ(t.triangles[1], 1);     // one corner: one triangle
  EXPECT_EQ(t.triangles[0x0f], 2);  // a face's four corners: a quad
}

TEST(MarchingCubes, RejectsFlatGrids) {
  const std::vector<float> values(8, 0.0f);
  EXPECT_THROW(marching_cubes(Kokkos::DefaultHostExecutionSpace(),
                              Grid{{0, 0, 0}, {1, 1, 1}, {8, 1, 1}}, values.data(), 0.5f),
               InputError);
  EXPECT_THROW(marching_cubes(Kokkos::DefaultHostExecutionSpace(),
                              Grid{{0, 0, 0}, {1, 0, 1}, {2, 2, 2}}, values.data(), 0.5f),
               InputError);
}

}  // namespace
