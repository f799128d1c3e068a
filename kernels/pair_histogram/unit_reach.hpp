#pragma once
// Which pairs of two groups of atoms can count in a window of distances, from the groups'
// bounding boxes, and how an orthorhombic box's minimum image can be taken for all of them at
// once. GPU kernels put both sets in Morton order, so that consecutive atoms lie close together,
// and pair groups of them (work units): a unit that no pair of can reach the window is skipped,
// one whose every pair must lie in it counts without range tests, and in an orthorhombic box a
// unit whose pairs all wrap alike takes one shift per axis instead of a floor per pair. The raw
// CUDA kernel and the portable engine on GPUs share these rules. Kokkos-free.
#include <cmath>
#include <type_traits>

#include "kernels/pair_histogram/fast_binning.hpp"
#include "kmol/core/box.hpp"
#include "kmol/core/math.hpp"

namespace kmol::unit_reach {

// A group's bounding box as centre and half extents, in float: it only sorts work, with slack
// for rounding.
struct Bounds {
  float centre[3], half[3];
};

// Bounds from least and greatest coordinates.
KMOL_INLINE Bounds from_extremes(const float* lo, const float* hi) {
  Bounds bounds;
  for (int d = 0; d < 3; ++d) {
    bounds.centre[d] = 0.5f * (lo[d] + hi[d]);
    bounds.half[d] = 0.5f * (hi[d] - lo[d]);
  }
  return bounds;
}

// Bounds that prove nothing (a group with missing atoms): every unit with it is checked pair by
// pair and wrapped exactly.
KMOL_INLINE Bounds unknown() { return {{0.0f, 0.0f, 0.0f}, {INFINITY, INFINITY, INFINITY}}; }

template <class T>
KMOL_INLINE T magnitude(T x) {
  return x < T(0) ? -x : x;
}

// Bounds |x|, |y|, |z| of every atom in the group.
KMOL_INLINE float extent(const Bounds& g) {
  float e = 0;
  for (int d = 0; d < 3; ++d) e = math::max(e, magnitude(g.centre[d]) + g.half[d]);
  return e;
}

// What a unit's pairs are measured against: a window [r_min, r_max) of distances, the longest
// box edge (0 without a box) and, in orthorhombic boxes, 2^20 shortest box edges (atoms closer
// to 0 than that wrap with small_floor).
template <class T>
struct Window {
  T r_min{}, r_max{}, box_extent{};
  float small_floor_bound{};
};

// A window without its distances: the box's longest edge and small_floor's bound.
template <class T>
inline Window<T> box_limits(const BoxSpec& box) {
  Window<T> w;
  double longest = 0;
  if (box.kind != BoxKind::none)
    for (const Vec3<double>& e : box.edges) longest = math::max(longest, std::sqrt(norm2(e)));
  w.box_extent = T(longest);
  if (box.kind == BoxKind::orthorhombic)
    w.small_floor_bound =
        float(0x1p20 * math::min(box.edges[0].x, math::min(box.edges[1].y, box.edges[2].z)));
  return w;
}

// 2^-12 of every length the pairs of two groups involve: it covers the rounding of coordinates,
// displacements and bounds many times over.
template <class T>
KMOL_INLINE T slack(const Window<T>& w, const Bounds& a, const Bounds& b) {
  T lengths = w.r_max + w.box_extent;
  for (int d = 0; d < 3; ++d)
    lengths += magnitude(T(a.centre[d])) + magnitude(T(b.centre[d])) + T(a.half[d]) + T(b.half[d]);
  return T(0x1p-12) * lengths;
}

enum class Reach { none, all, some };

// On each axis a pair's minimum-image distance lies within the sum of the half extents of the
// distance between the centres (the torus distance is 1-Lipschitz). Triclinic minimum images are
// exact only within the inscribed radius, so those units are always checked. `nearest`, where
// given, receives a lower bound of every pair's distance (0 where none is proven).
template <class T, class Box>
KMOL_INLINE Reach reach(const Box& box, const Window<T>& w, const Bounds& a, const Bounds& b,
                        T* nearest_pair = nullptr) {
  if constexpr (std::is_same_v<Box, TriclinicBox<T>>) {
    if (nearest_pair) *nearest_pair = T(0);
    return Reach::some;
  } else {
    const T margin = slack(w, a, b);
    const Vec3<T> c =
        box.minimum_image(Vec3<T>{T(b.centre[0]) - T(a.centre[0]), T(b.centre[1]) - T(a.centre[1]),
                                  T(b.centre[2]) - T(a.centre[2])});
    const T centres[3] = {magnitude(c.x), magnitude(c.y), magnitude(c.z)};
    T nearest2 = 0, farthest2 = 0;
    for (int d = 0; d < 3; ++d) {
      const T spread = T(a.half[d]) + T(b.half[d]) + margin;
      const T near = math::max(centres[d] - spread, T(0)), far = centres[d] + spread;
      nearest2 += near * near;
      farthest2 += far * far;
    }
    const T nearest = math::sqrt(nearest2), farthest = math::sqrt(farthest2);
    if (nearest_pair) *nearest_pair = nearest;
    // Comparisons false for NaN (unknown bounds) fall through to some.
    if (nearest >= w.r_max || farthest < w.r_min) return Reach::none;
    if (farthest < w.r_max && (w.r_min <= 0 || nearest >= w.r_min)) return Reach::all;
    return Reach::some;
  }
}

// floor(x) for |x| < 2^22 (float; 2^51 double) by a rounding-mode addition: the floor
// instruction runs on the GPUs' quarter-rate conversion unit.
template <class T>
KMOL_INLINE T small_floor(T x) {
  return fast_binning::floor_plus_magic(x) -
         (sizeof(T) == sizeof(float) ? T(0x1.8p23) : T(0x1.8p52));
}

// How a unit takes minimum images in an orthorhombic box: as box.minimum_image does; with
// small_floor (the unit's bounds keep |d| below small_floor_bound); or, where the bounds show that
// every pair's floor(fma(d, 1/L, 1/2)) is the same on each axis, with that shift (the wrap's own
// last step). All three give box.minimum_image's value bit for bit.
enum class Wrap { exact, small, shift };

template <Wrap kWrap, class T, class Box>
KMOL_INLINE Vec3<T> image(const Box& box, Vec3<T> d, const Vec3<T>& shift) {
  if constexpr (kWrap == Wrap::exact || !std::is_same_v<Box, OrthorhombicBox<T>>) {
    return box.minimum_image(d);
  } else if constexpr (kWrap == Wrap::small) {
    const auto wrap = [](T x, T l, T inv) {
      return math::fma(-small_floor(math::fma(x, inv, T(0.5))), l, x);
    };
    return {wrap(d.x, box.length.x, box.inverse.x), wrap(d.y, box.length.y, box.inverse.y),
            wrap(d.z, box.length.z, box.inverse.z)};
  } else {
    return {math::fma(-shift.x, box.length.x, d.x), math::fma(-shift.y, box.length.y, d.y),
            math::fma(-shift.z, box.length.z, d.z)};
  }
}

// The shift of every pair of two groups on one axis, or NaN where pairs may differ: the wrap's
// floor at both ends of the range of b - a (widened by the slack; fma and floor are monotone).
template <class T>
KMOL_INLINE T common_shift(T centres, T spread, T inverse) {
  const T low = math::floor(math::fma(centres - spread, inverse, T(0.5)));
  const T high = math::floor(math::fma(centres + spread, inverse, T(0.5)));
  return low == high ? low : T(NAN);
}

// The cheapest exact wrap for a unit of groups a and b in box (orthorhombic: `shift` receives
// the common shift where the result is Wrap::shift).
template <class T, class Box>
KMOL_INLINE Wrap wrap_for(const Box& box, const Window<T>& w, const Bounds& a, const Bounds& b,
                          Vec3<T>& shift) {
  if constexpr (std::is_same_v<Box, OrthorhombicBox<T>>) {
    const T margin = slack(w, a, b);
    const T inverse[3] = {box.inverse.x, box.inverse.y, box.inverse.z};
    T n[3];
    for (int d = 0; d < 3; ++d)
      n[d] = common_shift(T(b.centre[d]) - T(a.centre[d]), T(a.half[d]) + T(b.half[d]) + margin,
                          inverse[d]);
    shift = {n[0], n[1], n[2]};
    if (n[0] == n[0] && n[1] == n[1] && n[2] == n[2]) return Wrap::shift;
    if (extent(a) + extent(b) < w.small_floor_bound) return Wrap::small;
  }
  return Wrap::exact;
}

}  // namespace kmol::unit_reach
