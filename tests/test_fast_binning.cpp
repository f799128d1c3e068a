// The fast binning of the GPU kernels (host versions of the same arithmetic) against bin_of on
// the correctly rounded root: squares around every edge's threshold and random squares.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

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

TEST(FastBinning, RefusesRangesTooFineForItsRounding) {
  EXPECT_FALSE(fb::fast_kernel_exact(kmol::HistogramRange<float>(1000, 1000.5, 1 << 20)));
}

}  // namespace
