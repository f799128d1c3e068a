#pragma once
// Brute-force reference for pair histograms counting every periodic image within r_max, in double
// precision from the coordinates as given (not wrapped) and the cell as given (not reduced),
// sharing no code with the kernels: for each pair, every translation n whose image can lie within
// r_max (|fraction_i(d + n)| <= r_max / height_i). One set: pairs i < j at every n, and each atom
// with its own images once per pair +-n. An excluded pair (same molecule) loses its shortest
// image only.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "kernels/pair_histogram/pair_histogram.hpp"
#include "support/pair_histogram_oracle.hpp"

namespace kmol::test {

struct OracleCell {
  Vec3<double> e[3], reciprocal[3];
  double height[3];

  explicit OracleCell(const BoxSpec& box) {
    for (int i = 0; i < 3; ++i) e[i] = box.edges[i];
    const auto cross3 = [](Vec3<double> u, Vec3<double> v) {
      return Vec3<double>{u.y * v.z - u.z * v.y, u.z * v.x - u.x * v.z, u.x * v.y - u.y * v.x};
    };
    const Vec3<double> c0 = cross3(e[1], e[2]);
    const double det = e[0].x * c0.x + e[0].y * c0.y + e[0].z * c0.z;
    for (int i = 0; i < 3; ++i) {
      const Vec3<double> c = cross3(e[(i + 1) % 3], e[(i + 2) % 3]);
      reciprocal[i] = {c.x / det, c.y / det, c.z / det};
      height[i] = std::abs(det) / std::sqrt(c.x * c.x + c.y * c.y + c.z * c.z);
    }
  }
};

// Lengths of the images of d within r_max, the shortest first.
inline std::vector<double> image_lengths(const OracleCell& cell, Vec3<double> d, double r_max,
                                         bool positive_half_only) {
  int lo[3], hi[3];
  for (int i = 0; i < 3; ++i) {
    const Vec3<double>& r = cell.reciprocal[i];
    const double f = d.x * r.x + d.y * r.y + d.z * r.z;
    const double reach = r_max / cell.height[i];
    lo[i] = int(std::ceil(-reach - f)) - 1;
    hi[i] = int(std::floor(reach - f)) + 1;
  }
  std::vector<double> out;
  for (int p = lo[0]; p <= hi[0]; ++p)
    for (int q = lo[1]; q <= hi[1]; ++q)
      for (int s = lo[2]; s <= hi[2]; ++s) {
        if (positive_half_only) {
          const int first = p != 0 ? p : q != 0 ? q : s;
          if (first <= 0) continue;
        }
        const double x = d.x + p * cell.e[0].x + q * cell.e[1].x + s * cell.e[2].x;
        const double y = d.y + p * cell.e[0].y + q * cell.e[1].y + s * cell.e[2].y;
        const double z = d.z + p * cell.e[0].z + q * cell.e[1].z + s * cell.e[2].z;
        const double r = std::sqrt(x * x + y * y + z * z);
        if (r < r_max * 1.01) out.push_back(r);
      }
  std::sort(out.begin(), out.end());
  return out;
}

template <class T>
std::vector<std::uint64_t> oracle_all_images(const PairHistogramInput<T>& in,
                                             const PairHistogramSettings& s) {
  const OracleCell cell(s.box);
  const std::vector<double> edges = oracle_edges(s);
  const std::int32_t n_hist = in.species ? s.n_species * (s.n_species + 1) / 2 : 1;
  std::vector<std::uint64_t> counts(std::size_t(n_hist) * s.n_bins, 0);
  const bool one = in.one_set();
  const Vec3<T>* b = one ? in.a : in.b;
  const std::int32_t* mol_b = one ? in.molecule_a : in.molecule_b;
  for (std::int64_t i = 0; i < in.n_a; ++i)
    for (std::int64_t j = one ? i : 0; j < (one ? in.n_a : in.n_b); ++j) {
      const std::int32_t h = oracle_histogram(in, s, i, j);
      if (h < 0) continue;
      const Vec3<double> d = b[j].template cast<double>() - in.a[i].template cast<double>();
      const bool self = in.one_set() && i == j;
      std::vector<double> lengths = image_lengths(cell, d, s.r_max, self);
      const bool excluded = !self && in.molecule_a && in.molecule_a[i] == mol_b[j];
      if (excluded && !lengths.empty()) lengths.erase(lengths.begin());
      for (double r : lengths) oracle_add(counts, edges, h, r);
    }
  return counts;
}

}  // namespace kmol::test
