#pragma once
#include <fmt/core.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>

#include "kmol/core/grid.hpp"

namespace kmol::cli {

// Maps of more than this many point-evaluations are computed in slabs of z planes, so that a
// run of minutes shows its progress.
constexpr double slab_work = 2e10;

inline std::int64_t slabs_for(const Grid& lattice, double work) {
  return work < slab_work ? 1 : std::min<std::int64_t>(lattice.counts[2], 40);
}

// Computes a map (a type with `lattice` and `values` in lattice.index order) slab by slab, each
// slab an independent lattice of the same spacing, with a bar on a terminal.
template <class Map, class ComputePart>
Map compute_in_slabs(const Grid& lattice, std::int64_t slabs, ComputePart&& compute_part) {
  if (slabs <= 1) return compute_part(lattice);
  const bool show = isatty(STDERR_FILENO);
  const std::int64_t nz = lattice.counts[2];
  Map map;
  for (std::int64_t b = 0; b < slabs; ++b) {
    const std::int64_t k0 = nz * b / slabs, k1 = nz * (b + 1) / slabs;
    Grid part = lattice;
    part.origin.z += double(k0) * lattice.spacing[2];
    part.counts[2] = k1 - k0;
    Map piece = compute_part(part);
    if (b == 0) {
      map = piece;
      map.lattice = lattice;
      map.values.assign(std::size_t(lattice.points()), 0);
    }
    std::copy(piece.values.begin(), piece.values.end(),
              map.values.begin() + lattice.index(0, 0, k0));
    if (show) {
      const int done = int(40 * (b + 1) / slabs);
      fmt::print(stderr, "\r[{}{}] {:3d}%", std::string(done, '#'), std::string(40 - done, ' '),
                 int(100 * (b + 1) / slabs));
      std::fflush(stderr);
    }
  }
  if (show) fmt::print(stderr, "\n");
  return map;
}

}  // namespace kmol::cli
