#include "kernels/pair_histogram/plane.hpp"

#include <cmath>
#include <cstdint>
#include <limits>

#include "kmol/core/errors.hpp"
#include "kmol/core/names.hpp"

namespace kmol {
namespace {

constexpr Named<Plane> plane_names[] = {
    {Plane::none, "none"}, {Plane::xy, "xy"}, {Plane::xz, "xz"}, {Plane::yz, "yz"}};

double along(const Vec3<double>& v, int axis) { return axis == 0 ? v.x : axis == 1 ? v.y : v.z; }

Vec3<double> axis_vector(int axis, double length) {
  return {axis == 0 ? length : 0, axis == 1 ? length : 0, axis == 2 ? length : 0};
}

// The indices of the box's two edges with no component along the normal.
void edges_in_plane(const BoxSpec& box, Plane plane, int* found) {
  const int normal = normal_axis(plane);
  int count = 0;
  for (int i = 0; i < 3; ++i) {
    const Vec3<double>& e = box.edges[i];
    if (std::abs(along(e, normal)) <= 1e-9 * std::sqrt(norm2(e)) && count < 3) found[count++] = i;
  }
  if (count != 2)
    throw InputError({"", "plane", -1},
                     to_string(plane) + " needs a box with two edges in the " + to_string(plane) +
                         " plane (the plane's periodic lattice); this box has " +
                         std::to_string(count) +
                         " (GROMACS boxes have their first two edges in the xy plane, so --plane "
                         "xy takes every one)");
}

}  // namespace

std::string to_string(Plane value) { return name_of(plane_names, value); }

Plane plane_from_string(const std::string& name) {
  return value_named(plane_names, name, "plane", "plane");
}

int normal_axis(Plane plane) { return plane == Plane::yz ? 0 : plane == Plane::xz ? 1 : 2; }

BoxSpec plane_box(const BoxSpec& box, Plane plane, double r_max) {
  if (box.kind == BoxKind::none || plane == Plane::none) return box;
  const int normal = normal_axis(plane);
  const Vec3<double> normal_edge = axis_vector(normal, 4 * r_max + 1);
  if (box.kind == BoxKind::orthorhombic) {
    BoxSpec out = box;
    out.edges[normal] = normal_edge;
    return out;
  }
  int in_plane[2];
  edges_in_plane(box, plane, in_plane);
  return BoxSpec::triclinic(box.edges[in_plane[0]], box.edges[in_plane[1]], normal_edge);
}

double plane_area(const BoxSpec& box, Plane plane) {
  if (box.kind == BoxKind::none) return std::numeric_limits<double>::infinity();
  if (box.kind == BoxKind::orthorhombic) {
    const double l[3] = {box.edges[0].x, box.edges[1].y, box.edges[2].z};
    const int normal = normal_axis(plane);
    return l[(normal + 1) % 3] * l[(normal + 2) % 3];
  }
  int in_plane[2];
  edges_in_plane(box, plane, in_plane);
  return std::sqrt(norm2(cross(box.edges[in_plane[0]], box.edges[in_plane[1]])));
}

double box_measure(const BoxSpec& box, Plane plane) {
  return plane == Plane::none ? volume(box) : plane_area(box, plane);
}

double plane_normal_coordinate(const BoxSpec& box, Plane plane) {
  if (box.kind == BoxKind::none) return 0;
  const int normal = normal_axis(plane);
  double length = 0;
  for (const auto& e : box.edges) length = std::max(length, std::abs(along(e, normal)));
  return 0.5 * length;
}

template <class T>
std::vector<Vec3<T>> projected(const Vec3<T>* xyz, std::int64_t n, Plane plane,
                               double normal_coordinate) {
  const int normal = normal_axis(plane);
  const T value = T(normal_coordinate);
  std::vector<Vec3<T>> out(xyz, xyz + n);
  for (auto& p : out) (normal == 0 ? p.x : normal == 1 ? p.y : p.z) = value;
  return out;
}

template std::vector<Vec3<float>> projected(const Vec3<float>*, std::int64_t, Plane, double);
template std::vector<Vec3<double>> projected(const Vec3<double>*, std::int64_t, Plane, double);

}  // namespace kmol
