// The solute's centre and offsets in a periodic box (scattering_volume.hpp): a solute wider than
// half the box stays whole, and a compact one keeps its plain centroid.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "drivers/library/scattering_volume.hpp"
#include "kmol/core/box.hpp"

namespace {

using kmol::Vec3;

// Folds x into [0, length).
double fold(double x, double length) { return x - length * std::floor(x / length); }

TEST(SoluteOffsets, ChainWiderThanHalfTheBoxStaysWhole) {
  // 31 atoms 1 Angstrom apart along a bent line crossing the boundary of a 40 Angstrom box:
  // the last is 30 Angstrom from the first, beyond the 20 of a minimum image about it.
  const double length = 40;
  const auto box = kmol::BoxSpec::orthorhombic(length, length, length);
  std::vector<Vec3<double>> whole, xyz;
  std::vector<std::int64_t> solute;
  for (int k = 0; k <= 30; ++k) {
    const Vec3<double> p{24.0 + k, 10.0 + 0.3 * k, 5.0 - 0.2 * k};
    whole.push_back(p);
    xyz.push_back({fold(p.x, length), fold(p.y, length), fold(p.z, length)});
    solute.push_back(k);
  }
  xyz.push_back({1, 1, 1});  // a solvent atom, not in the selection
  Vec3<double> mean{0, 0, 0};
  for (const auto& p : whole) mean = mean + (1.0 / double(whole.size())) * p;
  Vec3<double> centre;
  const auto offsets = kmol::solute_offsets(xyz, solute, box, centre);
  ASSERT_EQ(offsets.size(), whole.size());
  EXPECT_NEAR(fold(centre.x, length), fold(mean.x, length), 1e-9);
  EXPECT_NEAR(fold(centre.y, length), fold(mean.y, length), 1e-9);
  EXPECT_NEAR(fold(centre.z, length), fold(mean.z, length), 1e-9);
  double farthest = 0;
  for (std::size_t k = 0; k < whole.size(); ++k) {
    const Vec3<double> expected = whole[k] - mean;
    EXPECT_NEAR(offsets[k].x, expected.x, 1e-9) << k;
    EXPECT_NEAR(offsets[k].y, expected.y, 1e-9) << k;
    EXPECT_NEAR(offsets[k].z, expected.z, 1e-9) << k;
    farthest = std::max(farthest, std::sqrt(norm2(offsets[k])));
  }
  EXPECT_GT(farthest, 15.0);  // the line's ends, half its 31 Angstrom length from the centre
}

TEST(SoluteOffsets, CompactSoluteKeepsItsCentroid) {
  const auto box = kmol::BoxSpec::orthorhombic(30, 30, 30);
  const std::vector<Vec3<double>> xyz{{29.5, 3, 3}, {0.5, 3, 3}, {0.5, 4, 3}, {29.5, 4, 4}};
  Vec3<double> centre;
  const auto offsets = kmol::solute_offsets(xyz, {0, 1, 2, 3}, box, centre);
  EXPECT_NEAR(fold(centre.x, 30), 0.0, 1e-12);
  EXPECT_NEAR(centre.y, 3.5, 1e-12);
  EXPECT_NEAR(centre.z, 3.25, 1e-12);
  EXPECT_NEAR(offsets[0].x, -0.5, 1e-12);
  EXPECT_NEAR(offsets[1].x, 0.5, 1e-12);
  EXPECT_NEAR(offsets[3].z, 0.75, 1e-12);
}

}  // namespace
