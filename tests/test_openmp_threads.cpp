// Kernels whose OpenMP threads keep private copies (a duplicated ScatterView, a UniqueToken) count
// every pair after the caller ran a smaller OpenMP team, which makes libgomp start new threads
// (kernels/openmp_thread_ids.hpp). They need 3 or more threads; ctest's unit.OpenMP_threads runs
// them with 4.
#include <Kokkos_Core.hpp>

#ifdef KOKKOS_ENABLE_OPENMP
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "kernels/md/md.hpp"
#include "kernels/md/selection.hpp"
#include "kernels/openmp_thread_ids.hpp"
#include "kernels/pair_histogram/pair_histogram.hpp"
#include "support/coulomb_oracle.hpp"
#include "support/lj_oracle.hpp"

namespace {

using kmol::PairHistogramImpl;
using kmol::Vec3;

int pool_threads() { return Kokkos::OpenMP::impl_thread_pool_size(); }

// An OpenMP team one thread smaller than Kokkos' pool, as a host kernel or the caller may run.
void run_a_smaller_team() {
  const int smaller = pool_threads() - 1;
  int size = 0;
#pragma omp parallel num_threads(smaller)
  {
#pragma omp single
    size = omp_get_num_threads();
  }
  ASSERT_EQ(size, smaller);
}

#define KMOL_NEEDS_THREE_THREADS()                                                           \
  if (pool_threads() < 3)                                                                    \
  GTEST_SKIP() << "needs 3 or more OpenMP threads (" << pool_threads() << " here); ctest's " \
               << "unit.OpenMP_threads runs it with OMP_NUM_THREADS=4"

// Kokkos' id of each thread of its pool, by the thread's place in the team.
std::vector<int> kokkos_thread_ids() {
  const int n = pool_threads();
  Kokkos::View<int*, Kokkos::HostSpace> ids("ids", n);
  Kokkos::parallel_for(
      Kokkos::RangePolicy<Kokkos::OpenMP, Kokkos::Schedule<Kokkos::Static>>(0, n),
      [=](int) { ids(omp_get_thread_num()) = Kokkos::OpenMP::impl_hardware_thread_id(); });
  return {ids.data(), ids.data() + n};
}

std::vector<int> places() {
  std::vector<int> out(pool_threads());
  for (int t = 0; t < pool_threads(); ++t) out[t] = t;
  return out;
}

TEST(OpenMPThreads, ASmallerTeamLeavesNewThreadsAtIdZeroUntilRenumbered) {
  KMOL_NEEDS_THREE_THREADS();
  run_a_smaller_team();
  EXPECT_NE(kokkos_thread_ids(), places());  // libgomp's behaviour that the kernels guard against
  kmol::renumber_openmp_threads(Kokkos::OpenMP());
  EXPECT_EQ(kokkos_thread_ids(), places());
}

// Few bins and many pairs, so that threads sharing a copy would lose counts at once.
TEST(OpenMPThreads, PortableAndCellHistogramsCountEveryPair) {
  KMOL_NEEDS_THREE_THREADS();
  const std::int64_t n = 20000;
  const double length = 30;
  const auto atoms = kmol::test::random_atoms(n, {0, 0, 0}, length, 17).positions;
  kmol::PairHistogramSettings s;
  s.box = kmol::BoxSpec::orthorhombic(length, length, length);
  s.r_max = 8;
  s.n_bins = 4;
  s.impl = PairHistogramImpl::host;
  const auto want = kmol::pair_histogram(Kokkos::OpenMP(), kmol::one_set(atoms.data(), n), s);
  std::uint64_t total = 0;
  for (auto c : want.counts) total += c;
  ASSERT_GT(total, std::uint64_t(n) * 100);  // every thread has many pairs to add
  for (auto impl : {PairHistogramImpl::kokkos, PairHistogramImpl::cells}) {
    s.impl = impl;
    for (int round = 0; round < 3; ++round) {
      run_a_smaller_team();
      const auto got = kmol::pair_histogram(Kokkos::OpenMP(), kmol::one_set(atoms.data(), n), s);
      EXPECT_EQ(kokkos_thread_ids(), places()) << kmol::to_string(impl) << " round " << round;
      EXPECT_EQ(got.counts, want.counts) << kmol::to_string(impl) << " round " << round;
    }
  }
}

TEST(OpenMPThreads, HalfListForcesMatchTheOracle) {
  KMOL_NEEDS_THREE_THREADS();
  kmol::MdState s = kmol::fcc_lattice({8, 9, 8}, 0.8442);
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> shake(-0.1, 0.1);
  for (auto& p : s.positions) p = p + Vec3<double>{shake(rng), shake(rng), shake(rng)};
  kmol::MdSettings settings;
  kmol::set_md_force(settings, "neighbour_half");
  const auto want = kmol::test::oracle_lj(s, settings.cutoff);
  for (int round = 0; round < 3; ++round) {
    run_a_smaller_team();
    kmol::MdSimulation<Kokkos::OpenMP, double> md(Kokkos::OpenMP(), s, settings);
    const auto f = md.forces();
    EXPECT_EQ(kokkos_thread_ids(), places()) << "round " << round;
    double worst = 0, scale = 1;
    for (std::size_t i = 0; i < f.size(); ++i) {
      worst = std::max({worst, std::abs(f[i].x - want.forces[i].x),
                        std::abs(f[i].y - want.forces[i].y), std::abs(f[i].z - want.forces[i].z)});
      scale = std::max({scale, std::abs(want.forces[i].x), std::abs(want.forces[i].y),
                        std::abs(want.forces[i].z)});
    }
    EXPECT_LT(worst, 1e-12 * scale) << "round " << round;
  }
}

}  // namespace
#endif
