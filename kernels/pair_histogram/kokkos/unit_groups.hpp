#pragma once
// The portable engine's GPU work units (unit_reach.hpp): a set put in Morton order, so that
// consecutive atoms lie close together, and the bounds of each group of consecutive atoms.
#include <Kokkos_Core.hpp>
#include <Kokkos_Sort.hpp>

#include <cstdint>
#include <string>

#include "kernels/pair_histogram/unit_reach.hpp"
#include "kmol/core/vec3.hpp"

namespace kmol::detail {

// The least and greatest coordinate of every point along each axis.
template <class ExecSpace, class Points, class T>
void coordinate_range(const ExecSpace& space, const Points& p, T lo[3], T hi[3]) {
  for (int axis = 0; axis < 3; ++axis) {
    Kokkos::MinMaxScalar<T> range;
    Kokkos::parallel_reduce(
        "kmol::pair_histogram::extent",
        Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space, 0,
                                                                        std::int64_t(p.extent(0))),
        KOKKOS_LAMBDA(std::int64_t i, Kokkos::MinMaxScalar<T> & r) {
          const T x = axis == 0 ? p(i).x : axis == 1 ? p(i).y : p(i).z;
          r.min_val = x < r.min_val ? x : r.min_val;
          r.max_val = x > r.max_val ? x : r.max_val;
        },
        Kokkos::MinMax<T>(range));
    lo[axis] = range.min_val;
    hi[axis] = range.max_val;
  }
}

// Bits 0..9 of v to bits 0, 3, .., 27.
KOKKOS_INLINE_FUNCTION std::uint32_t spread_bits(std::uint32_t v) {
  v &= 0x3FFu;
  v = (v | v << 16) & 0x030000FFu;
  v = (v | v << 8) & 0x0300F00Fu;
  v = (v | v << 4) & 0x030C30C3u;
  return (v | v << 2) & 0x09249249u;
}

// The points in Morton order of the cells of a grid over their bounding box, about four points
// a cell (within a cell in any order: the order only makes groups small, counts do not depend
// on it). Kokkos' bin sort orders them on the execution space's default instance, so the
// caller's instance is fenced before and after.
template <class ExecSpace, class T>
Kokkos::View<const Vec3<T>*, typename ExecSpace::memory_space> morton_ordered(
    const ExecSpace& space,
    const Kokkos::View<const Vec3<T>*, typename ExecSpace::memory_space>& p) {
  using Memory = typename ExecSpace::memory_space;
  using Keys = Kokkos::View<std::uint32_t*, Memory>;
  const std::int64_t n = std::int64_t(p.extent(0));
  T lo[3], hi[3];
  coordinate_range(space, p, lo, hi);
  int bits = 1;
  while (bits < 10 && (std::int64_t(4) << (3 * bits)) < n) ++bits;
  const std::uint32_t per_axis = 1u << bits, cells = 1u << (3 * bits);
  Vec3<T> origin{lo[0], lo[1], lo[2]}, scale{};
  T* scales[3] = {&scale.x, &scale.y, &scale.z};
  for (int d = 0; d < 3; ++d) *scales[d] = hi[d] > lo[d] ? T(per_axis) / (hi[d] - lo[d]) : T(0);

  Keys keys(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kmol::pair_histogram::morton_keys"),
            n);
  Kokkos::parallel_for(
      "kmol::pair_histogram::morton_keys",
      Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space, 0, n),
      KOKKOS_LAMBDA(std::int64_t i) {
        const Vec3<T> c = p(i);
        const T f[3] = {(c.x - origin.x) * scale.x, (c.y - origin.y) * scale.y,
                        (c.z - origin.z) * scale.z};
        std::uint32_t key = 0;
        for (int d = 0; d < 3; ++d) {
          const std::uint32_t q = f[d] > T(0) ? std::uint32_t(f[d]) : 0u;
          key |= spread_bits(q < per_axis ? q : per_axis - 1) << d;
        }
        keys(i) = key;
      });
  space.fence();
  using Bins = Kokkos::BinOp1D<Keys>;
  Kokkos::BinSort<Keys, Bins> sorter(keys, Bins(int(cells), 0u, cells), false);
  sorter.create_permute_vector();
  const auto order = sorter.get_permute_vector();
  ExecSpace().fence();

  Kokkos::View<Vec3<T>*, Memory> sorted(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "kmol::pair_histogram::morton_ordered"), n);
  Kokkos::parallel_for(
      "kmol::pair_histogram::morton_gather",
      Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space, 0, n),
      KOKKOS_LAMBDA(std::int64_t i) { sorted(i) = p(order(i)); });
  return sorted;
}

// The bounds of each group of `group` consecutive points; a last group with fewer points gets
// bounds that prove nothing where `short_unknown` (its missing points stand at infinity).
template <class ExecSpace, class T>
Kokkos::View<const unit_reach::Bounds*, typename ExecSpace::memory_space> group_bounds(
    const ExecSpace& space, const Kokkos::View<const Vec3<T>*, typename ExecSpace::memory_space>& p,
    std::int64_t group, bool short_unknown, const char* label) {
  const std::int64_t n = std::int64_t(p.extent(0)), n_groups = (n + group - 1) / group;
  Kokkos::View<unit_reach::Bounds*, typename ExecSpace::memory_space> bounds(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label)), n_groups);
  Kokkos::parallel_for(
      label, Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space, 0, n_groups),
      KOKKOS_LAMBDA(std::int64_t g) {
        const std::int64_t begin = g * group, end = begin + group < n ? begin + group : n;
        if (short_unknown && end - begin < group) {
          bounds(g) = unit_reach::unknown();
          return;
        }
        float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
        for (std::int64_t i = begin; i < end; ++i) {
          const Vec3<T> c = p(i);
          const float f[3] = {float(c.x), float(c.y), float(c.z)};
          for (int d = 0; d < 3; ++d) {
            lo[d] = math::min(lo[d], f[d]);
            hi[d] = math::max(hi[d], f[d]);
          }
        }
        bounds(g) = unit_reach::from_extremes(lo, hi);
      });
  return bounds;
}

}  // namespace kmol::detail
