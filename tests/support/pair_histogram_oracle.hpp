#pragma once
// Brute-force reference for pair histograms, in double precision, sharing no code with the
// kernels: the shortest image is found by trying every lattice translation n in [-2, 2]^3 of the
// cell as given (not reduced), and bins by binary search over explicitly listed edges.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "kernels/pair_histogram/pair_histogram.hpp"

namespace kmol::test {

inline double oracle_distance(const BoxSpec& box, Vec3<double> a, Vec3<double> b) {
  const double dx = b.x - a.x, dy = b.y - a.y, dz = b.z - a.z;
  if (box.kind == BoxKind::none) return std::sqrt(dx * dx + dy * dy + dz * dz);
  double best = std::numeric_limits<double>::infinity();
  const auto& e = box.edges;
  // Wrap once in fractional coordinates of the given cell, then search images around it.
  const double det = e[0].x * (e[1].y * e[2].z - e[1].z * e[2].y) -
                     e[0].y * (e[1].x * e[2].z - e[1].z * e[2].x) +
                     e[0].z * (e[1].x * e[2].y - e[1].y * e[2].x);
  auto frac = [&](int i) {
    const Vec3<double> u = e[(i + 1) % 3], v = e[(i + 2) % 3];
    const double cx = u.y * v.z - u.z * v.y, cy = u.z * v.x - u.x * v.z, cz = u.x * v.y - u.y * v.x;
    return (dx * cx + dy * cy + dz * cz) / det;
  };
  const double shift[3] = {std::round(frac(0)), std::round(frac(1)), std::round(frac(2))};
  for (int i = -2; i <= 2; ++i)
    for (int j = -2; j <= 2; ++j)
      for (int k = -2; k <= 2; ++k) {
        const double n0 = i - shift[0], n1 = j - shift[1], n2 = k - shift[2];
        const double x = dx + n0 * e[0].x + n1 * e[1].x + n2 * e[2].x;
        const double y = dy + n0 * e[0].y + n1 * e[1].y + n2 * e[2].y;
        const double z = dz + n0 * e[0].z + n1 * e[1].z + n2 * e[2].z;
        best = std::min(best, std::sqrt(x * x + y * y + z * z));
      }
  return best;
}

// The bin edges listed explicitly, r_max last.
inline std::vector<double> oracle_edges(const PairHistogramSettings& s) {
  const HistogramRange<double> range(s.r_min, s.r_max, s.n_bins);
  std::vector<double> edges(std::size_t(s.n_bins) + 1);
  for (std::int32_t k = 0; k <= s.n_bins; ++k)
    edges[k] = k == s.n_bins ? s.r_max : std::fma(double(k), range.width, s.r_min);
  return edges;
}

// The histogram of pair (i, j) of one set with species, or -1 where its species pair is off.
template <class T>
std::int32_t oracle_histogram(const PairHistogramInput<T>& in, const PairHistogramSettings& s,
                              std::int64_t i, std::int64_t j) {
  if (!in.species) return 0;
  const std::int32_t s1 = std::min(in.species[i], in.species[j]);
  const std::int32_t s2 = std::max(in.species[i], in.species[j]);
  const std::int32_t h = s1 * s.n_species - s1 * (s1 - 1) / 2 + (s2 - s1);
  return !s.species_pairs_enabled.empty() && !s.species_pairs_enabled[h] ? -1 : h;
}

// Adds distance r to its bin of histogram h, if it lies in [r_min, r_max).
inline void oracle_add(std::vector<std::uint64_t>& counts, const std::vector<double>& edges,
                       std::int32_t h, double r) {
  if (!(r >= edges.front() && r < edges.back())) return;
  const auto k = std::upper_bound(edges.begin(), edges.end(), r) - edges.begin() - 1;
  ++counts[std::size_t(h) * (edges.size() - 1) + std::size_t(k)];
}

// Counts [histogram][bin] for the same input and settings as kmol::pair_histogram.
template <class T>
std::vector<std::uint64_t> oracle_pair_histogram(const PairHistogramInput<T>& in,
                                                 const PairHistogramSettings& s) {
  const std::vector<double> edges = oracle_edges(s);
  const std::int32_t n_hist = in.species ? s.n_species * (s.n_species + 1) / 2 : 1;
  std::vector<std::uint64_t> counts(std::size_t(n_hist) * s.n_bins, 0);
  const Vec3<T>* b = in.one_set() ? in.a : in.b;
  const std::int64_t n_b = in.one_set() ? in.n_a : in.n_b;
  const std::int32_t* mol_b = in.one_set() ? in.molecule_a : in.molecule_b;
  for (std::int64_t i = 0; i < in.n_a; ++i)
    for (std::int64_t j = in.one_set() ? i + 1 : 0; j < n_b; ++j) {
      if (in.molecule_a && in.molecule_a[i] == mol_b[j]) continue;
      const std::int32_t h = oracle_histogram(in, s, i, j);
      if (h < 0) continue;
      oracle_add(
          counts, edges, h,
          oracle_distance(s.box, in.a[i].template cast<double>(), b[j].template cast<double>()));
    }
  return counts;
}

}  // namespace kmol::test
