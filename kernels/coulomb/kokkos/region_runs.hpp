#pragma once
// The runs of a job's blocks grouped by region: a region is one run (run_length points along x)
// by `rows` rows along y by `rows` planes along z of a block, and its runs are numbered together,
// so that the runs one GPU warp or one CPU thread takes in turn walk the same atoms (those within
// the cutoff of the region). Points keep PointTable's flat numbering. Kokkos-free.
#include <cstdint>

#include "kernels/coulomb/point_table.hpp"
#include "kmol/core/portability.hpp"

namespace kmol::coulomb {

struct RegionRuns {
  PointTable table;
  int rows = 1;
  std::int64_t regions[PointTable::max_blocks][3] = {}, first_run[PointTable::max_blocks + 1] = {};

  static RegionRuns of(const PointTable& table, int rows) {
    RegionRuns out;
    out.table = table;
    out.rows = rows;
    for (int b = 0; b < table.count; ++b) {
      const std::int64_t extent[3] = {table.run_length, rows, rows};
      for (int d = 0; d < 3; ++d)
        out.regions[b][d] = (table.size[b][d] + extent[d] - 1) / extent[d];
      out.first_run[b + 1] = out.first_run[b] + out.regions[b][0] * out.regions[b][1] *
                                                    out.regions[b][2] * std::int64_t(rows) * rows;
    }
    return out;
  }

  KMOL_INLINE std::int64_t runs() const { return first_run[table.count]; }

  // Run r: the lattice indices of its first point and the lattice index boxes [lo, hi] of its
  // region (clipped to the block), the flat number of its first point, and how many points it
  // has (0 for a row of the region beyond the block's edge).
  KMOL_INLINE int locate(std::int64_t r, std::int64_t ijk[3], std::int64_t lo[3],
                         std::int64_t hi[3], std::int64_t& p) const {
    int b = 0;
    while (b + 1 < table.count && r >= first_run[b + 1]) ++b;
    const std::int64_t local = r - first_run[b], per_region = std::int64_t(rows) * rows;
    const std::int64_t region = local / per_region, row = local % per_region;
    const std::int64_t corner[3] = {(region % regions[b][0]) * table.run_length,
                                    (region / regions[b][0] % regions[b][1]) * rows,
                                    region / (regions[b][0] * regions[b][1]) * rows};
    const std::int64_t extent[3] = {table.run_length, rows, rows};
    for (int d = 0; d < 3; ++d) {
      const std::int64_t last = corner[d] + extent[d] - 1;
      lo[d] = table.begin[b][d] + corner[d];
      hi[d] = table.begin[b][d] + (last < table.size[b][d] ? last : table.size[b][d] - 1);
    }
    const std::int64_t i = corner[0], j = corner[1] + row % rows, k = corner[2] + row / rows;
    ijk[0] = table.begin[b][0] + i;
    ijk[1] = table.begin[b][1] + j;
    ijk[2] = table.begin[b][2] + k;
    p = table.first[b] + (k * table.size[b][1] + j) * table.size[b][0] + i;
    if (j >= table.size[b][1] || k >= table.size[b][2]) return 0;
    return int(hi[0] - lo[0] + 1);
  }
};

}  // namespace kmol::coulomb
