#pragma once
// A validated density problem as every implementation receives it (Kokkos-free, so raw CUDA
// units include it): atoms relative to the lattice origin, each Gaussian's exponent factor, the
// global cell geometry, and the z planes of one slab.
#include <cstdint>

#include "kernels/default_init_allocator.hpp"
#include "kmol/core/math.hpp"
#include "kmol/core/portability.hpp"

namespace kmol::density {

// Grid points per thread along x: the atom's y and z distances are shared by all of them.
inline constexpr int points_per_thread = 4;

// exp(-d^2 / (2 sigma^2)) as exp2(-d^2 * factor) with factor = log2(e) / (2 sigma^2); dropped where
// the exponent passes `limit` = log2(1 / threshold). The one formula all implementations use.
KMOL_INLINE float gaussian_term(float d2, float factor, float limit) {
  const float x = d2 * factor;
  return x <= limit ? ::exp2f(-x) : 0.0f;
}

// A Gaussian's exponent factor log2(e) / (2 sigma^2), as 1 / (2 sigma^2 ln 2) in double: the one
// formula the host and the device preparation of atoms use, so both give the same bits.
KMOL_INLINE float gaussian_factor(double sigma) {
  constexpr double ln2 = 0.693147180559945309417232121458;
  return float(1.0 / (2.0 * sigma * sigma * ln2));
}

// Cells of edge `size` (the largest cut radius), anchored at -size on every axis relative to the
// lattice origin, the same for every slab so that slabs sum the same atoms in the same order.
struct CellGrid {
  float size = 1, inverse = 1;
  std::int64_t lo[3] = {0, 0, 0};    // first cell of this slab's grid (global cell coordinates)
  std::int64_t dims[3] = {1, 1, 1};  // cells along each axis

  // Clamped: converting a float past the int64 range is undefined, and an atom that far outside
  // the lattice (or at a NaN coordinate) falls in no cell of any slab either way.
  KMOL_INLINE std::int64_t global_cell(float coordinate) const {
    constexpr float far = 4.0e18f;
    const float cell = ::floorf((coordinate + size) * inverse);
    if (!(cell > -far)) return -std::int64_t(4000000000000000000);
    if (cell > far) return std::int64_t(4000000000000000000);
    return std::int64_t(cell);
  }
  std::int64_t cells() const { return dims[0] * dims[1] * dims[2]; }
};

struct DensityJob {
  DefaultInitVector<float> coords[3];  // atom minus lattice origin (Angstrom)
  DefaultInitVector<float> factors;    // log2(e) / (2 (s a_i)^2)
  DefaultInitVector<float> heights;    // peaks, or empty: all 1 (sums then skip the product)
  std::int64_t n = 0;
  float limit = 0;  // log2(1 / threshold)
  float cut = 0;    // largest cut radius (Angstrom)
  float spacing[3] = {0, 0, 0};
  std::int64_t counts[3] = {0, 0, 0};
  std::int64_t k_begin = 0, k_end = 0;  // this slab's z planes
  CellGrid cells;                       // covering this slab's planes plus the cut radius

  std::int64_t slab_points() const { return counts[0] * counts[1] * (k_end - k_begin); }
};

}  // namespace kmol::density
