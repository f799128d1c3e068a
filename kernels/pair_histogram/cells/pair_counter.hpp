#pragma once
// The pairs the cell path examines: an atom of A with the atoms of B in the cells around its own,
// each distance computed and binned exactly as the all-pairs implementations do.
#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "kernels/pair_histogram/cells/sorted_atoms.hpp"
#include "kernels/pair_histogram/fast_binning.hpp"
#include "kernels/pair_histogram/pair_labels.hpp"
#include "kernels/pair_histogram/slots.hpp"

namespace kmol {
namespace cells_detail {

// The cell kernels' compile-time options, named, in this order where several appear: Partner,
// Labels, Bins. How a partner's distance is taken: pair by pair through the minimum image, or
// with the partner's settled shift.
enum class Partner { minimum_image, shifted };
// How many histograms: one per label pair, or one (the labels are trivial).
enum class Labels { per_pair, one };
// How a distance is binned: its correctly rounded root, or fast_binning's root (GPUs).
enum class Bins { exact, fast };

template <auto V>
using Option = std::integral_constant<decltype(V), V>;

// Whether CPU compilers vectorise floor and selects: GCC only without trap semantics (as kmol
// builds), Clang by default.
#if defined(__NO_TRAPPING_MATH__) || defined(__clang__)
inline constexpr bool floor_vectorises = true;
#else
inline constexpr bool floor_vectorises = false;
#endif

// Exact distances for all partners beat the screen on CPU spaces wherever floor vectorises
// (2 cores, r_max 12, 240 bins; 10^6 atoms, orthorhombic: float 1.5 s against 4.5 s, double
// 2.6 against 6.6 s; 2 x 10^5 atoms, triclinic: float 0.37 against 0.44 s, double 0.63
// against 1.36 s). Devices screen (the atom-thread scheme), as do CPU builds with trap semantics.
template <class ExecSpace>
inline constexpr bool exact_for_all_partners = runs_on_host<ExecSpace>&& floor_vectorises;

// Index of the lowest set bit of a non-zero mask.
KOKKOS_INLINE_FUNCTION int lowest_set_bit(std::uint32_t mask) {
#ifdef __CUDA_ARCH__
  return __ffs(int(mask)) - 1;
#else
  return __builtin_ctz(mask);
#endif
}
// The screen, a cheap (and vectorisable) stand-in for pair_distance: two atoms' difference in
// wrapped fractional coordinates, each folded into [-1/2, 1/2], is their minimum image for every
// pair within the inscribed radius. Its length in T lies within the rounding margin of the distance
// pair_distance computes, so a pair whose bound is at or beyond (r_max + margin)^2 cannot count.
template <class T>
struct NearBound {
  Vec3<T> edge[3];
  T reach_squared;

  KOKKOS_INLINE_FUNCTION T squared_length(T f0, T f1, T f2) const {
    const T u = fold(f0), v = fold(f1), w = fold(f2);
    return norm2(Vec3<T>{math::fma(u, edge[0].x, math::fma(v, edge[1].x, w * edge[2].x)),
                         math::fma(u, edge[0].y, math::fma(v, edge[1].y, w * edge[2].y)),
                         math::fma(u, edge[0].z, math::fma(v, edge[1].z, w * edge[2].z))});
  }

  // nearbyint rather than floor or a select: compilers vectorise it with trap semantics too.
  KOKKOS_INLINE_FUNCTION static float fold(float f) { return f - ::nearbyintf(f); }
  KOKKOS_INLINE_FUNCTION static double fold(double f) { return f - ::nearbyint(f); }
};

template <class T>
NearBound<T> make_near_bound(const BoxSpec& box, double r_max, double margin) {
  return {{box.edges[0].cast<T>(), box.edges[1].cast<T>(), box.edges[2].cast<T>()},
          T((r_max + margin) * (r_max + margin))};
}
// Examines the partners of atoms of A: the atoms of B in the cells around theirs. OneSet: A and
// B are the same sorted atoms and only partners later in the sorted order are taken.
template <class ExecSpace, class T, class Box, bool OneSet>
struct PairCounter {
  Box box;
  // The binning rule; GPUs take its fast way (fast_binning.hpp) where it has one.
  SlotRule<T> bins;
  T cut_squared;  // no squared distance at or beyond it has a root below r_max
  NearBound<T> near;
  PairLabels labels;  // over sorted positions: A's labels, B's labels
  CellGrid grid;
  SortedAtoms<ExecSpace, T> a, b;
  T unit[2] = {T(-1), T(1)};  // the signs of b - a, by orientation

  static constexpr bool one_set = OneSet;

  static constexpr bool exact_for_all = exact_for_all_partners<ExecSpace>;

  // Calls sink(histogram * n_bins + bin) for each counted pair of atom p of A, a tile of
  // partners at a time: either every partner's exact distance in one vectorised loop, or a
  // vectorised screen that picks the partners that get it. With exact distances and one
  // histogram the other partners go to spare slots (slots.hpp), which the sink must hold.
  template <class Sink>
  KOKKOS_INLINE_FUNCTION void count_partners(std::int32_t p, const Sink& sink) const {
    const Vec3<T> xp = a.position(p);
    const Vec3<T> fp = exact_for_all ? Vec3<T>{} : Vec3<T>{a.fx(p), a.fy(p), a.fz(p)};
    const std::int32_t i = a.index(p);
    grid.for_each_neighbour_run(a.cell(p), [&](std::int32_t first_cell, std::int32_t end_cell) {
      const std::int32_t q = first_partner(p, first_cell), end = b.begin(end_cell);
      if constexpr (exact_for_all)
        exact_run(p, xp, i, q, end, sink);
      else
        screened_run(p, xp, fp, i, q, end, sink);
    });
  }

  // The sign where it is computed for many partners at once (vector blends, predicated lanes).
  KOKKOS_INLINE_FUNCTION T select_sign(std::int32_t i, std::int32_t j) const {
    return !OneSet || i < j ? T(1) : T(-1);
  }

  // Bins pair_distance's square r2, i.e. its correctly rounded root, if below r_max (the root is
  // taken only for squares below cut_squared).
  template <class Sink>
  KOKKOS_INLINE_FUNCTION void bin_pair(std::int32_t p, std::int32_t q, T r2,
                                       const Sink& sink) const {
    if (fast_bins())
      bin_pair_with<Labels::per_pair, Bins::fast>(p, q, r2, sink);
    else
      bin_pair_with<Labels::per_pair, Bins::exact>(p, q, r2, sink);
  }

  KOKKOS_INLINE_FUNCTION bool fast_bins() const { return !runs_on_host<ExecSpace> && bins.fast; }

  // bin_pair with the options known to the caller.
  template <Labels L, Bins B, class Sink>
  KOKKOS_INLINE_FUNCTION void bin_pair_with(std::int32_t p, std::int32_t q, T r2,
                                            const Sink& sink) const {
    std::int32_t bin;
    if constexpr (B == Bins::fast) {
      if (!bins.counts_fast(r2)) return;
      bin = bins.fast_bin(fast_binning::fast_root(r2));
    } else {
      if (!(r2 < cut_squared)) return;
      bin = bins.range.bin_of(math::sqrt(r2));
      if (bin < 0) return;
    }
    if constexpr (L == Labels::one) {
      sink(bin);
    } else {
      const std::int32_t h = labels.histogram_of(p, q);
      if (h >= 0) sink(std::int64_t(h) * bins.range.n_bins + bin);
    }
  }

 private:
  static constexpr int tile = 32;        // partners examined together: one bit each in a mask
  static constexpr int exact_tile = 64;  // partners binned per vectorised pass (32: 10% slower)

  KOKKOS_INLINE_FUNCTION std::int32_t first_partner(std::int32_t p, std::int32_t cell) const {
    return OneSet ? math::max(b.begin(cell), p + 1) : b.begin(cell);
  }

  // Partners q..end-1 of atom p (position xp, original index i): a slot for every one (slots.hpp),
  // so with one histogram the sink takes every slot without a branch.
  template <class Sink>
  KOKKOS_INLINE_FUNCTION void exact_run(std::int32_t p, Vec3<T> xp, std::int32_t i, std::int32_t q,
                                        std::int32_t end, const Sink& sink) const {
    const std::int32_t n_bins = bins.range.n_bins;
    for (; q < end; q += exact_tile) {
      const int n = math::min(exact_tile, end - q);
      T r2[exact_tile];
      std::int32_t slot[exact_tile];
      for (int t = 0; t < n; ++t)
        r2[t] = squared_distance(xp, q + t, select_sign(i, b.index(q + t)));
      bins.fill(r2, slot, n, n_bins);
      if (labels.trivial()) {
        for (int t = 0; t < n; ++t) sink(slot[t]);
        continue;
      }
      for (int t = 0; t < n; ++t) {
        const std::int32_t h = labels.histogram_of(p, q + t);
        if (h >= 0 && slot[t] < n_bins) sink(std::int64_t(h) * n_bins + slot[t]);
      }
    }
  }

  // As exact_run, with fractional coordinates fp for the screen.
  template <class Sink>
  KOKKOS_INLINE_FUNCTION void screened_run(std::int32_t p, Vec3<T> xp, Vec3<T> fp, std::int32_t i,
                                           std::int32_t q, std::int32_t end,
                                           const Sink& sink) const {
    for (; q < end; q += tile)
      for (std::uint32_t near_ones = near_mask(fp, q, math::min(tile, end - q)); near_ones != 0;
           near_ones &= near_ones - 1) {
        const std::int32_t j = q + lowest_set_bit(near_ones);
        bin_pair(p, j, squared_distance(xp, j, look_up_sign(i, b.index(j))), sink);
      }
  }

  // Bit t is set when partner q + t may lie within r_max.
  KOKKOS_INLINE_FUNCTION std::uint32_t near_mask(Vec3<T> fp, std::int32_t q, int n) const {
    std::uint32_t mask = 0;
    for (int t = 0; t < n; ++t) {
      const T bound =
          near.squared_length(b.fx(q + t) - fp.x, b.fy(q + t) - fp.y, b.fz(q + t) - fp.z);
      mask |= std::uint32_t(bound < near.reach_squared) << t;
    }
    return mask;
  }

  // pair_distance(box, a[i], b[j]) squared. One set: i < j in the original order, so b - a is
  // negated (an exact operation, sign -1) when q's atom comes first.
  KOKKOS_INLINE_FUNCTION T squared_distance(Vec3<T> xp, std::int32_t q, T sign) const {
    return norm2(box.minimum_image(sign * (b.position(q) - xp)));
  }

  // The sign for one partner on its own: CPU compilers would branch on a select between two
  // constants, unpredictably; a lookup in a table they cannot see into stays branch-free.
  KOKKOS_INLINE_FUNCTION T look_up_sign(std::int32_t i, std::int32_t j) const {
    return OneSet ? unit[i < j] : T(1);
  }
};

}  // namespace cells_detail
}  // namespace kmol
