#pragma once
// Geometry of the CUDA cutoff path, shared with the selector (which refuses what it cannot hold).
// A bin is a cube of points_per_bin^3 lattice points; a block computes one such region, reading
// the bins whose cube comes within the cutoff of the region's cube.
#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

namespace kmol::coulomb {

constexpr double cutoff_bin_target_side =
    4.0;  // Angstrom: Rodrigues et al.'s choice, ~6 atoms of water
constexpr int cutoff_max_points_per_bin = 16;  // a block's region, at most 4 points per thread
constexpr int cutoff_max_offsets = 4096;       // int4 offsets in the 64 KiB constant bank

inline int cutoff_points_per_bin(double spacing) {
  return std::clamp(int(std::lround(cutoff_bin_target_side / spacing)), 1,
                    cutoff_max_points_per_bin);
}

// Bin offsets (dx, dy, dz) whose cube lies within `cutoff` of the origin bin's cube.
inline std::vector<std::array<int, 3>> cutoff_bin_offsets(double bin_side, double cutoff) {
  const int reach = int(std::ceil(cutoff / bin_side)) + 1;
  std::vector<std::array<int, 3>> out;
  auto gap = [&](int d) { return std::max(0, std::abs(d) - 1) * bin_side; };
  for (int k = -reach; k <= reach; ++k)
    for (int j = -reach; j <= reach; ++j)
      for (int i = -reach; i <= reach; ++i)
        if (gap(i) * gap(i) + gap(j) * gap(j) + gap(k) * gap(k) < cutoff * cutoff)
          out.push_back({i, j, k});
  return out;
}

inline bool cutoff_fits_cuda(double spacing, double cutoff) {
  const int m = cutoff_points_per_bin(spacing);
  const double side = m * spacing;
  const double reach = std::ceil(cutoff / side) + 1;  // cheap bound before enumerating
  if ((2 * reach + 1) * (2 * reach + 1) * (2 * reach + 1) <= cutoff_max_offsets) return true;
  return cutoff_bin_offsets(side, cutoff).size() <= std::size_t(cutoff_max_offsets);
}

}  // namespace kmol::coulomb
