#pragma once
// The points of a job's blocks numbered 0..points-1 (block by block, x fastest within a block), so
// that flat parallel loops on any backend can find a point's lattice indices; and the runs of up
// to run_length consecutive points along x within one row of a block, numbered the same way, for
// loops that take a run at a time. Kokkos-free.
#include <cstdint>

#include "kernels/coulomb/job.hpp"
#include "kmol/core/portability.hpp"

namespace kmol::coulomb {

struct PointTable {
  static constexpr int max_blocks = 6;
  int count = 0, run_length = 1;
  std::int64_t begin[max_blocks][3] = {}, size[max_blocks][3] = {}, first[max_blocks + 1] = {},
               first_run[max_blocks + 1] = {}, runs_per_row[max_blocks] = {};

  template <class T>
  static PointTable of(const CoulombJob<T>& job, int run_length = 1) {
    PointTable t;
    t.run_length = run_length;
    for (const auto& b : job.blocks) {
      for (int d = 0; d < 3; ++d) {
        t.begin[t.count][d] = b.begin[d];
        t.size[t.count][d] = b.size[d];
      }
      t.first[t.count + 1] = t.first[t.count] + b.points();
      t.runs_per_row[t.count] = (b.size[0] + run_length - 1) / run_length;
      t.first_run[t.count + 1] =
          t.first_run[t.count] + t.runs_per_row[t.count] * b.size[1] * b.size[2];
      ++t.count;
    }
    return t;
  }

  KMOL_INLINE std::int64_t points() const { return first[count]; }
  KMOL_INLINE std::int64_t runs() const { return first_run[count]; }

  // Run r: the lattice indices and flat number of its first point, and how many points it has.
  KMOL_INLINE int locate_run(std::int64_t r, std::int64_t ijk[3], std::int64_t& p) const {
    int b = 0;
    while (b + 1 < count && r >= first_run[b + 1]) ++b;
    std::int64_t local = r - first_run[b];
    const std::int64_t i = (local % runs_per_row[b]) * run_length;
    local /= runs_per_row[b];
    const std::int64_t j = local % size[b][1], k = local / size[b][1];
    ijk[0] = begin[b][0] + i;
    ijk[1] = begin[b][1] + j;
    ijk[2] = begin[b][2] + k;
    p = first[b] + (k * size[b][1] + j) * size[b][0] + i;
    const std::int64_t left = size[b][0] - i;
    return left < run_length ? int(left) : run_length;
  }

  // Grid indices of flat point p.
  KMOL_INLINE void locate(std::int64_t p, std::int64_t ijk[3]) const {
    int b = 0;
    while (b + 1 < count && p >= first[b + 1]) ++b;
    std::int64_t local = p - first[b];
    const std::int64_t i = local % size[b][0];
    local /= size[b][0];
    ijk[0] = begin[b][0] + i;
    ijk[1] = begin[b][1] + local % size[b][1];
    ijk[2] = begin[b][2] + local / size[b][1];
  }

  // True when the table is the whole lattice in its own order.
  bool is_whole(const std::int64_t counts[3]) const {
    return count == 1 && begin[0][0] == 0 && begin[0][1] == 0 && begin[0][2] == 0 &&
           size[0][0] == counts[0] && size[0][1] == counts[1] && size[0][2] == counts[2];
  }
};

}  // namespace kmol::coulomb
