#include "kmol/core/map_check.hpp"

#include <cmath>
#include <cstdio>

#include "kmol/core/errors.hpp"

namespace kmol {
namespace {

std::string point_text(const Grid& grid, std::int64_t p) {
  const std::int64_t nx = grid.counts[0], ny = grid.counts[1];
  const std::int64_t i = p % nx, j = (p / nx) % ny, k = p / (nx * ny);
  char text[160];
  std::snprintf(text, sizeof text, "(%lld, %lld, %lld), at (%.4g, %.4g, %.4g) A", (long long)i,
                (long long)j, (long long)k, grid.origin.x + double(i) * grid.spacing[0],
                grid.origin.y + double(j) * grid.spacing[1],
                grid.origin.z + double(k) * grid.spacing[2]);
  return text;
}

// The scan every overload shares: `finite(p)` and `zero(p)` of point p.
template <class Finite, class Zero>
void check_points(const Grid& grid, const MapExpectation& expect, Finite finite, Zero zero) {
  const std::int64_t points = checked_points(grid.counts);
  if (points <= 0) throw InputError({expect.file, "", -1}, "the " + expect.map + " has no points");
  std::int64_t bad = 0, first_bad = -1, zeros = 0;
  for (std::int64_t p = 0; p < points; ++p) {
    if (!finite(p)) {
      if (first_bad < 0) first_bad = p;
      ++bad;
    } else if (zero(p)) {
      ++zeros;
    }
  }
  if (bad > 0)
    throw InputError({expect.file, "", -1}, "the " + expect.map + " has " + std::to_string(bad) +
                                                " non-finite values of " + std::to_string(points) +
                                                " (the first at lattice point " +
                                                point_text(grid, first_bad) +
                                                "); nothing written: " + expect.cause);
  if (expect.zero_is_empty && zeros == points)
    throw InputError({expect.file, "", -1}, "the " + expect.map + " is zero at all " +
                                                std::to_string(points) +
                                                " points; nothing written: " + expect.empty_cause);
}

}  // namespace

void check_map(const Grid& grid, const float* values, const MapExpectation& expect) {
  check_points(
      grid, expect, [&](std::int64_t p) { return std::isfinite(values[p]); },
      [&](std::int64_t p) { return values[p] == 0; });
}

void check_map(const Grid& grid, const double* values, const MapExpectation& expect) {
  check_points(
      grid, expect, [&](std::int64_t p) { return std::isfinite(values[p]); },
      [&](std::int64_t p) { return values[p] == 0; });
}

void check_half_map(const Grid& grid, const std::uint16_t* bits, const MapExpectation& expect) {
  // binary16: exponent bits all ones is infinity or NaN; no bits but the sign is zero.
  check_points(
      grid, expect, [&](std::int64_t p) { return (bits[p] & 0x7c00u) != 0x7c00u; },
      [&](std::int64_t p) { return (bits[p] & 0x7fffu) == 0; });
}

}  // namespace kmol
