#include "kmol/core/grid.hpp"

#include <algorithm>
#include <cmath>

#include "kmol/core/errors.hpp"

namespace kmol {

Grid grid_around(const Vec3<double>* positions, std::int64_t n, double spacing, double padding) {
  if (!(spacing > 0)) throw InputError({"", "--spacing", -1}, "must be positive (Angstrom)");
  if (!(padding >= 0)) throw InputError({"", "--padding", -1}, "must not be negative (Angstrom)");
  if (n <= 0) throw InputError({"", "atoms", -1}, "no atoms to place a grid around");
  Vec3<double> lo = positions[0], hi = positions[0];
  for (std::int64_t a = 1; a < n; ++a) {
    lo = {std::min(lo.x, positions[a].x), std::min(lo.y, positions[a].y),
          std::min(lo.z, positions[a].z)};
    hi = {std::max(hi.x, positions[a].x), std::max(hi.y, positions[a].y),
          std::max(hi.z, positions[a].z)};
  }
  Grid lattice;
  lattice.spacing = {spacing, spacing, spacing};
  const double lo_c[3] = {lo.x, lo.y, lo.z}, hi_c[3] = {hi.x, hi.y, hi.z};
  double origin[3];
  for (int d = 0; d < 3; ++d) {
    const double extent = hi_c[d] - lo_c[d] + 2 * padding;
    const double steps = std::ceil(extent / spacing);
    if (!(steps < 1e9))
      throw InputError({"", "--spacing", -1}, "gives a lattice too large to index");
    lattice.counts[d] = std::int64_t(steps) + 1;
    origin[d] = 0.5 * (lo_c[d] + hi_c[d]) - 0.5 * steps * spacing;
  }
  lattice.origin = {origin[0], origin[1], origin[2]};
  return lattice;
}

}  // namespace kmol
