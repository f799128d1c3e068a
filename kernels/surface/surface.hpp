#pragma once
// Isosurfaces of any scalar map on a regular lattice (densities, potentials, orbitals) by
// marching cubes, and what is measured and written from them.
//
//   kmol::Grid grid{origin, {h, h, h}, {nx, ny, nz}};   // values i fastest
//   kmol::SurfaceMesh mesh = kmol::marching_cubes(Kokkos::DefaultExecutionSpace(), grid, values,
//   0.5f); kmol::MeshMeasures m = kmol::measure_mesh(mesh);   // area, enclosed volume
//   kmol::write_ply("surface.ply", mesh);
//
// The surface separates values above the iso value (inside) from values below. Each vertex lies on
// a lattice edge and is shared by every triangle touching that edge, so a surface that does not
// reach the lattice's boundary is closed. Normals are the normalised negative field gradient
// (central differences, interpolated along the edge): they point outward, towards lower values.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "kmol/core/io/opendx.hpp"
#include "kmol/core/vec3.hpp"

namespace kmol {

// Every point owns at most 3 vertices and 5 triangles' worth of cells; indices are 32-bit.
constexpr std::int64_t max_surface_points = (std::int64_t(1) << 31) / 3;

struct SurfaceMesh {
  std::vector<Vec3<float>> positions;  // Angstrom (the grid's units)
  std::vector<Vec3<float>> normals;    // unit length; zero where the gradient vanishes
  std::vector<std::array<std::int32_t, 3>> triangles;  // counter-clockwise seen from outside
};

// ExecSpace: Kokkos::Serial, Kokkos::OpenMP or Kokkos::Cuda. `values` is a host array of
// grid.counts[0] * counts[1] * counts[2] values, or, resident, an array in the execution space's
// memory (a Kokkos application's View: views.hpp), read where it is. Throws InputError for a grid
// with fewer than two points along an axis, non-positive spacing, or more than 2^31 - 1 vertices
// or triangles.
template <class ExecSpace>
SurfaceMesh marching_cubes(const ExecSpace& space, const Grid& grid, const float* values, float iso,
                           bool resident = false);

struct MeshMeasures {
  double area = 0;    // Angstrom^2
  double volume = 0;  // Angstrom^3 enclosed (divergence theorem; exact for a closed mesh)
};
MeshMeasures measure_mesh(const SurfaceMesh& mesh);

// Edges used by other than exactly two triangles (0 for a closed, manifold mesh).
std::int64_t open_edges(const SurfaceMesh& mesh);

// Why a mesh describes nothing ("has no triangles", "has 8 triangles of zero area", a non-finite
// area or volume, a closed surface enclosing no volume), or "" for a surface. Front ends refuse
// such a mesh unless asked to accept it (kmol surf --allow-empty).
std::string mesh_fault(const SurfaceMesh& mesh, const MeshMeasures& measures,
                       std::int64_t open_edges);

// Binary little-endian PLY (positions, normals, faces) and Wavefront OBJ (v, vn, f), written to a
// temporary file renamed at the end. Throw InputError naming the path (and `option`, the name
// the front end gave it) if it cannot be written.
void write_ply(const std::string& path, const SurfaceMesh& mesh,
               const std::string& option = "--mesh");
void write_obj(const std::string& path, const SurfaceMesh& mesh,
               const std::string& option = "--mesh");

}  // namespace kmol
