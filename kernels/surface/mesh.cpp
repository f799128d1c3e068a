#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <unordered_map>
#include <utility>

#include "kernels/surface/surface.hpp"
#include "kmol/core/errors.hpp"
#include "kmol/core/stop.hpp"

namespace kmol {
namespace {

Vec3<double> at(const SurfaceMesh& mesh, std::int32_t v) {
  return mesh.positions[std::size_t(v)].cast<double>();
}

}  // namespace

void validate_surface_grid(const Grid& grid) {
  const char* axes = "xyz";
  for (int a = 0; a < 3; ++a) {
    if (grid.counts[std::size_t(a)] < 2)
      throw InputError({"", std::string("counts ") + axes[a], -1},
                       "a map needs at least 2 points along each axis");
    if (!(grid.spacing[std::size_t(a)] > 0))
      throw InputError({"", std::string("spacing ") + axes[a], -1}, "must be positive");
  }
  if (grid.counts[0] * grid.counts[1] * grid.counts[2] > max_surface_points)
    throw InputError({"", "counts", -1},
                     "the map has too many points for 32-bit mesh indices (at most 715 million)");
}

MeshMeasures measure_mesh(const SurfaceMesh& mesh) {
  // Volumes relative to the mesh's first vertex keep the digits of maps far from the origin.
  MeshMeasures m;
  if (mesh.triangles.empty()) return m;
  const Vec3<double> ref = at(mesh, 0);
  for (const auto& t : mesh.triangles) {
    const Vec3<double> a = at(mesh, t[0]) - ref, b = at(mesh, t[1]) - ref, c = at(mesh, t[2]) - ref;
    const Vec3<double> n = cross(b - a, c - a);
    m.area += 0.5 * std::sqrt(dot(n, n));
    m.volume += dot(a, cross(b, c)) / 6.0;
  }
  return m;
}

std::string mesh_fault(const SurfaceMesh& mesh, const MeshMeasures& m, std::int64_t open) {
  if (mesh.triangles.empty()) return "has no triangles";
  char text[96];
  if (!std::isfinite(m.area) || !std::isfinite(m.volume)) {
    std::snprintf(text, sizeof text, "has a non-finite area or volume (%g, %g)", m.area, m.volume);
    return text;
  }
  if (!(m.area > 0))
    return "has " + std::to_string(mesh.triangles.size()) + " triangles of zero area";
  // A closed surface encloses at least a lattice cell's worth of its area, far above rounding.
  if (open == 0 && !(std::abs(m.volume) > 1e-9 * std::pow(m.area, 1.5))) {
    std::snprintf(text, sizeof text, "is closed but encloses no volume (%g A^3)", m.volume);
    return text;
  }
  return "";
}

std::int64_t open_edges(const SurfaceMesh& mesh) {
  std::unordered_map<std::uint64_t, int> uses;
  uses.reserve(mesh.triangles.size() * 2);
  for (const auto& t : mesh.triangles)
    for (int e = 0; e < 3; ++e) {
      const std::uint32_t a = std::uint32_t(t[std::size_t(e)]),
                          b = std::uint32_t(t[std::size_t((e + 1) % 3)]);
      ++uses[(std::uint64_t(std::min(a, b)) << 32) | std::max(a, b)];
    }
  return std::count_if(uses.begin(), uses.end(), [](const auto& kv) { return kv.second != 2; });
}

void write_ply(const std::string& path, const SurfaceMesh& mesh, const std::string& option) {
  TemporaryFile output(path, option);
  TemporaryFile::Stream f = output.open("wb");
  std::fprintf(f.get(),
               "ply\nformat binary_little_endian 1.0\ncomment kmol isosurface\nelement vertex %zu\n"
               "property float x\nproperty float y\nproperty float z\n"
               "property float nx\nproperty float ny\nproperty float nz\n"
               "element face %zu\nproperty list uchar int vertex_indices\nend_header\n",
               mesh.positions.size(), mesh.triangles.size());
  for (std::size_t v = 0; v < mesh.positions.size(); ++v) {  // x86 and CUDA hosts are little-endian
    const float record[6] = {mesh.positions[v].x, mesh.positions[v].y, mesh.positions[v].z,
                             mesh.normals[v].x,   mesh.normals[v].y,   mesh.normals[v].z};
    std::fwrite(record, sizeof(float), 6, f.get());
  }
  for (const auto& t : mesh.triangles) {
    const unsigned char three = 3;
    std::fwrite(&three, 1, 1, f.get());
    std::fwrite(t.data(), sizeof(std::int32_t), 3, f.get());
  }
  output.commit(std::move(f), "mesh");
}

void write_obj(const std::string& path, const SurfaceMesh& mesh, const std::string& option) {
  TemporaryFile output(path, option);
  TemporaryFile::Stream f = output.open("w");
  std::fprintf(f.get(), "# kmol isosurface: %zu vertices, %zu triangles\n", mesh.positions.size(),
               mesh.triangles.size());
  for (const auto& p : mesh.positions) std::fprintf(f.get(), "v %.6g %.6g %.6g\n", p.x, p.y, p.z);
  for (const auto& n : mesh.normals) std::fprintf(f.get(), "vn %.6g %.6g %.6g\n", n.x, n.y, n.z);
  for (const auto& t : mesh.triangles)  // OBJ counts from 1
    std::fprintf(f.get(), "f %d//%d %d//%d %d//%d\n", t[0] + 1, t[0] + 1, t[1] + 1, t[1] + 1,
                 t[2] + 1, t[2] + 1);
  output.commit(std::move(f), "mesh");
}

}  // namespace kmol
