#pragma once
// Limits of maps and lattices, and the check every map makes before it is written or returned (the
// command line's potential, surf --out, cc and orbital maps, and the Python module's): its values
// are finite, it has points, and it is not zero everywhere where that says nothing (a density or
// orbital map whose lattice misses the atoms). A map that fails is refused with InputError (exit 2,
// ValueError in Python), naming the first bad point and the cause the caller gives.
#include <array>
#include <cstdint>
#include <string>

#include "kmol/core/grid.hpp"

namespace kmol {

// The most points a map may have (256 GiB of float values): a file header or lattice beyond it is
// refused before anything is allocated.
inline constexpr std::int64_t max_grid_points = std::int64_t(1) << 36;

// counts[0] * counts[1] * counts[2], or -1 when a count is below 1 or the product passes
// `limit`. Checked factor by factor, so it never overflows.
std::int64_t checked_points(const std::array<std::int64_t, 3>& counts,
                            std::int64_t limit = max_grid_points);
// The limit of a lattice the user gives (--counts): what 64 bits index; the preflight weighs
// its memory.
inline constexpr std::int64_t max_indexable_points = std::int64_t(1) << 62;

// The physical range of a map read from a file: spacings of 1e-4 to 1e4 Angstrom, an origin
// within 1e7 Angstrom, values within 1e30. Beyond them the header or data is damaged, and single
// precision arithmetic on the map (surface area, volume, interpolation) underflows or overflows.
inline constexpr double min_map_spacing = 1e-4, max_map_spacing = 1e4, max_map_origin = 1e7,
                        max_map_value = 1e30;

// Throws InputError naming `file` and the field (`spacing_field`, `origin_field`, "counts") when
// the grid lies outside the ranges above or has more than max_grid_points points.
void check_map_grid(const Grid& grid, const std::string& file, const std::string& spacing_field,
                    const std::string& origin_field);

// grid_around (grid.hpp), which also refuses up front a lattice that one atom stretches: of more
// than 8 atoms, one making a lattice of more than 2^24 points over 64 times the lattice of the
// others, or one making it too large to count in 64 bits (a damaged or misplaced coordinate would
// otherwise make the run allocate and compute for minutes). The message names the atom (index from
// 1, `names[a]` where not null, coordinates), the lattice's points and memory, the lattice the
// other atoms need, and the options that change it.
Grid grid_around(const Vec3<double>* positions, std::int64_t n, double spacing, double padding,
                 const std::string* names);

struct MapExpectation {
  std::string map;            // what the map is, for the message ("potential map")
  std::string file;           // where it was going ("" when returned)
  std::string cause;          // what makes a value non-finite and the option that changes it
  bool zero_is_empty = true;  // an all-zero map is refused (say why in `empty_cause`)
  std::string empty_cause;
};

// `values`: grid.points() values in the grid's order.
void check_map(const Grid& grid, const float* values, const MapExpectation& expect);
void check_map(const Grid& grid, const double* values, const MapExpectation& expect);
// IEEE binary16 bits (kmol surf --storage half).
void check_half_map(const Grid& grid, const std::uint16_t* bits, const MapExpectation& expect);

}  // namespace kmol
