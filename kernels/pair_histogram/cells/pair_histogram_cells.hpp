#pragma once
// Pair-distance histograms in O(N) with spatial cells, on any Kokkos execution space.
//
// The periodic box is cut into a grid of cells in fractional coordinates, each at least r_max / 2
// thick across every pair of faces, so all partners within r_max of an atom lie within two cells
// of its own along each lattice direction (wrapped): 125 cells at most, whose volume is 0.58 of
// the 27 cells of thickness r_max that would do as well. Atoms are
// sorted by cell on the device; cells are stored x-fastest, so neighbouring cells along x are one
// contiguous run of the sorted arrays, which consecutive threads read together.
//
// Counts equal the all-pairs implementations' bit for bit: every pair that can count has its
// distance computed as pair_distance does (same operands, same orientation) and binned by
// range.bin_of. In one set each unordered pair is examined once, from whichever of its atoms comes
// first in the sorted order.
//
// CPU spaces run a thread per atom of A and either take every exact distance in one vectorised
// loop or screen a tile of partners with a vectorised bound first. Devices run a team per cell of
// A: the team stages its cell's partners a tile at a time in scratch, each thread pairs its atoms
// of the cell with the staged tile (its vector lanes splitting the tile), and counts go into a
// 32-bit team histogram in scratch, flushed into the 64-bit totals before they could wrap.
#include <Kokkos_Core.hpp>
#include <Kokkos_ScatterView.hpp>
#include <cmath>
#include <cstdint>
#include <iomanip>
#include <limits>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "kernels/kept_arrays.hpp"
#include "kernels/pair_histogram/fast_binning.hpp"
#include "kernels/pair_histogram/job.hpp"
#include "kmol/core/counters.hpp"
#include "kmol/core/errors.hpp"

namespace kmol {
namespace cells_detail {

template <class ExecSpace>
using DeviceOf = Kokkos::Device<ExecSpace, typename ExecSpace::memory_space>;
template <class ExecSpace, class V>
using ArrayOf = Kokkos::View<V*, DeviceOf<ExecSpace>>;
template <class ExecSpace>
using TotalsOf = Kokkos::View<unsigned long long*, Kokkos::LayoutRight, DeviceOf<ExecSpace>>;
template <class ExecSpace, class V>
using ScratchOf =
    Kokkos::View<V*, typename ExecSpace::scratch_memory_space, Kokkos::MemoryUnmanaged>;

// CPU spaces run one thread per atom with per-thread 64-bit histograms; devices run teams that
// count into 32-bit histograms in scratch.
template <class ExecSpace>
constexpr bool is_cpu = Kokkos::SpaceAccessibility<ExecSpace, Kokkos::HostSpace>::accessible;

// Whether CPU compilers vectorise floor and selects: GCC only without trap semantics (as kmol
// builds), Clang by default.
#if defined(__NO_TRAPPING_MATH__) || defined(__clang__)
inline constexpr bool floor_vectorises = true;
#else
inline constexpr bool floor_vectorises = false;
#endif

// Index of the lowest set bit of a non-zero mask.
KOKKOS_INLINE_FUNCTION int lowest_set_bit(std::uint32_t mask) {
#ifdef __CUDA_ARCH__
  return __ffs(int(mask)) - 1;
#else
  return __builtin_ctz(mask);
#endif
}

// Runs of consecutive cell columns along x: [first[r], last[r]] for r < count.
struct ColumnRuns {
  std::int32_t first[2], last[2];
  int count;
};

// Cell (cx, cy, cz) holds the points whose fractional coordinates s_d = reciprocal[d] . x,
// wrapped into [0, 1), lie in [c_d, c_d + 1) / n[d]; its index is cx + n0 (cy + n1 cz). Cells are
// at least r_max / span thick, so partners within r_max lie at most span cells away along each
// direction: thinner cells than r_max leave less empty space around an atom's sphere of partners.
struct CellGrid {
  static constexpr std::int32_t span = 2;
  std::int32_t n[3] = {1, 1, 1};
  Vec3<double> reciprocal[3] = {};
  double thickness[3] = {};  // cell height across each face pair

  KOKKOS_INLINE_FUNCTION std::int32_t count() const { return n[0] * n[1] * n[2]; }

  // In [0, 1], where 1 stands for 0 (s - floor(s) rounds up to 1 for tiny negative s).
  KOKKOS_INLINE_FUNCTION Vec3<double> wrapped_fractions(Vec3<double> x) const {
    double s[3];
    for (int d = 0; d < 3; ++d) {
      s[d] = dot(reciprocal[d], x);
      s[d] -= math::floor(s[d]);
    }
    return {s[0], s[1], s[2]};
  }

  KOKKOS_INLINE_FUNCTION std::int32_t cell_of(Vec3<double> wrapped) const {
    const double s[3] = {wrapped.x, wrapped.y, wrapped.z};
    std::int32_t c[3];
    for (int d = 0; d < 3; ++d) c[d] = math::min(std::int32_t(s[d] * n[d]), n[d] - 1);
    return c[0] + n[0] * (c[1] + n[1] * c[2]);
  }

  // Calls f(first_cell, end_cell) for the runs of consecutive cells that make up cell c and its
  // neighbours, each cell once (with 2 span + 1 cells or fewer along a direction, all of them).
  template <class F>
  KOKKOS_INLINE_FUNCTION void for_each_neighbour_run(std::int32_t c, F&& f) const {
    const std::int32_t cx = c % n[0], cy = c / n[0] % n[1], cz = c / (n[0] * n[1]);
    const ColumnRuns runs = x_runs(cx);
    for (int k = 0; k < neighbour_count(2); ++k)
      for (int l = 0; l < neighbour_count(1); ++l) {
        const std::int32_t row = n[0] * (neighbour(1, cy, l) + n[1] * neighbour(2, cz, k));
        for (int r = 0; r < runs.count; ++r) f(row + runs.first[r], row + runs.last[r] + 1);
      }
  }

 private:
  KOKKOS_INLINE_FUNCTION bool all_neighbours(int d) const { return n[d] <= 2 * span + 1; }

  KOKKOS_INLINE_FUNCTION int neighbour_count(int d) const {
    return all_neighbours(d) ? n[d] : 2 * span + 1;
  }

  // The k-th distinct neighbour of column c along direction d, c itself included.
  KOKKOS_INLINE_FUNCTION std::int32_t neighbour(int d, std::int32_t c, int k) const {
    if (all_neighbours(d)) return k;
    const std::int32_t w = c - span + k;
    return w < 0 ? w + n[d] : w >= n[d] ? w - n[d] : w;
  }

  KOKKOS_INLINE_FUNCTION ColumnRuns x_runs(std::int32_t cx) const {
    const std::int32_t nx = n[0], first = cx - span, last = cx + span;
    if (all_neighbours(0)) return {{0, 0}, {nx - 1, 0}, 1};
    if (first < 0) return {{0, first + nx}, {last, nx - 1}, 2};
    if (last >= nx) return {{first, 0}, {nx - 1, last - nx}, 2};
    return {{first, 0}, {last, 0}, 1};
  }
};

// How far rounding in T can move a computed pair distance, or a distance taken from fractional
// coordinates, away from the exact one, for coordinates up to `extent` in magnitude: a generous
// few ulps of the largest lengths involved.
template <class T>
double rounding_margin(const BoxSpec& box, double extent) {
  double lengths = extent;
  for (const Vec3<double>& edge : box.edges) lengths += std::sqrt(norm2(edge));
  return 64 * double(std::numeric_limits<T>::epsilon()) * lengths;
}

// As many cells per direction as fit at thickness (r_max + margin) / span, so that a pair whose
// distance rounds below r_max never lies more than span cells apart; at most max_cells in all
// (emptier cells only add loop overhead). With few cells along a direction all are neighbours,
// so any count is correct.
inline CellGrid make_cell_grid(const BoxSpec& box, double r_max, double margin,
                               std::int64_t max_cells) {
  const Vec3<double>* e = box.edges;
  const double volume = dot(e[0], cross(e[1], e[2]));
  CellGrid grid;
  double product = 1;
  for (int d = 0; d < 3; ++d) {
    grid.reciprocal[d] = (1 / volume) * cross(e[(d + 1) % 3], e[(d + 2) % 3]);
    const double height = 1 / std::sqrt(norm2(grid.reciprocal[d]));
    grid.n[d] = std::int32_t(std::fmax(1.0, std::floor(CellGrid::span * height / (r_max + margin))));
    product *= grid.n[d];
  }
  const double shrink = std::cbrt(double(max_cells) / product);
  for (int d = 0; d < 3; ++d) {
    if (shrink < 1) grid.n[d] = std::int32_t(std::fmax(1.0, std::floor(grid.n[d] * shrink)));
    grid.thickness[d] = 1 / (std::sqrt(norm2(grid.reciprocal[d])) * grid.n[d]);
  }
  return grid;
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

template <class ExecSpace, class T>
double max_abs_coordinate(const ExecSpace& space, const ArrayOf<ExecSpace, Vec3<T>>& xyz) {
  double extent = 0;
  Kokkos::parallel_reduce(
      "kmol::pair_histogram::cells::extent",
      Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int32_t>>(space, 0, xyz.extent(0)),
      KOKKOS_LAMBDA(std::int32_t i, double& m) {
        const Vec3<T> x = xyz(i);
        const T largest =
            math::max(math::max(math::max(x.x, -x.x), math::max(x.y, -x.y)), math::max(x.z, -x.z));
        m = math::max(m, double(largest));
      },
      Kokkos::Max<double>(extent));
  return extent;
}

// Atoms in cell order: position p holds original atom index(p) of cell cell(p); cell c's atoms
// are positions [begin(c), begin(c + 1)). Fractional coordinates and labels follow the same order.
template <class ExecSpace, class T>
struct SortedAtoms {
  ArrayOf<ExecSpace, T> x, y, z;
  ArrayOf<ExecSpace, T> fx, fy, fz;  // wrapped fractional coordinates, for the screen
  ArrayOf<ExecSpace, std::int32_t> index, cell, begin;
  ArrayOf<ExecSpace, std::int32_t> species, molecule;  // empty without labels

  KOKKOS_INLINE_FUNCTION Vec3<T> position(std::int32_t p) const { return {x(p), y(p), z(p)}; }
};

// Counting sort by cell: each atom takes a slot in its cell with an atomic increment, the cell
// offsets are the exclusive sum of the counts, and each atom is written to offset + slot.
template <class ExecSpace, class T>
SortedAtoms<ExecSpace, T> sort_into_cells(const ExecSpace& space, const CellGrid& grid,
                                          const ArrayOf<ExecSpace, Vec3<T>>& xyz,
                                          const ArrayOf<ExecSpace, std::int32_t>& species,
                                          const ArrayOf<ExecSpace, std::int32_t>& molecule,
                                          KeptArrays<ExecSpace>& kept, const std::string& set) {
  using Policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int32_t>>;
  using Index = ArrayOf<ExecSpace, std::int32_t>;
  const std::int32_t n = std::int32_t(xyz.extent(0)), n_cells = grid.count();
  const auto reals = [&](const char* label, std::size_t size) {
    return kept.template array<T>(set + label, size);
  };
  const auto indices = [&](const char* label, std::size_t size) {
    return kept.template array<std::int32_t>(set + label, size);
  };
  const Index cell_of_atom = indices("cell_of_atom", n), slot = indices("slot", n),
              per_cell = indices("per_cell", n_cells);
  Kokkos::deep_copy(space, per_cell, 0);
  Kokkos::parallel_for(
      "kmol::pair_histogram::cells::bin_atoms", Policy(space, 0, n), KOKKOS_LAMBDA(std::int32_t i) {
        const std::int32_t c = grid.cell_of(grid.wrapped_fractions(xyz(i).template cast<double>()));
        cell_of_atom(i) = c;
        slot(i) = Kokkos::atomic_fetch_add(&per_cell(c), 1);
      });

  const SortedAtoms<ExecSpace, T> out{reals("x", n),
                                      reals("y", n),
                                      reals("z", n),
                                      reals("fx", n),
                                      reals("fy", n),
                                      reals("fz", n),
                                      indices("index", n),
                                      indices("cell", n),
                                      indices("begin", std::size_t(n_cells) + 1),
                                      indices("species", species.extent(0)),
                                      indices("molecule", molecule.extent(0))};
  Kokkos::parallel_scan(
      "kmol::pair_histogram::cells::cell_offsets", Policy(space, 0, n_cells + 1),
      KOKKOS_LAMBDA(std::int32_t c, std::int32_t& offset, bool final) {
        if (final) out.begin(c) = offset;
        if (c < n_cells) offset += per_cell(c);
      });

  Kokkos::parallel_for(
      "kmol::pair_histogram::cells::scatter_atoms", Policy(space, 0, n),
      KOKKOS_LAMBDA(std::int32_t i) {
        const std::int32_t c = cell_of_atom(i), p = out.begin(c) + slot(i);
        const Vec3<T> x = xyz(i);
        out.x(p) = x.x;
        out.y(p) = x.y;
        out.z(p) = x.z;
        out.index(p) = i;
        out.cell(p) = c;
        const Vec3<double> f = grid.wrapped_fractions(x.template cast<double>());
        out.fx(p) = T(f.x);
        out.fy(p) = T(f.y);
        out.fz(p) = T(f.z);
        if (out.species.extent(0) != 0) out.species(p) = species(i);
        if (out.molecule.extent(0) != 0) out.molecule(p) = molecule(i);
      });
  return out;
}

// Examines the partners of atoms of A: the atoms of B in the cells around theirs. OneSet: A and
// B are the same sorted atoms and only partners later in the sorted order are taken.
template <class ExecSpace, class T, class Box, bool OneSet>
struct PairCounter {
  Box box;
  HistogramRange<T> range;
  T cut_squared;  // no squared distance at or beyond it has a root below r_max
  // GPUs bin the fast way (fast_binning.hpp) where fast_kernel_exact holds: pairs with r2 in
  // [r2_low, r2_high) count; 0 >= r2_high where it does not.
  T r2_low, r2_high;
  NearBound<T> near;
  PairLabels labels;  // over sorted positions: A's labels, B's labels
  CellGrid grid;
  SortedAtoms<ExecSpace, T> a, b;
  T unit[2] = {T(-1), T(1)};  // the signs of b - a, by orientation

  static constexpr bool one_set = OneSet;

  // Exact distances for all partners beat the screen on CPU spaces in single precision with
  // orthorhombic boxes, whose minimum image then vectorises in eight lanes (1M atoms, r_max 12,
  // 2 cores: 3.2 s against 4.8 s). The triclinic minimum image checks faces in loops that do
  // not vectorise, and in double precision the screen is faster.
  static constexpr bool exact_for_all = is_cpu<ExecSpace> && floor_vectorises &&
                                        std::is_same_v<Box, OrthorhombicBox<T>> &&
                                        std::is_same_v<T, float>;

  // Calls sink(histogram * n_bins + bin) for each counted pair of atom p of A, a tile of
  // partners at a time: either every partner's exact distance in one vectorised loop, or a
  // vectorised screen that picks the partners that get it.
  template <class Sink>
  KOKKOS_INLINE_FUNCTION void count_partners(std::int32_t p, const Sink& sink) const {
    const Vec3<T> xp = a.position(p), fp{a.fx(p), a.fy(p), a.fz(p)};
    const std::int32_t i = a.index(p);
    grid.for_each_neighbour_run(a.cell(p), [&](std::int32_t first_cell, std::int32_t end_cell) {
      const std::int32_t q = first_partner(p, first_cell), end = b.begin(end_cell);
      if constexpr (exact_for_all)
        exact_run(p, xp, i, q, end, sink);
      else
        screened_run(p, xp, fp, i, q, end, sink);
    });
  }

  // Pairs atom p of A with the n partners of a staged tile (sorted position q[t], position
  // (x, y, z)[t], original index index[t]) on the calling thread's vector lanes.
  template <class Member, class Staged, class Sink>
  KOKKOS_INLINE_FUNCTION void count_staged(const Member& member, std::int32_t p,
                                           const Staged& staged, int n, const Sink& sink) const {
    const Vec3<T> xp = a.position(p);
    const std::int32_t i = a.index(p);
    Kokkos::parallel_for(Kokkos::ThreadVectorRange(member, n), [&](int t) {
      const std::int32_t q = staged.q(t);
      if (OneSet && q <= p) return;
      const Vec3<T> b_minus_a = Vec3<T>{staged.x(t), staged.y(t), staged.z(t)} - xp;
      const T r2 = norm2(box.minimum_image(select_sign(i, staged.index(t)) * b_minus_a));
      bin_pair(p, q, r2, sink);
    });
  }

 private:
  static constexpr int tile = 32;  // partners examined together: one bit each in a mask

  KOKKOS_INLINE_FUNCTION std::int32_t first_partner(std::int32_t p, std::int32_t cell) const {
    return OneSet ? math::max(b.begin(cell), p + 1) : b.begin(cell);
  }

  // Partners q..end-1 of atom p (position xp, original index i).
  template <class Sink>
  KOKKOS_INLINE_FUNCTION void exact_run(std::int32_t p, Vec3<T> xp, std::int32_t i, std::int32_t q,
                                        std::int32_t end, const Sink& sink) const {
    for (; q < end; q += tile) {
      const int n = math::min(tile, end - q);
      T r2[tile];
      std::int32_t bin[tile];
      for (int t = 0; t < n; ++t)
        r2[t] = squared_distance(xp, q + t, select_sign(i, b.index(q + t)));
      // Binning every partner in vector lanes costs less than binning the near quarter one by one.
      const HistogramRange<T> bins = range;  // a local copy, so that the loop vectorises
      for (int t = 0; t < n; ++t) bin[t] = bins.bin_of(math::sqrt(r2[t]));
      std::uint32_t in_range = 0;
      for (int t = 0; t < n; ++t) in_range |= std::uint32_t(bin[t] >= 0) << t;
      for (; in_range != 0; in_range &= in_range - 1) {
        const int t = lowest_set_bit(in_range);
        const std::int32_t h = labels.histogram_of(p, q + t);
        if (h >= 0) sink(std::int64_t(h) * range.n_bins + bin[t]);
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

  // The sign where it is computed for many partners at once (vector blends, predicated lanes).
  KOKKOS_INLINE_FUNCTION T select_sign(std::int32_t i, std::int32_t j) const {
    return !OneSet || i < j ? T(1) : T(-1);
  }

  // The sign for one partner on its own: CPU compilers would branch on a select between two
  // constants, unpredictably; a lookup in a table they cannot see into stays branch-free.
  KOKKOS_INLINE_FUNCTION T look_up_sign(std::int32_t i, std::int32_t j) const {
    return OneSet ? unit[i < j] : T(1);
  }

  // Bins pair_distance's square r2, i.e. its correctly rounded root, if below r_max (the root is
  // taken only for squares below cut_squared).
  template <class Sink>
  KOKKOS_INLINE_FUNCTION void bin_pair(std::int32_t p, std::int32_t q, T r2,
                                       const Sink& sink) const {
    std::int32_t bin;
    if (!is_cpu<ExecSpace> && r2_high > T(0)) {
      if (!(r2 >= r2_low && r2 < r2_high)) return;
      bin = math::min(fast_binning::fast_bin_plus_magic(range, fast_binning::fast_root(r2)) -
                          fast_binning::magic_bits<T>,
                      range.n_bins - 1);
    } else {
      if (!(r2 < cut_squared)) return;
      bin = range.bin_of(math::sqrt(r2));
      if (bin < 0) return;
    }
    const std::int32_t h = labels.histogram_of(p, q);
    if (h >= 0) sink(std::int64_t(h) * range.n_bins + bin);
  }
};

// One thread per atom of A, adding into the ScatterView: per-thread copies of the 64-bit
// histograms on CPU spaces, atomics in global memory on devices.
template <class ExecSpace, class Counter>
void count_with_scatter_view(const ExecSpace& space, const Counter& counter, std::int32_t n_a,
                             TotalsOf<ExecSpace> totals) {
  Kokkos::Experimental::ScatterView<unsigned long long*, Kokkos::LayoutRight, DeviceOf<ExecSpace>>
      scatter(space, totals);
  Kokkos::parallel_for(
      "kmol::pair_histogram::cells::count_pairs",
      Kokkos::RangePolicy<ExecSpace, Kokkos::Schedule<Kokkos::Dynamic>,
                          Kokkos::IndexType<std::int32_t>>(space, 0, n_a),
      KOKKOS_LAMBDA(std::int32_t p) {
        auto histogram = scatter.access();
        counter.count_partners(p, [&](std::int64_t k) { histogram(k) += 1; });
      });
  Kokkos::Experimental::contribute(space, totals, scatter);
}

// A tile of B's atoms in team scratch: positions, original indices and sorted positions.
template <class ExecSpace, class T>
struct StagedTile {
  ScratchOf<ExecSpace, T> x, y, z;
  ScratchOf<ExecSpace, std::int32_t> index, q;

  static constexpr int capacity = 512;

  static std::size_t scratch_bytes() {
    return 3 * ScratchOf<ExecSpace, T>::shmem_size(capacity) +
           2 * ScratchOf<ExecSpace, std::int32_t>::shmem_size(capacity);
  }

  template <class Member>
  KOKKOS_INLINE_FUNCTION explicit StagedTile(const Member& team)
      : x(team.team_scratch(0), capacity), y(team.team_scratch(0), capacity),
        z(team.team_scratch(0), capacity), index(team.team_scratch(0), capacity),
        q(team.team_scratch(0), capacity) {}
};

// Device scheme: a team per cell of A, its threads on the cell's atoms, pairing them with the
// partners around the cell staged a tile at a time in scratch (read once per team rather than
// once per atom), counting into a 32-bit histogram in scratch.
template <class ExecSpace, class T, class Counter>
void count_with_cell_teams(const ExecSpace& space, const Counter& counter,
                           const TotalsOf<ExecSpace>& totals) {
  using Policy = Kokkos::TeamPolicy<ExecSpace>;
  using Histogram = ScratchOf<ExecSpace, std::uint32_t>;
  using Tile = StagedTile<ExecSpace, T>;
  // A warp per atom of the cell, its lanes splitting the partners (CPU spaces: one thread of one
  // lane); eight warps keep a cell's two dozen atoms busy.
  constexpr int team_size = is_cpu<ExecSpace> ? 1 : 8, vector_length = is_cpu<ExecSpace> ? 1 : 32;
  const std::int32_t size = std::int32_t(totals.extent(0));
  const Policy policy =
      Policy(space, counter.grid.count(), team_size, vector_length)
          .set_scratch_size(0, Kokkos::PerTeam(Histogram::shmem_size(size) + Tile::scratch_bytes()));
  Kokkos::parallel_for(
      "kmol::pair_histogram::cells::count_pairs_in_cell_teams", policy,
      KOKKOS_LAMBDA(const typename Policy::member_type& team) {
        const Histogram histogram(team.team_scratch(0), size);
        const Tile staged(team);
        const auto for_all_lanes = [&](std::int32_t n, const auto& f) {
          Kokkos::parallel_for(Kokkos::TeamThreadRange(team, (n + vector_length - 1) / vector_length),
                               [&](std::int32_t c) {
                                 Kokkos::parallel_for(
                                     Kokkos::ThreadVectorRange(team, vector_length), [&](int v) {
                                       const std::int32_t k = c * vector_length + v;
                                       if (k < n) f(k);
                                     });
                               });
        };
        const auto flush = [&]() {
          team.team_barrier();
          for_all_lanes(size, [&](std::int32_t k) {
            if (histogram(k) != 0) {
              Kokkos::atomic_add(&totals(k), (unsigned long long)histogram(k));
              histogram(k) = 0;
            }
          });
          team.team_barrier();
        };
        for_all_lanes(size, [&](std::int32_t k) { histogram(k) = 0; });
        const std::int32_t cell = team.league_rank();
        const std::int32_t home = counter.a.begin(cell), home_end = counter.a.begin(cell + 1);
        FlushBudget budget;
        // Pairs the cell's atoms with the `filled` partners staged so far.
        const auto pair_staged = [&](int filled) {
          // A counter grows by at most one per pair the team examines.
          const std::uint64_t pairs = std::uint64_t(home_end - home) * std::uint64_t(filled);
          if (budget.needs_flush_before(pairs)) {
            flush();
            budget.flushed();
          }
          budget.take(pairs);
          team.team_barrier();  // the tile is staged
          Kokkos::parallel_for(Kokkos::TeamThreadRange(team, home, home_end), [&](std::int32_t p) {
            counter.count_staged(team, p, staged, filled, [&](std::int64_t k) {
              add_one_to_team_counter(&histogram(k));
            });
          });
          team.team_barrier();  // the tile is no longer read
        };
        // Runs of neighbouring cells go into one tile until it is full: fewer, longer passes.
        int filled = 0;
        counter.grid.for_each_neighbour_run(cell, [&](std::int32_t first_cell,
                                                      std::int32_t end_cell) {
          std::int32_t q0 = counter.b.begin(first_cell);
          const std::int32_t end = counter.b.begin(end_cell);
          if (Counter::one_set) q0 = math::max(q0, home + 1);  // partners after some home atom
          while (q0 < end) {
            const int n = math::min<std::int32_t>(Tile::capacity - filled, end - q0);
            for_all_lanes(n, [&](std::int32_t t) {
              const Vec3<T> x = counter.b.position(q0 + t);
              staged.x(filled + t) = x.x;
              staged.y(filled + t) = x.y;
              staged.z(filled + t) = x.z;
              staged.index(filled + t) = counter.b.index(q0 + t);
              staged.q(filled + t) = q0 + t;
            });
            filled += n;
            q0 += n;
            if (filled == Tile::capacity) {
              pair_staged(filled);
              filled = 0;
            }
          }
        });
        if (filled > 0) pair_staged(filled);
        flush();
      });
}

// Counts into `totals` with the fastest scheme the space allows; says which it took. Devices need
// their scratch to hold the team histogram, or fall back to 64-bit atomics in device memory.
template <class ExecSpace, class T, class Counter>
std::string count_pairs(const ExecSpace& space, const Counter& counter, std::int32_t n_a,
                        const TotalsOf<ExecSpace>& totals) {
  if constexpr (is_cpu<ExecSpace>) {
    count_with_scatter_view(space, counter, n_a, totals);
    return std::string(Counter::exact_for_all ? "exact distances" : "screened partners") +
           ", per-thread 64-bit histograms";
  } else {
    const std::size_t scratch = ScratchOf<ExecSpace, std::uint32_t>::shmem_size(totals.extent(0)) +
                                StagedTile<ExecSpace, T>::scratch_bytes();
    if (scratch <= std::size_t(Kokkos::TeamPolicy<ExecSpace>::scratch_size_max(0))) {
      count_with_cell_teams<ExecSpace, T>(space, counter, totals);
      return "a team per cell, partners staged in scratch, 32-bit team histograms";
    }
    count_with_scatter_view(space, counter, n_a, totals);
    return "screened partners, 64-bit atomic histograms";
  }
}

inline std::string describe(const CellGrid& grid, std::int64_t n_b, bool one_set) {
  std::ostringstream out;
  out << std::setprecision(4) << "cells " << grid.n[0] << "x" << grid.n[1] << "x" << grid.n[2]
      << " (thickness >= "
      << math::min(grid.thickness[0], math::min(grid.thickness[1], grid.thickness[2])) << ", "
      << double(n_b) / grid.count() << " atoms of B each), "
      << (one_set ? "one set, " : "two sets, ");
  return out.str();
}

}  // namespace cells_detail

// Adds into job.counts the histogram of the pairs of `job` that lie within r_max, examining only
// atoms in neighbouring cells. Runs on any Kokkos execution space (Serial, OpenMP, Cuda). Needs a
// periodic box and fewer than 2^31 atoms per set.
template <class ExecSpace, class T>
std::string pair_histogram_cells(const ExecSpace& space, const PairHistogramJob<T>& job) {
  using namespace cells_detail;
  using Index = ArrayOf<ExecSpace, std::int32_t>;
  if (job.box.kind == BoxKind::none)
    throw UnsupportedError("pair histogram cells: needs a periodic box");
  if (math::max(job.n_a, job.n_b) > std::numeric_limits<std::int32_t>::max())
    throw UnsupportedError("pair histogram cells: more than 2^31 - 1 atoms in a set");
  if (job.pair_count() == 0) return "cells: no pairs";

  const std::int32_t n_a = std::int32_t(job.n_a), n_b = std::int32_t(job.n_b);
  const PairLabels& labels = job.labels;
  typename KeptArrays<ExecSpace>::Lease kept;
  const auto a_xyz = kept->copy_in(space, "a", job.a, n_a);
  const auto b_xyz = job.one_set ? a_xyz : kept->copy_in(space, "b", job.b, n_b);
  const Index species = kept->copy_in(space, "species", labels.species, labels.species ? n_a : 0);
  const std::int32_t n_pairs = labels.n_species * (labels.n_species + 1) / 2;
  const auto enabled = kept->copy_in(space, "enabled", labels.enabled, labels.enabled ? n_pairs : 0);
  const bool exclusions = labels.molecule_a != nullptr;
  const Index molecule_a =
      kept->copy_in(space, "molecule_a", labels.molecule_a, exclusions ? n_a : 0);
  const Index molecule_b =
      job.one_set ? molecule_a
                  : kept->copy_in(space, "molecule_b", labels.molecule_b, exclusions ? n_b : 0);

  double extent = max_abs_coordinate<ExecSpace, T>(space, a_xyz);
  if (!job.one_set) extent = math::max(extent, max_abs_coordinate<ExecSpace, T>(space, b_xyz));
  const double r_max = double(job.range.r_max), margin = rounding_margin<T>(job.box, extent);
  const CellGrid grid =
      make_cell_grid(job.box, r_max, margin, math::min<std::int64_t>(n_b, std::int64_t(1) << 30));

  const auto a = sort_into_cells<ExecSpace, T>(space, grid, a_xyz, species, molecule_a, *kept, "a.");
  const auto b = job.one_set ? a
                             : sort_into_cells<ExecSpace, T>(space, grid, b_xyz, Index(),
                                                             molecule_b, *kept, "b.");
  PairLabels sorted_labels = labels;
  sorted_labels.species = labels.species ? a.species.data() : nullptr;
  sorted_labels.enabled = labels.enabled ? enabled.data() : nullptr;
  sorted_labels.molecule_a = exclusions ? a.molecule.data() : nullptr;
  sorted_labels.molecule_b = exclusions ? b.molecule.data() : nullptr;

  // Correctly rounded roots are monotonic: a square this far above r_max^2 has a root >= r_max.
  const T cut_squared = T(r_max * r_max * (1 + 16 * double(std::numeric_limits<T>::epsilon())));
  const bool fast = fast_binning::fast_kernel_exact(job.range);
  const T r2_low = fast ? fast_binning::square_threshold(job.range.r_min) : T(0);
  const T r2_high = fast ? fast_binning::square_threshold(job.range.r_max) : T(0);
  const NearBound<T> near = make_near_bound<T>(job.box, r_max, margin);
  const TotalsOf<ExecSpace> totals(
      kept->template array<unsigned long long>("totals", std::size_t(job.n_histograms) * job.range.n_bins)
          .data(),
      std::size_t(job.n_histograms) * job.range.n_bins);
  Kokkos::deep_copy(space, totals, 0ull);
  const auto count = [&](auto box) {
    using Box = decltype(box);
    if (job.one_set)
      return count_pairs<ExecSpace, T>(
          space,
          PairCounter<ExecSpace, T, Box, true>{box, job.range, cut_squared, r2_low, r2_high, near, sorted_labels,
                                               grid, a, b},
          n_a, totals);
    return count_pairs<ExecSpace, T>(
        space,
        PairCounter<ExecSpace, T, Box, false>{box, job.range, cut_squared, r2_low, r2_high, near, sorted_labels,
                                              grid, a, b},
        n_a, totals);
  };
  const std::string scheme = job.box.kind == BoxKind::orthorhombic
                                 ? count(OrthorhombicBox<T>(job.box))
                                 : count(TriclinicBox<T>(job.box));

  // A plain vector rather than a host mirror: initialising a mirror runs on the host space,
  // which Kokkos 3.4 refuses from threads other than the one that initialised it (GPU workers).
  std::vector<unsigned long long> host_totals(totals.extent(0));
  Kokkos::deep_copy(space,
                    Kokkos::View<unsigned long long*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                        host_totals.data(), host_totals.size()),
                    totals);
  space.fence();
  for (std::size_t k = 0; k < host_totals.size(); ++k) job.counts[k] += host_totals[k];
  return describe(grid, n_b, job.one_set) + scheme;
}

}  // namespace kmol
