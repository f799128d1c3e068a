// Forced launch parameters (the tuning sweeps' knobs): the raw CUDA implementation counts the same
// under any valid choice, refuses invalid ones by name, and other implementations refuse knobs
// they do not have.
#include <random>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "kernels/pair_histogram/pair_histogram.hpp"
#include "kmol/core/errors.hpp"
#include "kmol/core/execution_space.hpp"
#include "support/backend_test.hpp"
#include "support/test_sizes.hpp"

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
  EXPECT_THROW(kmol::pair_histogram(ExecSpace(), kmol::one_set(a.data(), 200), s),
               kmol::UnsupportedError);
  s.launch = {};
  s.launch.tile = -1;
  EXPECT_THROW(kmol::pair_histogram(ExecSpace(), kmol::one_set(a.data(), 200), s),
               kmol::InputError);
}

KMOL_BACKEND_TEST(PairHistogramLaunch, ForcedCudaLaunchesCountTheSame) {
  if constexpr (kmol::runs_on_host<ExecSpace>) {
    GTEST_SKIP() << "the forced launch parameters are knobs of the cuda implementation";
  } else {
    // Under the sanitizers 600 x 500 atoms: still several tiles of 100 and windows of 128 bins.
    const std::int64_t n_a = kmol::test::sized<std::int64_t>(3000, 600),
                       n_b = kmol::test::sized<std::int64_t>(2500, 500);
    const auto a = cube(n_a, 2), b = cube(n_b, 3);
    const auto two = kmol::two_sets(a.data(), n_a, b.data(), n_b);
    const auto one = kmol::one_set(a.data(), n_a);
    const PairHistogramSettings tuned = ortho_settings(PairHistogramImpl::cuda);
    const auto expected_two = kmol::pair_histogram(ExecSpace(), two, tuned).counts;
    const auto expected_one = kmol::pair_histogram(ExecSpace(), one, tuned).counts;
    for (int block : {0, 64, 96, 1024})
      for (std::int64_t bins_per_sweep : {0, 128, 1000})
        for (int tile : {0, 100, 4096}) {
          PairHistogramSettings s = tuned;
          s.launch = {block, bins_per_sweep, tile};
          SCOPED_TRACE(testing::Message() << "block " << block << " bins/sweep " << bins_per_sweep
                                          << " tile " << tile);
          EXPECT_EQ(kmol::pair_histogram(ExecSpace(), two, s).counts, expected_two);
          EXPECT_EQ(kmol::pair_histogram(ExecSpace(), one, s).counts, expected_one);
        }
    for (kmol::PairHistogramLaunchOverride bad :
         {kmol::PairHistogramLaunchOverride{48, 0, 0},
          kmol::PairHistogramLaunchOverride{2048, 0, 0},
          kmol::PairHistogramLaunchOverride{0, 100000000, 0},
          kmol::PairHistogramLaunchOverride{0, 0, 1000000}}) {
      PairHistogramSettings s = tuned;
      s.launch = bad;
      EXPECT_THROW(kmol::pair_histogram(ExecSpace(), two, s), std::invalid_argument);
    }
  }
}

// Sets large enough to be put in Morton order, where whole work units are found to count entirely
// (no range tests) or not at all, and periodic units take one shift per axis: counts equal the
// portable engine's, in and out of a box, for two sets and for one, with r_min above zero.
KMOL_BACKEND_TEST(PairHistogramLaunch, UnitsSortedByReachCountTheSame) {
  if constexpr (kmol::runs_on_host<ExecSpace>) {
    GTEST_SKIP() << "the units sorted by reach are the cuda implementation's";
  } else {
    const std::int64_t n = 70000;  // above the Morton-order threshold
    // Under the sanitizers: 2,000 atoms of A against the sorted B, and r_max 4 instead of 10 and
    // 40, so that most units lie out of reach; every path (box, r_min, edge table) still runs.
    const std::int64_t n_a = kmol::test::sized<std::int64_t>(n, 2000);
    const double reach_in_box = kmol::test::sized(10.0, 4.0),
                 reach_without = kmol::test::sized(40.0, 4.0);
    const auto a = cube(n, 6), b = cube(n, 7);
    auto b_elsewhere = b;  // periodic images two, minus one and three boxes away
    for (auto& p : b_elsewhere) p = {p.x + 40, p.y - 20, p.z + 60};
    for (const auto& box : {kmol::BoxSpec::none(), kmol::BoxSpec::orthorhombic(20, 20, 20)})
      for (double r_min : {0.0, 0.3 * reach_in_box})
        for (std::int32_t bins : {3000, 20000}) {  // the edge table holds 3,000, not 20,000
          PairHistogramSettings s;
          s.box = box;
          s.r_min = r_min;
          s.r_max = box.kind == kmol::BoxKind::none ? reach_without : reach_in_box;
          s.n_bins = bins;
          s.impl = PairHistogramImpl::kokkos;
          SCOPED_TRACE(testing::Message()
                       << kmol::to_string(box.kind) << " r_min " << r_min << " bins " << bins);
          const auto far_b = kmol::two_sets(a.data(), n_a, b_elsewhere.data(), n);
          for (const auto& input :
               {kmol::two_sets(a.data(), n_a, b.data(), n), kmol::one_set(a.data(), n), far_b}) {
            if (box.kind == kmol::BoxKind::none && input.b == far_b.b) continue;
            const auto expected = kmol::pair_histogram(ExecSpace(), input, s).counts;
            PairHistogramSettings cuda = s;
            cuda.impl = PairHistogramImpl::cuda;
            EXPECT_EQ(kmol::pair_histogram(ExecSpace(), input, cuda).counts, expected);
          }
        }
  }
}
