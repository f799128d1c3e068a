#pragma once
// Atoms sorted into cubic cells a third of the cutoff wide (counting sort on the host): the cells
// whose span comes within the cutoff of a few-angstrom region of points hold about twice the
// atoms of the points' spheres (27 cells a cutoff wide would hold six times as many).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "kernels/coulomb/job.hpp"

namespace kmol::coulomb {

template <class T>
struct CellList {
  T origin[3] = {}, side = 0;
  std::int64_t cells[3] = {1, 1, 1};
  std::vector<std::int64_t> start;          // cell c holds sorted atoms start[c] .. start[c+1]-1
  DefaultInitVector<T> coords[3], charges;  // in cell order

  std::int64_t cell_count() const { return cells[0] * cells[1] * cells[2]; }
};

constexpr int cells_per_cutoff = 3;

// The side of the cells for atoms within [lo, hi]: a third of the cutoff, or wider when a fine
// cutoff would make far more cells than atoms.
template <class T>
T cell_side(const CoulombJob<T>& job, const T (&lo)[3], const T (&hi)[3]) {
  const double volume =
      double(hi[0] - lo[0] + 1) * double(hi[1] - lo[1] + 1) * double(hi[2] - lo[2] + 1);
  const double max_cells = 8.0 * double(job.n) + 4096;
  return std::max(job.cutoff / T(cells_per_cutoff), T(std::cbrt(volume / max_cells)));
}

// Cells of side cell_side(), atoms in index order within each.
template <class T>
CellList<T> build_cell_list(const CoulombJob<T>& job) {
  CellList<T> list;
  T lo[3], hi[3];
  for (int d = 0; d < 3; ++d) {
    lo[d] = hi[d] = job.coords[d][0];
    for (std::int64_t a = 1; a < job.n; ++a) {
      lo[d] = std::min(lo[d], job.coords[d][a]);
      hi[d] = std::max(hi[d], job.coords[d][a]);
    }
  }
  list.side = cell_side(job, lo, hi);
  for (int d = 0; d < 3; ++d) {
    list.origin[d] = lo[d];
    list.cells[d] = std::int64_t((hi[d] - lo[d]) / list.side) + 1;
  }
  std::vector<std::int64_t> cell_of(job.n);
  list.start.assign(list.cell_count() + 1, 0);
  for (std::int64_t a = 0; a < job.n; ++a) {
    std::int64_t c[3];
    for (int d = 0; d < 3; ++d)
      c[d] = std::min(list.cells[d] - 1, std::int64_t((job.coords[d][a] - lo[d]) / list.side));
    cell_of[a] = (c[2] * list.cells[1] + c[1]) * list.cells[0] + c[0];
    ++list.start[cell_of[a] + 1];
  }
  for (std::int64_t c = 0; c < list.cell_count(); ++c) list.start[c + 1] += list.start[c];
  std::vector<std::int64_t> next(list.start.begin(), list.start.end() - 1);
  for (auto& v : list.coords) v.resize(job.n);
  list.charges.resize(job.n);
  for (std::int64_t a = 0; a < job.n; ++a) {
    const std::int64_t slot = next[cell_of[a]]++;
    for (int d = 0; d < 3; ++d) list.coords[d][slot] = job.coords[d][a];
    list.charges[slot] = job.charges[a];
  }
  return list;
}

}  // namespace kmol::coulomb
