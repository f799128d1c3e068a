#pragma once
// The one shape every map in kmol has: potential, orbital, density and correlation maps, and the
// OpenDX, MRC and cube files they are read from and written to. Point (i, j, k) lies at
// origin + (i dx, j dy, k dz); values are stored with i fastest, index (k ny + j) nx + i.
#include <array>
#include <cstdint>

#include "kmol/core/vec3.hpp"

namespace kmol {

struct Grid {
  Vec3<double> origin;
  std::array<double, 3> spacing{};  // Angstrom
  std::array<std::int64_t, 3> counts{};

  std::int64_t points() const { return counts[0] * counts[1] * counts[2]; }
  std::int64_t index(std::int64_t i, std::int64_t j, std::int64_t k) const {
    return (k * counts[1] + j) * counts[0] + i;
  }
  // One spacing on every axis, which the potential and orbital kernels assume.
  bool cubic() const { return spacing[0] == spacing[1] && spacing[1] == spacing[2]; }
};

// The smallest grid of this spacing covering the points' bounding box grown by `padding` on every
// side (APBS-style automatic placement, centred on the box). Throws InputError naming --spacing,
// --padding or the atom that stretches the lattice (map_check.hpp: grid_around with names).
Grid grid_around(const Vec3<double>* positions, std::int64_t n, double spacing, double padding);

}  // namespace kmol
