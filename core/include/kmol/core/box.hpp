#pragma once
// Periodic boxes and the minimum-image displacement.
//
// Why wrapping in fractional coordinates is exact here: a displacement d of length |d| has
// fractional coordinate |f_i| = |d . n_i| / h_i <= |d| / h_i, where h_i is the cell height
// across face pair i. If the shortest image has length <= r_in = min_i h_i / 2 (the radius of the
// largest sphere inside the cell), all its |f_i| <= 1/2, so it is the image with every f_i
// wrapped into [-1/2, 1/2). Rounding can push a coordinate that is within a few ulps of +-1/2 to
// the wrong side, so those rare cases also try the image across that face. Reducing the cell first
// (shortest, most orthogonal edge vectors of the same lattice) makes r_in as large as it can be.
#include <string>

#include "kmol/core/vec3.hpp"

namespace kmol {

enum class BoxKind { none, orthorhombic, triclinic };

std::string to_string(BoxKind kind);

// The box as the user gives it: three edge vectors (rows), in double precision.
struct BoxSpec {
  BoxKind kind = BoxKind::none;
  Vec3<double> edges[3] = {};

  static BoxSpec none() { return {}; }
  static BoxSpec orthorhombic(double lx, double ly, double lz);
  static BoxSpec triclinic(Vec3<double> a, Vec3<double> b, Vec3<double> c);
};

// Checks a box and brings it into the form the kernels use: throws InputError for degenerate or
// non-finite boxes, naming `file` where the box came from one. Triclinic cells come back reduced
// (same lattice, shortest edges).
BoxSpec validated(const BoxSpec& box, const std::string& file = "");

// Half the smallest distance between opposite faces; infinite for no box. The displacement
// functors below find the shortest image of every pair closer than this.
double inscribed_radius(const BoxSpec& box);

// The shortest non-zero vector of the box's lattice (of a validated box), found by trying every
// combination n of the edges that can be shorter than the shortest edge (|n_i| <= edge / height_i).
Vec3<double> shortest_lattice_vector(const BoxSpec& box);

// Half its length: the radius of the sphere inside the Wigner-Seitz cell, the largest r_max at
// which every pair has at most one image within r_max (the minimum-image convention's limit).
// At least inscribed_radius; 20 A for a rhombic dodecahedron of 40 A where the latter is 14.1 A.
// Infinite for no box.
double minimum_image_radius(const BoxSpec& box);

// The distance between opposite faces of edge i's pair: |volume| / |e_{i+1} x e_{i+2}|.
double face_height(const BoxSpec& box, int i);

double volume(const BoxSpec& box);

// Displacement functors, one per box kind, all trivially copyable onto devices.
// Each functor also has wrapped(d, settled): the minimum image without data-dependent branches,
// so that CPU loops vectorise. When `settled` comes back false (a wrapped coordinate within
// rounding of a face), the caller must use minimum_image for that pair; otherwise both agree.
template <class T>
struct NoBox {
  KMOL_INLINE Vec3<T> minimum_image(Vec3<T> d) const { return d; }
  KMOL_INLINE Vec3<T> wrapped(Vec3<T> d, bool& settled) const {
    settled = true;
    return d;
  }
};

template <class T>
struct OrthorhombicBox {
  Vec3<T> length, inverse;

  explicit OrthorhombicBox(const BoxSpec& box);

  KMOL_INLINE static T wrap(T d, T l, T inv) {
    return math::fma(-math::floor(math::fma(d, inv, T(0.5))), l, d);
  }
  KMOL_INLINE Vec3<T> minimum_image(Vec3<T> d) const {
    return {wrap(d.x, length.x, inverse.x), wrap(d.y, length.y, inverse.y),
            wrap(d.z, length.z, inverse.z)};
  }
  KMOL_INLINE Vec3<T> wrapped(Vec3<T> d, bool& settled) const {
    settled = true;
    return minimum_image(d);
  }
};

template <class T>
struct TriclinicBox {
  Vec3<T> edge[3];        // reduced edge vectors
  Vec3<T> reciprocal[3];  // f_i = reciprocal[i] . d
  T face_guard;           // how close to +-1/2 a wrapped coordinate must be to try the other side

  explicit TriclinicBox(const BoxSpec& box);

  KMOL_INLINE Vec3<T> minimum_image(Vec3<T> d) const {
    T f[3];
    bool settled;
    d = wrap_fractions(d, f, settled);
    return settled ? d : shortest_across_faces(d, f);
  }
  KMOL_INLINE Vec3<T> wrapped(Vec3<T> d, bool& settled) const {
    T f[3];
    return wrap_fractions(d, f, settled);
  }

 private:
  // Wraps each fractional coordinate f into [-1/2, 1/2); unsettled if one is near +-1/2.
  KMOL_INLINE Vec3<T> wrap_fractions(Vec3<T> d, T* f, bool& settled) const {
    bool near_face = false;
    for (int i = 0; i < 3; ++i) {
      const T s = dot(reciprocal[i], d);
      const T n = math::floor(s + T(0.5));
      f[i] = s - n;
      d = d - n * edge[i];
      near_face |= (f[i] > T(0.5) - face_guard) | (f[i] < face_guard - T(0.5));
    }
    settled = !near_face;
    return d;
  }

  // Tries the images one edge further on the side each wrapped coordinate leans to.
  KMOL_INLINE Vec3<T> shortest_across_faces(Vec3<T> d, const T* f) const {
    Vec3<T> best = d;
    T best_r2 = norm2(d);
    for (int mask = 1; mask < 8; ++mask) {
      Vec3<T> c = d;
      for (int i = 0; i < 3; ++i)
        if (mask & (1 << i)) c = f[i] >= T(0) ? c - edge[i] : c + edge[i];
      const T r2 = norm2(c);
      if (r2 < best_r2) {
        best = c;
        best_r2 = r2;
      }
    }
    return best;
  }
};

// Calls f with the displacement functor matching the box's kind, in precision T.
template <class T, class F>
decltype(auto) visit_box(const BoxSpec& box, F&& f) {
  switch (box.kind) {
    case BoxKind::orthorhombic:
      return f(OrthorhombicBox<T>(box));
    case BoxKind::triclinic:
      return f(TriclinicBox<T>(box));
    case BoxKind::none:
      break;
  }
  return f(NoBox<T>{});
}

}  // namespace kmol
