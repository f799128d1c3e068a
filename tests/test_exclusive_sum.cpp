// The team-kernel exclusive sum against the host's std::exclusive_scan, for sizes around the
// tile (none, one value, a tile less one, one tile, one more, many tiles), around the largest
// that one team sums, and both index widths.
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

#include "kernels/exclusive_sum.hpp"
#include "support/backend_test.hpp"

namespace {

template <class ExecSpace, class V>
void expect_exclusive_sums(std::int64_t n, std::uint32_t seed) {
  using Memory = typename ExecSpace::memory_space;
  std::mt19937 random(seed);
  std::uniform_int_distribution<int> count(0, 40);
  std::vector<V> counts(n);
  for (V& c : counts) c = V(count(random));
  std::vector<V> want(n + 1, 0);
  std::exclusive_scan(counts.begin(), counts.end(), want.begin(), V(0));
  if (n > 0) want[n] = want[n - 1] + counts[n - 1];

  Kokkos::View<V*, Memory> device_counts("kmol::test::counts", n), out("kmol::test::sums", n + 1),
      scratch("kmol::test::scratch", kmol::exclusive_sum_scratch(n));
  Kokkos::deep_copy(device_counts,
                    Kokkos::View<const V*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                        counts.data(), counts.size()));
  Kokkos::deep_copy(out, V(-1));
  kmol::exclusive_sum(ExecSpace(), "kmol::test::exclusive_sum", device_counts, out, scratch);
  std::vector<V> got(n + 1);
  Kokkos::deep_copy(Kokkos::View<V*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(got.data(), n + 1),
                    out);
  ASSERT_EQ(got, want) << n << " counts";
}

}  // namespace

KMOL_BACKEND_TEST(ExclusiveSum, EqualsTheHostScanAroundTileSizes) {
  const std::int64_t tile = kmol::exclusive_sum_tile, one_team = kmol::exclusive_sum_one_team;
  std::uint32_t seed = 1;
  for (const std::int64_t n :
       {std::int64_t(0), std::int64_t(1), std::int64_t(511), tile - 1, tile, tile + 1, 3 * tile + 5,
        one_team - 1, one_team, one_team + 1, 65 * tile + 17}) {
    expect_exclusive_sums<ExecSpace, std::int32_t>(n, seed++);
    expect_exclusive_sums<ExecSpace, std::int64_t>(n, seed++);
  }
}
