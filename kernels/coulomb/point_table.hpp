#pragma once
// The points of a job's blocks numbered 0..points-1 (block by block, x fastest within a block), so
// that flat parallel loops on any backend can find a point's lattice indices. Kokkos-free.
#include <cstdint>

#include "kernels/coulomb/job.hpp"
#include "kmol/core/portability.hpp"

namespace kmol::coulomb {

struct PointTable {
  static constexpr int max_blocks = 6;
  int count = 0;
  std::int64_t begin[max_blocks][3] = {}, size[max_blocks][3] = {}, first[max_blocks + 1] = {};

  template <class T>
  static PointTable of(const CoulombJob<T>& job) {
    PointTable t;
    for (const auto& b : job.blocks) {
      for (int d = 0; d < 3; ++d) {
        t.begin[t.count][d] = b.begin[d];
        t.size[t.count][d] = b.size[d];
      }
      t.first[t.count + 1] = t.first[t.count] + b.points();
      ++t.count;
    }
    return t;
  }

  KMOL_INLINE std::int64_t points() const { return first[count]; }

  // Lattice indices of flat point p.
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
