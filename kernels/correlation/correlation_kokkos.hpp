#pragma once
// One pass: a thread per 8^3 tile accumulates the six sums of Pearson's coefficient in double;
// the local coefficient comes from the tile's sums, the global one from all tiles' sums added on
// the host in tile order (the same on every backend). The tiles go in pieces a cancel can stop
// between.
#include <Kokkos_Core.hpp>

#include <cmath>

#include "kernels/correlation/correlation.hpp"
#include "kernels/launch_pieces_kokkos.hpp"
#include "kmol/core/execution_space.hpp"

namespace kmol {

template <class ExecSpace>
Correlation cross_correlation(const ExecSpace& space, const Grid& grid, const float* simulated,
                              const float* reference, const CorrelationSettings& settings,
                              bool resident) {
  using Memory = typename ExecSpace::memory_space;
  Kokkos::Profiling::pushRegion("kmol::cross_correlation");
  constexpr int T = correlation_tile;
  const std::int64_t nx = grid.counts[0], ny = grid.counts[1], nz = grid.counts[2],
                     points = nx * ny * nz;
  const std::int64_t tx = (nx + T - 1) / T, ty = (ny + T - 1) / T, tz = (nz + T - 1) / T,
                     tiles = tx * ty * tz;
  using Floats = Kokkos::View<const float*, Memory>;
  const auto in_space = [&](const float* map, const char* label) -> Floats {
    // Resident maps, and host maps on a host space, are read where they are.
    if (resident || runs_on_host<ExecSpace>)
      return Kokkos::View<const float*, Memory, Kokkos::MemoryUnmanaged>(map, points);
    Kokkos::View<float*, Memory> copy(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label)), points);
    Kokkos::deep_copy(
        space, copy,
        Kokkos::View<const float*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(map, points));
    return copy;
  };
  const Floats a = in_space(simulated, "kmol::cc::simulated");
  const Floats b = in_space(reference, "kmol::cc::reference");
  Kokkos::View<double* [6], Kokkos::LayoutRight, Memory> sums(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("kmol::cc::sums")), tiles);
  const bool use_threshold = settings.threshold.has_value();
  const float threshold = use_threshold ? float(*settings.threshold) : 0.0f;
  parallel_for_in_pieces(
      "kmol::cc::tiles", space, tiles, "the cross-correlation",
      KOKKOS_LAMBDA(const std::int64_t t) {
        const std::int64_t i0 = (t % tx) * T, j0 = ((t / tx) % ty) * T, k0 = (t / (tx * ty)) * T;
        double s[6] = {0, 0, 0, 0, 0, 0};
        for (std::int64_t k = k0; k < k0 + T && k < nz; ++k)
          for (std::int64_t j = j0; j < j0 + T && j < ny; ++j)
            for (std::int64_t i = i0; i < i0 + T && i < nx; ++i) {
              const std::int64_t p = (k * ny + j) * nx + i;
              const double x = a(p), y = b(p);
              if (use_threshold && !(b(p) > threshold)) continue;
              s[0] += 1;
              s[1] += x;
              s[2] += y;
              s[3] += x * x;
              s[4] += y * y;
              s[5] += x * y;
            }
        for (int c = 0; c < 6; ++c) sums(t, c) = s[c];
      });
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), sums);
  Correlation out;
  out.tiles.counts = {tx, ty, tz};
  for (int d = 0; d < 3; ++d) out.tiles.spacing[std::size_t(d)] = T * grid.spacing[std::size_t(d)];
  out.tiles.origin = {grid.origin.x + 0.5 * (T - 1) * grid.spacing[0],
                      grid.origin.y + 0.5 * (T - 1) * grid.spacing[1],
                      grid.origin.z + 0.5 * (T - 1) * grid.spacing[2]};
  out.local.resize(std::size_t(tiles));
  double total[6] = {0, 0, 0, 0, 0, 0};
  for (std::int64_t t = 0; t < tiles; ++t) {
    const double s[6] = {host(t, 0), host(t, 1), host(t, 2), host(t, 3), host(t, 4), host(t, 5)};
    out.local[std::size_t(t)] = float(pearson(s));
    for (int c = 0; c < 6; ++c) total[c] += s[c];
  }
  out.global = pearson(total);
  out.voxels = std::int64_t(total[0]);
  Kokkos::Profiling::popRegion();
  return out;
}

}  // namespace kmol

#define KMOL_INSTANTIATE_CORRELATION(Space)                                           \
  template kmol::Correlation kmol::cross_correlation(const Space&, const kmol::Grid&, \
                                                     const float*, const float*,      \
                                                     const kmol::CorrelationSettings&, bool);
