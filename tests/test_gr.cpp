#include <gtest/gtest.h>

#include <cmath>

#include "kernels/pair_histogram/gr.hpp"

TEST(Rdf, UniformCountsOfAnIdealGasGiveOne) {
  // Expected counts of an ideal gas: P * shell / V per frame.
  kmol::RdfCountsSummary s;
  s.r_min = 0;
  s.r_max = 10;
  s.frames = 400;
  s.n_a = 1000;
  s.one_set = true;
  s.mean_inverse_volume = 1.0 / 8000.0;
  const double pairs = 1000.0 * 999.0 / 2;
  for (int k = 0; k < 10; ++k) {
    const double shell = 4.0 / 3.0 * M_PI * (std::pow(k + 1, 3) - std::pow(k, 3));
    s.counts.push_back(std::uint64_t(std::llround(400 * pairs * shell / 8000.0)));
  }
  const auto rdf = kmol::normalize_rdf(s, kmol::RdfNormalization::rdf);
  for (double g : rdf.g) EXPECT_NEAR(g, 1.0, 1e-4);
  EXPECT_NEAR(rdf.centres[0], 0.5, 1e-12);
  // n(r_max) = mean number of neighbours within r_max: 2 * pairs / N * (4/3 pi 10^3 / V).
  EXPECT_NEAR(rdf.coordination.back(), 999.0 * 4.0 / 3.0 * M_PI * 1000 / 8000, 0.05);
}

TEST(Rdf, DensityAndNoneModes) {
  kmol::RdfCountsSummary s;
  s.counts = {10, 20};
  s.r_min = 1;
  s.r_max = 3;
  s.frames = 2;
  s.n_a = 5;
  s.n_b = 7;
  const auto none = kmol::normalize_rdf(s, kmol::RdfNormalization::none);
  EXPECT_DOUBLE_EQ(none.g[1], 10.0);
  const auto density = kmol::normalize_rdf(s, kmol::RdfNormalization::density);
  EXPECT_DOUBLE_EQ(density.g[0], 10.0 / (2 * 5 * 4.0 / 3.0 * M_PI * 7));
  EXPECT_DOUBLE_EQ(density.coordination[1], 30.0 / 10.0);
  EXPECT_THROW(kmol::normalize_rdf(s, kmol::RdfNormalization::rdf), std::exception);
}
