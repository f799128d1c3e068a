#include "kmol/core/box.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "kmol/core/cell.hpp"
#include "kmol/core/errors.hpp"
#include "kmol/core/names.hpp"

namespace kmol {
namespace {

constexpr Named<BoxKind> box_kind_names[] = {{BoxKind::none, "none"},
                                             {BoxKind::orthorhombic, "orthorhombic"},
                                             {BoxKind::triclinic, "triclinic"}};

double triple(const Vec3<double>* e) { return dot(e[0], cross(e[1], e[2])); }

double height(const Vec3<double>* e, int i) {
  const Vec3<double> n = cross(e[(i + 1) % 3], e[(i + 2) % 3]);
  return std::abs(triple(e)) / std::sqrt(norm2(n));
}

// Replaces an edge by a shorter vector of the same lattice until none gets shorter. Each round
// shortens an edge by at most two of the others, so a cell skewed by a factor k takes about k
// rounds: simulation boxes take a few, and far more means a damaged box, refused rather than
// reduced for minutes.
void reduce(Vec3<double>* e) {
  constexpr int most_rounds = 1000;
  for (int round = 0, improved = 1; improved; ++round) {
    if (round == most_rounds)
      throw InputError({"", "box", -1}, "triclinic edge vectors too skewed to reduce (more than " +
                                            std::to_string(most_rounds) +
                                            " rounds): is the box damaged?");
    improved = 0;
    for (int i = 0; i < 3; ++i) {
      const Vec3<double> u = e[(i + 1) % 3], v = e[(i + 2) % 3];
      for (int p = -2; p <= 2; ++p)
        for (int q = -2; q <= 2; ++q) {
          const Vec3<double> c = e[i] + double(p) * u + double(q) * v;
          if (norm2(c) < norm2(e[i]) * (1 - 1e-12)) {
            e[i] = c;
            improved = 1;
          }
        }
    }
  }
}

// Edges outside these bounds are damaged or in another unit, never a simulation cell: below the
// shortest every distance wraps to rounding noise (a subnormal edge gives NaN counts), and the
// longest is a centimetre.
constexpr double shortest_edge = 1e-3, longest_edge = 1e8;  // Angstrom

void require_sane_length(double length, const ErrorContext& where) {
  if (!(length >= shortest_edge) || !(length <= longest_edge)) {
    char text[160];
    std::snprintf(text, sizeof text,
                  "an edge of length %.3g Angstrom: expected between %g and %g (a damaged box, or "
                  "one in another unit?)",
                  length, shortest_edge, longest_edge);
    throw InputError(where, text);
  }
}

}  // namespace

std::string to_string(BoxKind kind) { return name_of(box_kind_names, kind); }

BoxSpec BoxSpec::orthorhombic(double lx, double ly, double lz) {
  BoxSpec box;
  box.kind = BoxKind::orthorhombic;
  box.edges[0] = {lx, 0, 0};
  box.edges[1] = {0, ly, 0};
  box.edges[2] = {0, 0, lz};
  return box;
}

BoxSpec BoxSpec::triclinic(Vec3<double> a, Vec3<double> b, Vec3<double> c) {
  BoxSpec box;
  box.kind = BoxKind::triclinic;
  box.edges[0] = a;
  box.edges[1] = b;
  box.edges[2] = c;
  return box;
}

BoxSpec box_from_cell(double a, double b, double c, double alpha, double beta, double gamma) {
  if (alpha == 90 && beta == 90 && gamma == 90) return BoxSpec::orthorhombic(a, b, c);
  const double radian = M_PI / 180;
  const double ca = std::cos(alpha * radian), cb = std::cos(beta * radian);
  const double cg = std::cos(gamma * radian), sg = std::sin(gamma * radian);
  const double cx = c * cb, cy = c * (ca - cb * cg) / sg;
  const double cz2 = c * c - cx * cx - cy * cy;
  if (!(cz2 > 0))
    throw InputError({"", "box", -1}, "cell angles " + std::to_string(alpha) + ", " +
                                          std::to_string(beta) + ", " + std::to_string(gamma) +
                                          " make no cell with volume");
  return BoxSpec::triclinic({a, 0, 0}, {b * cg, b * sg, 0}, {cx, cy, std::sqrt(cz2)});
}

BoxSpec validated(const BoxSpec& box, const std::string& file) {
  if (box.kind == BoxKind::none) return box;
  const ErrorContext where{file, "box", -1};
  for (const auto& e : box.edges)
    if (!std::isfinite(e.x) || !std::isfinite(e.y) || !std::isfinite(e.z))
      throw InputError(where, "edge vectors must be finite numbers");
  BoxSpec out = box;
  if (box.kind == BoxKind::orthorhombic) {
    const double l[3] = {box.edges[0].x, box.edges[1].y, box.edges[2].z};
    for (double li : l)
      if (!(li > 0)) throw InputError(where, "orthorhombic edge lengths must be positive");
  }
  for (const auto& e : box.edges) require_sane_length(std::hypot(e.x, e.y, e.z), where);
  if (box.kind == BoxKind::orthorhombic) return out;
  const double v = std::abs(triple(box.edges));
  const double scale = std::sqrt(norm2(box.edges[0]) * norm2(box.edges[1]) * norm2(box.edges[2]));
  if (!(v > 1e-9 * scale))
    throw InputError(where, "triclinic edge vectors are (nearly) coplanar: the cell has no volume");
  reduce(out.edges);
  return out;
}

double inscribed_radius(const BoxSpec& box) {
  if (box.kind == BoxKind::none) return std::numeric_limits<double>::infinity();
  return 0.5 * std::min({height(box.edges, 0), height(box.edges, 1), height(box.edges, 2)});
}

double face_height(const BoxSpec& box, int i) { return height(box.edges, i); }

Vec3<double> shortest_lattice_vector(const BoxSpec& box) {
  const Vec3<double>* e = box.edges;
  Vec3<double> best = e[0];
  for (int i = 1; i < 3; ++i)
    if (norm2(e[i]) < norm2(best)) best = e[i];
  // A vector no longer than `best` has |n_i| = |v . (e_j x e_k)| / |V| <= |best| / height_i.
  int reach[3];
  for (int i = 0; i < 3; ++i) reach[i] = int(std::floor(std::sqrt(norm2(best)) / height(e, i)));
  for (int p = -reach[0]; p <= reach[0]; ++p)
    for (int q = -reach[1]; q <= reach[1]; ++q)
      for (int r = -reach[2]; r <= reach[2]; ++r) {
        if (p == 0 && q == 0 && r == 0) continue;
        const Vec3<double> v = double(p) * e[0] + double(q) * e[1] + double(r) * e[2];
        if (norm2(v) < norm2(best)) best = v;
      }
  return best;
}

double minimum_image_radius(const BoxSpec& box) {
  if (box.kind == BoxKind::none) return std::numeric_limits<double>::infinity();
  return 0.5 * std::sqrt(norm2(shortest_lattice_vector(box)));
}

double volume(const BoxSpec& box) {
  return box.kind == BoxKind::none ? std::numeric_limits<double>::infinity()
                                   : std::abs(triple(box.edges));
}

template <class T>
OrthorhombicBox<T>::OrthorhombicBox(const BoxSpec& box)
    : length{T(box.edges[0].x), T(box.edges[1].y), T(box.edges[2].z)},
      inverse{T(1 / box.edges[0].x), T(1 / box.edges[1].y), T(1 / box.edges[2].z)} {}

template <class T>
TriclinicBox<T>::TriclinicBox(const BoxSpec& box)
    : face_guard(T(64) * std::numeric_limits<T>::epsilon()) {
  const BoxSpec reduced = validated(box);
  const double v = triple(reduced.edges);
  for (int i = 0; i < 3; ++i) {
    edge[i] = reduced.edges[i].cast<T>();
    reciprocal[i] =
        ((1 / v) * cross(reduced.edges[(i + 1) % 3], reduced.edges[(i + 2) % 3])).cast<T>();
  }
}

template struct OrthorhombicBox<float>;
template struct OrthorhombicBox<double>;
template struct TriclinicBox<float>;
template struct TriclinicBox<double>;

}  // namespace kmol
