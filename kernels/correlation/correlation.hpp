#pragma once
// Map-to-map cross-correlation for density fitting (MDFF's quality of fit): the global Pearson
// coefficient of two maps on one lattice and, from the same pass, a local coefficient on every
// tile of 8 x 8 x 8 points.
//
//   kmol::Correlation c = kmol::cross_correlation(space, grid, simulated, reference, {});
//   c.global;  c.local;  // local on c.tiles: a tile's value at its centre
//
// Only voxels whose reference value exceeds the threshold count, when one is given. A tile with
// fewer than two counted voxels, or a constant map within it, has local coefficient 0.
#include <cstdint>
#include <optional>
#include <vector>

#include "kmol/core/io/opendx.hpp"

namespace kmol {

inline constexpr int correlation_tile = 8;

struct CorrelationSettings {
  std::optional<double> threshold;  // on the reference map
};

struct Correlation {
  double global = 0;
  std::int64_t voxels = 0;  // counted
  Grid tiles;               // tile centres
  std::vector<float> local;
};

// ExecSpace: Kokkos::Serial, Kokkos::OpenMP or Kokkos::Cuda; both maps are host arrays on `grid`,
// or, resident, arrays in the execution space's memory (a Kokkos application's Views: views.hpp),
// read where they are.
template <class ExecSpace>
Correlation cross_correlation(const ExecSpace& space, const Grid& grid, const float* simulated,
                              const float* reference, const CorrelationSettings& settings,
                              bool resident = false);

// Pearson's coefficient from the sums n, sum a, sum b, sum a^2, sum b^2, sum ab (0 when undefined).
double pearson(const double sums[6]);

}  // namespace kmol
