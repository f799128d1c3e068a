#pragma once
// The cell grid of the cell path: cells in fractional coordinates, thin enough that every partner
// within r_max lies a fixed number of cells away, and the runs of neighbouring cells that are
// contiguous in cell order.
#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstdint>
#include <limits>

#include "kmol/core/box.hpp"
#include "kmol/core/math.hpp"
#include "kmol/core/vec3.hpp"

namespace kmol {
namespace cells_detail {

// Runs of consecutive cell columns along x: [first[r], last[r]] for r < count.
struct ColumnRuns {
  std::int32_t first[2], last[2];
  int count;
};

// Cell (cx, cy, cz) holds the points whose fractional coordinates s_d = reciprocal[d] . x,
// wrapped into [0, 1), lie in [c_d, c_d + 1) / n[d]; its index is cx + n0 (cy + n1 cz). Cells are
// at least r_max / span thick, so partners within r_max lie at most span cells away along each
// direction: thinner cells than r_max (span 2) leave less empty space around an atom's sphere of
// partners, thicker ones (span 1) hold more atoms each.
struct CellGrid {
  static constexpr std::int32_t max_span = 2;
  std::int32_t span = max_span;
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
    const std::int32_t cy = c / n[0] % n[1], cz = c / (n[0] * n[1]);
    const ColumnRuns runs = x_runs(c % n[0]);
    for (int k = 0; k < neighbour_count(2); ++k)
      for (int l = 0; l < neighbour_count(1); ++l) {
        const std::int32_t row = row_start(cy, cz, k, l);
        for (int r = 0; r < runs.count; ++r) f(row + runs.first[r], row + runs.last[r] + 1);
      }
  }

  // The same runs by slot, for threads that take one each: slot e of cell c holds run e % 2 of
  // neighbour row e / 2, as [first_cell, end_cell), or an empty range.
  static constexpr int max_run_slots = 2 * (2 * max_span + 1) * (2 * max_span + 1);
  KOKKOS_INLINE_FUNCTION int run_slots() const {
    return 2 * neighbour_count(1) * neighbour_count(2);
  }
  KOKKOS_INLINE_FUNCTION void run_in_slot(std::int32_t c, int e, std::int32_t& first_cell,
                                          std::int32_t& end_cell) const {
    const ColumnRuns runs = x_runs(c % n[0]);
    const int row = e / 2, r = e % 2;
    first_cell = end_cell = 0;
    if (r >= runs.count) return;
    const std::int32_t start = row_start(c / n[0] % n[1], c / (n[0] * n[1]),
                                         row / neighbour_count(1), row % neighbour_count(1));
    first_cell = start + runs.first[r];
    end_cell = start + runs.last[r] + 1;
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

  // The first cell of neighbour row (k along z, l along y) around column (cy, cz).
  KOKKOS_INLINE_FUNCTION std::int32_t row_start(std::int32_t cy, std::int32_t cz, int k,
                                                int l) const {
    return n[0] * (neighbour(1, cy, l) + n[1] * neighbour(2, cz, k));
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

// As many cells per direction as fit at thickness (r_max + margin) / span (1 or 2), so that a
// pair whose distance rounds below r_max never lies more than span cells apart; at most max_cells
// in all (emptier cells only add loop overhead). With few cells along a direction all are
// neighbours, so any count is correct.
inline CellGrid make_cell_grid(const BoxSpec& box, double r_max, double margin,
                               std::int64_t max_cells, std::int32_t span) {
  const Vec3<double>* e = box.edges;
  const double volume = dot(e[0], cross(e[1], e[2]));
  CellGrid grid;
  grid.span = span;
  double product = 1;
  for (int d = 0; d < 3; ++d) {
    grid.reciprocal[d] = (1 / volume) * cross(e[(d + 1) % 3], e[(d + 2) % 3]);
    const double height = 1 / std::sqrt(norm2(grid.reciprocal[d]));
    grid.n[d] = std::int32_t(std::fmax(1.0, std::floor(span * height / (r_max + margin))));
    product *= grid.n[d];
  }
  const double shrink = std::cbrt(double(max_cells) / product);
  for (int d = 0; d < 3; ++d) {
    if (shrink < 1) grid.n[d] = std::int32_t(std::fmax(1.0, std::floor(grid.n[d] * shrink)));
    grid.thickness[d] = 1 / (std::sqrt(norm2(grid.reciprocal[d])) * grid.n[d]);
  }
  return grid;
}

}  // namespace cells_detail
}  // namespace kmol
