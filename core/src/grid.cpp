#include "kmol/core/grid.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <vector>

#include "kmol/core/errors.hpp"
#include "kmol/core/map_check.hpp"
#include "kmol/core/significant.hpp"

namespace kmol {
namespace {

std::string bytes(double b) {
  char text[32];
  if (b >= 1e9)
    std::snprintf(text, sizeof text, "%.1f GB", b * 1e-9);
  else
    std::snprintf(text, sizeof text, "%.0f MB", b * 1e-6);
  return text;
}

// The extremes of one axis: the lowest and highest coordinate, the atoms holding them, and the
// next value inward (the bounding box without that atom).
struct AxisExtremes {
  double lo = 0, hi = 0, next_lo = 0, next_hi = 0;
  std::int64_t lo_atom = 0, hi_atom = 0;
};

// Of the atoms not set aside (all when `aside` is empty); at least two must remain.
AxisExtremes extremes(const Vec3<double>* positions, std::int64_t n, int axis,
                      const std::vector<char>& aside = {}) {
  auto at = [&](std::int64_t a) { return (&positions[a].x)[axis]; };
  auto kept = [&](std::int64_t a) { return aside.empty() || !aside[std::size_t(a)]; };
  AxisExtremes e;
  std::int64_t seen = 0;
  for (std::int64_t a = 0; a < n; ++a) {
    if (!kept(a)) continue;
    const double v = at(a);
    if (seen++ == 0) {
      e.lo = e.hi = e.next_lo = e.next_hi = v;
      e.lo_atom = e.hi_atom = a;
      continue;
    }
    if (v < e.lo) {
      e.next_lo = e.lo;
      e.lo = v;
      e.lo_atom = a;
    } else if (seen == 2 || v < e.next_lo) {
      e.next_lo = v;
    }
    if (v > e.hi) {
      e.next_hi = e.hi;
      e.hi = v;
      e.hi_atom = a;
    } else if (seen == 2 || v > e.next_hi) {
      e.next_hi = v;
    }
  }
  return e;
}

// Points of the lattice over [lo, hi] on every axis grown by the padding; infinity beyond
// max_indexable_points.
double lattice_points(const double lo[3], const double hi[3], double spacing, double padding,
                      std::array<std::int64_t, 3>* counts = nullptr) {
  double points = 1;
  for (int d = 0; d < 3; ++d) {
    const double steps = std::ceil((hi[d] - lo[d] + 2 * padding) / spacing);
    if (!(steps < double(max_indexable_points))) return std::numeric_limits<double>::infinity();
    if (counts) (*counts)[std::size_t(d)] = std::int64_t(steps) + 1;
    points *= steps + 1;
  }
  return points < double(max_indexable_points) ? points : std::numeric_limits<double>::infinity();
}

// The atom whose removal shrinks the lattice most, the points left without it, and how many
// atoms stand apart with it.
struct Stretch {
  std::int64_t atom = -1;
  double points_without = 0;
  std::array<std::int64_t, 3> counts_without{};
  std::int64_t apart = 1;
};

Stretch stretching_atom(const Vec3<double>* positions, std::int64_t n, double spacing,
                        double padding, const std::vector<char>& aside = {}) {
  AxisExtremes e[3];
  for (int d = 0; d < 3; ++d) e[d] = extremes(positions, n, d, aside);
  Stretch best;
  if (n < 2) return best;
  best.points_without = std::numeric_limits<double>::infinity();
  for (int d = 0; d < 3; ++d)
    for (const std::int64_t candidate : {e[d].lo_atom, e[d].hi_atom}) {
      double lo[3], hi[3];
      for (int c = 0; c < 3; ++c) {
        lo[c] = e[c].lo_atom == candidate ? e[c].next_lo : e[c].lo;
        hi[c] = e[c].hi_atom == candidate ? e[c].next_hi : e[c].hi;
      }
      std::array<std::int64_t, 3> counts{};
      const double points = lattice_points(lo, hi, spacing, padding, &counts);
      if (points < best.points_without) best = {candidate, points, counts};
    }
  return best;
}

// A few atoms far apart stretch the lattice as one does: after `first` (the atom whose removal
// shrinks it most) the others are set aside one after another, each the one whose removal shrinks
// the lattice most, up to `few` in all, until the rest need 64 times fewer points than `points`.
// Returns `first` with the points the rest need and how many stood apart; atom -1 when no such
// few exist.
Stretch stretching_atoms(const Vec3<double>* positions, std::int64_t n, double spacing,
                         double padding, const Stretch& first, double points, std::int64_t few) {
  std::vector<char> aside(std::size_t(n), 0);
  aside[std::size_t(first.atom)] = 1;
  for (std::int64_t m = 2; m <= few && n - m >= 2; ++m) {
    const Stretch s = stretching_atom(positions, n, spacing, padding, aside);
    if (s.atom < 0) break;
    aside[std::size_t(s.atom)] = 1;
    if (s.points_without * 64 < points) {
      Stretch found = first;
      found.points_without = s.points_without;
      found.counts_without = s.counts_without;
      found.apart = m;
      return found;
    }
  }
  return {};
}

std::string counts_text(const std::array<std::int64_t, 3>& c) {
  return std::to_string(c[0]) + " x " + std::to_string(c[1]) + " x " + std::to_string(c[2]);
}

[[noreturn]] void refuse_stretch(const Vec3<double>* positions, const std::string* names,
                                 const Stretch& s, const std::string& lattice, double points) {
  const Vec3<double>& p = positions[s.atom];
  const std::string atom = "atom " + std::to_string(s.atom + 1) +
                           (names ? " (" + names[s.atom] + ")" : std::string()) + " at (" +
                           significant(p.x, 4) + ", " + significant(p.y, 4) + ", " +
                           significant(p.z, 4) + ") A";
  const std::string without = std::isfinite(s.points_without)
                                  ? "; the other atoms need " + counts_text(s.counts_without) +
                                        " = " + significant(s.points_without, 4) + " points"
                                  : "";
  const std::string who = s.apart == 1
                              ? atom + " lies far from the others and stretches"
                              : atom + " and " + std::to_string(s.apart - 1) + " other atom" +
                                    (s.apart > 2 ? "s" : "") + " lie far from the rest and stretch";
  throw InputError(
      {"", "atoms", long(s.atom + 1)},
      who + " the lattice to " + lattice +
          (std::isfinite(points) ? " (" + bytes(4 * points) + " per single-precision map)" : "") +
          without +
          ": check its coordinates, or give a --spacing or --padding (or an "
          "explicit lattice, --origin and --counts) that makes the lattice smaller");
}

}  // namespace

std::int64_t checked_points(const std::array<std::int64_t, 3>& counts, std::int64_t limit) {
  std::int64_t points = 1;
  for (const std::int64_t c : counts) {
    if (c < 1 || c > limit / points) return -1;
    points *= c;
  }
  return points;
}

void check_map_grid(const Grid& grid, const std::string& file, const std::string& spacing_field,
                    const std::string& origin_field) {
  if (checked_points(grid.counts) < 0)
    throw InputError({file, "counts", -1},
                     "the grid's counts " + counts_text(grid.counts) +
                         " must be positive and multiply to at most 2^36 points");
  const char* axes = "xyz";
  for (int a = 0; a < 3; ++a) {
    const double h = grid.spacing[std::size_t(a)];
    if (!(h >= min_map_spacing && h <= max_map_spacing))
      throw InputError({file, spacing_field, -1},
                       std::string("the spacing along ") + axes[a] + " is " + significant(h, 4) +
                           " A: expected 1e-4 to 1e4 Angstrom (a damaged header?)");
    const double o = (&grid.origin.x)[a];
    if (!(std::abs(o) <= max_map_origin))
      throw InputError({file, origin_field, -1},
                       std::string("the origin's ") + axes[a] + " is " + significant(o, 4) +
                           " A: expected a finite coordinate within 1e7 Angstrom");
  }
}

Grid grid_around(const Vec3<double>* positions, std::int64_t n, double spacing, double padding,
                 const std::string* names) {
  if (!(spacing > 0) || !std::isfinite(spacing))
    throw InputError({"", "--spacing", -1}, "must be positive (Angstrom)");
  if (!(padding >= 0) || !std::isfinite(padding))
    throw InputError({"", "--padding", -1}, "must not be negative (Angstrom)");
  if (n <= 0) throw InputError({"", "atoms", -1}, "no atoms to place a grid around");
  for (std::int64_t a = 0; a < n; ++a)
    if (!std::isfinite(positions[a].x) || !std::isfinite(positions[a].y) ||
        !std::isfinite(positions[a].z))
      throw InputError({"", "atoms", long(a + 1)}, "the coordinates must be finite");
  double lo[3], hi[3];
  for (int d = 0; d < 3; ++d) {
    const AxisExtremes e = extremes(positions, n, d);
    lo[d] = e.lo;
    hi[d] = e.hi;
  }
  Grid lattice;
  const double points = lattice_points(lo, hi, spacing, padding, &lattice.counts);
  // One atom far from the rest (a damaged or misplaced coordinate) is named; a lattice too large
  // for any other reason is the spacing's.
  // Past 2^36 points (the limit map headers get) the coordinates, not a wish, made the lattice.
  const bool uncountable = !std::isfinite(points);
  const bool huge = uncountable || points > 68719476736.0;
  if (huge || points > double(1 << 24)) {
    const Stretch s = stretching_atom(positions, n, spacing, padding);
    const std::string size =
        uncountable ? "more points than 64 bits count"
                    : counts_text(lattice.counts) + " = " + significant(points, 4) + " points";
    // An atom stands apart only from a population: with few atoms each spans the lattice.
    if (s.atom >= 0 && (uncountable ? std::isfinite(s.points_without)
                                    : (n > 8 || huge) && s.points_without * 64 < points))
      refuse_stretch(positions, names, s, size, points);
    // Up to one atom in eight, at most 8, may stand apart together.
    if (s.atom >= 0 && !uncountable && n > 8) {
      const Stretch several = stretching_atoms(positions, n, spacing, padding, s, points,
                                               std::min<std::int64_t>(8, n / 8));
      if (several.atom >= 0) refuse_stretch(positions, names, several, size, points);
    }
    if (uncountable)
      throw InputError({"", "--spacing", -1},
                       "gives a lattice of " + size + " around the atoms (they span " +
                           significant(hi[0] - lo[0], 4) + " x " + significant(hi[1] - lo[1], 4) +
                           " x " + significant(hi[2] - lo[2], 4) +
                           " A): check the coordinates or the spacing");
  }
  lattice.spacing = {spacing, spacing, spacing};
  double origin[3];
  for (int d = 0; d < 3; ++d)
    origin[d] = 0.5 * (lo[d] + hi[d]) - 0.5 * double(lattice.counts[std::size_t(d)] - 1) * spacing;
  lattice.origin = {origin[0], origin[1], origin[2]};
  return lattice;
}

Grid grid_around(const Vec3<double>* positions, std::int64_t n, double spacing, double padding) {
  return grid_around(positions, n, spacing, padding, nullptr);
}

}  // namespace kmol
