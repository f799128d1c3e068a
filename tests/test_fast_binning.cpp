// The fast binning of the GPU kernels (host versions of the same arithmetic) against bin_of on
// the correctly rounded root: squares around every edge's threshold and random squares.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "kernels/pair_histogram/fast_binning.hpp"

namespace {

namespace fb = kmol::fast_binning;

template <class T>
void expect_fast_bins_equal_bin_of(double r_min, double r_max, std::int32_t n_bins) {
  const kmol::HistogramRange<T> range(r_min, r_max, n_bins);
  ASSERT_TRUE(fb::fast_kernel_exact(range)) << r_min << " " << r_max << " " << n_bins;
  const T low = fb::square_threshold(range.r_min), high = fb::square_threshold(range.r_max);
  const auto check = [&](T r2) {
    if (!(r2 >= low && r2 < high)) return;
    const std::int32_t fast = fb::fast_bin_plus_magic(range, fb::fast_root(r2)) - fb::magic_bits<T>;
    const std::int32_t exact = range.bin_of(std::sqrt(r2));
    ASSERT_EQ(std::min(fast, n_bins - 1), exact) << "r2 = " << r2;
  };
  for (std::int32_t k = 0; k <= n_bins; ++k) {
    const T t = fb::square_threshold(range.edge(k));
    check(t);
    check(std::nextafter(t, T(0)));
    check(std::nextafter(t, T(1e30)));
  }
  std::mt19937_64 rng(n_bins);
  std::uniform_real_distribution<double> u{double(low), double(high)};
  for (int i = 0; i < 100000; ++i) check(T(u(rng)));
}

TEST(FastBinning, EqualsBinOfAroundEveryEdgeInSinglePrecision) {
  expect_fast_bins_equal_bin_of<float>(0, 17.3, 10000);
  expect_fast_bins_equal_bin_of<float>(0, 12, 240);
  expect_fast_bins_equal_bin_of<float>(2.5, 7.75, 333);
}

TEST(FastBinning, EqualsBinOfAroundEveryEdgeInDoublePrecision) {
  expect_fast_bins_equal_bin_of<double>(0, 17.3, 100000);
  expect_fast_bins_equal_bin_of<double>(1.25, 9, 777);
}

// The table kernel: a guess from a root off by up to 8 units in the last place either way, then
// one test against the squared edge above it.
void expect_table_bins_equal_bin_of(double r_min, double r_max, std::int32_t n_bins) {
  const kmol::HistogramRange<float> range(r_min, r_max, n_bins);
  ASSERT_TRUE(fb::table_guess_exact(range)) << r_min << " " << r_max << " " << n_bins;
  const fb::TableGuess guess(range);
  const std::vector<float> edges2 = fb::edge_thresholds(range);
  const float off = 8 * std::numeric_limits<float>::epsilon() / 2;
  const auto check = [&](float r2) {
    if (!(r2 >= edges2.front() && r2 < edges2.back())) return;
    const std::int32_t exact = range.bin_of(std::sqrt(r2));
    for (float error : {-off, 0.0f, off}) {
      const std::int32_t g =
          guess.bin_plus_magic(std::sqrt(r2) * (1 + error)) - fb::magic_bits<float>;
      ASSERT_TRUE(g == exact || g == exact - 1)
          << "r2 = " << r2 << " guess " << g << " bin " << exact;
      ASSERT_EQ(g + (r2 >= edges2[std::size_t(g + 1)] ? 1 : 0), exact) << "r2 = " << r2;
    }
  };
  for (std::int32_t k = 0; k <= n_bins; ++k) {
    check(edges2[std::size_t(k)]);
    check(std::nextafter(edges2[std::size_t(k)], 0.0f));
    check(std::nextafter(edges2[std::size_t(k)], 1e30f));
  }
  std::mt19937_64 rng(n_bins);
  std::uniform_real_distribution<double> u{double(edges2.front()), double(edges2.back())};
  for (int i = 0; i < 100000; ++i) check(float(u(rng)));
}

TEST(FastBinning, TableGuessIsTheBinOrTheOneBefore) {
  expect_table_bins_equal_bin_of(0, 173.2, 10000);
  expect_table_bins_equal_bin_of(0, 12, 240);
  expect_table_bins_equal_bin_of(2.5, 7.75, 333);
  expect_table_bins_equal_bin_of(0, 50, 12000);
}

TEST(FastBinning, RefusesRangesTooFineForItsRounding) {
  EXPECT_FALSE(fb::table_guess_exact(kmol::HistogramRange<float>(1000, 1000.5, 1000)));
  EXPECT_FALSE(fb::fast_kernel_exact(kmol::HistogramRange<float>(1000, 1000.5, 1 << 20)));
}

}  // namespace
