// Forced launch parameters (the tuning sweeps' knobs): the raw CUDA implementation counts the same
// under any valid choice, refuses invalid ones by name, and other implementations refuse knobs
// they do not have.
#include <random>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "kernels/pair_histogram/pair_histogram.hpp"
#include "kmol/core/errors.hpp"
#include "support/backend_test.hpp"

namespace {

using kmol::PairHistogramImpl;
using kmol::PairHistogramSettings;
using kmol::Vec3;

std::vector<Vec3<float>> cube(std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> u(0, 20);
  std::vector<Vec3<float>> pts(n);
  for (auto& p : pts) p = {u(rng), u(rng), u(rng)};
  return pts;
}

PairHistogramSettings ortho_settings(PairHistogramImpl impl) {
  PairHistogramSettings s;
  s.box = kmol::BoxSpec::orthorhombic(20, 20, 20);
  s.r_max = 10;
  s.n_bins = 1000;
  s.impl = impl;
  return s;
}

}  // namespace

KMOL_BACKEND_TEST(PairHistogramLaunch, KnobsOfOtherImplementationsAreRefused) {
  const auto a = cube(200, 1);
  PairHistogramSettings s = ortho_settings(PairHistogramImpl::kokkos);
  s.launch.block = 256;
  EXPECT_THROW(kmol::pair_histogram(ExecSpace(), kmol::one_set(a.data(), 200), s), kmol::UnsupportedError);
  s.launch = {};
  s.launch.tile = -1;
  EXPECT_THROW(kmol::pair_histogram(ExecSpace(), kmol::one_set(a.data(), 200), s), kmol::InputError);
}

KMOL_BACKEND_TEST(PairHistogramLaunch, ForcedCudaLaunchesCountTheSame) {
  if constexpr (std::is_same_v<typename ExecSpace::memory_space, Kokkos::HostSpace>) {
    GTEST_SKIP() << "the forced launch parameters are knobs of the cuda implementation";
  } else {
    const auto a = cube(3000, 2), b = cube(2500, 3);
    const auto two = kmol::two_sets(a.data(), 3000, b.data(), 2500);
    const auto one = kmol::one_set(a.data(), 3000);
    const PairHistogramSettings tuned = ortho_settings(PairHistogramImpl::cuda);
    const auto expected_two = kmol::pair_histogram(ExecSpace(), two, tuned).counts;
    const auto expected_one = kmol::pair_histogram(ExecSpace(), one, tuned).counts;
    for (int block : {0, 64, 96, 1024})
      for (std::int64_t bins_per_sweep : {0, 128, 1000})
        for (int tile : {0, 100, 4096}) {
          PairHistogramSettings s = tuned;
          s.launch = {block, bins_per_sweep, tile};
          SCOPED_TRACE(testing::Message() << "block " << block << " bins/sweep " << bins_per_sweep << " tile " << tile);
          EXPECT_EQ(kmol::pair_histogram(ExecSpace(), two, s).counts, expected_two);
          EXPECT_EQ(kmol::pair_histogram(ExecSpace(), one, s).counts, expected_one);
        }
    for (kmol::PairHistogramLaunchOverride bad : {kmol::PairHistogramLaunchOverride{48, 0, 0},
                                                  kmol::PairHistogramLaunchOverride{2048, 0, 0},
                                                  kmol::PairHistogramLaunchOverride{0, 100000000, 0},
                                                  kmol::PairHistogramLaunchOverride{0, 0, 1000000}}) {
      PairHistogramSettings s = tuned;
      s.launch = bad;
      EXPECT_THROW(kmol::pair_histogram(ExecSpace(), two, s), std::invalid_argument);
    }
  }
}
