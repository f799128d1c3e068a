// kmol's rand48 against glibc's own lrand48 / mrand48 / drand48, called here, on every backend,
// for one, two and many streams in both layouts; kmol's streams of Kokkos' XorShift64 generators.
#include <stdlib.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <vector>

#include "kernels/rng/rand48_fill.hpp"
#include "kernels/rng/xorshift_fill.hpp"
#include "support/backend_test.hpp"

namespace {

using kmol::Rand48Kind;
using kmol::Rand48Layout;

constexpr std::int64_t ten_million = 10'000'000;

// glibc's numbers after srand48(seed), as doubles (exact for all three kinds).
const std::vector<double>& glibc_numbers(Rand48Kind kind, long seed, std::int64_t n) {
  static std::map<std::tuple<int, long, std::int64_t>, std::vector<double>> cache;
  auto& v = cache[{int(kind), seed, n}];
  if (v.empty()) {
    srand48(seed);
    v.resize(std::size_t(n));
    for (auto& x : v)
      x = kind == Rand48Kind::lrand48   ? double(lrand48())
          : kind == Rand48Kind::mrand48 ? double(mrand48())
                                        : drand48();
  }
  return v;
}

template <class ExecSpace, class T>
std::vector<double> kmol_numbers(std::uint64_t state, Rand48Kind kind, std::int64_t n,
                                 kmol::Rand48Plan plan, std::uint64_t* state_after = nullptr) {
  Kokkos::View<T*, typename ExecSpace::memory_space> out(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("out")), n);
  const auto r = kmol::rand48_fill(ExecSpace(), state, kind, out, plan);
  if (state_after) *state_after = r.state_after;
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  return std::vector<double>(host.data(), host.data() + n);
}

template <class ExecSpace>
std::vector<double> kmol_numbers(std::uint64_t state, Rand48Kind kind, std::int64_t n,
                                 kmol::Rand48Plan plan = {}, std::uint64_t* state_after = nullptr) {
  return kind == Rand48Kind::drand48
             ? kmol_numbers<ExecSpace, double>(state, kind, n, plan, state_after)
             : kmol_numbers<ExecSpace, std::int32_t>(state, kind, n, plan, state_after);
}

// First index where the two differ, or -1.
std::int64_t first_difference(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) return 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i] != b[i]) return std::int64_t(i);
  return -1;
}

}  // namespace

TEST(Rand48, JumpComposesSingleSteps) {
  std::uint64_t x = kmol::rand48_seed_state(99);
  const std::uint64_t x0 = x;
  for (int m = 1; m <= 1000; ++m) {
    x = (kmol::rand48_a * x + kmol::rand48_c) & kmol::rand48_mask;
    ASSERT_EQ(kmol::Rand48Jump::steps(std::uint64_t(m)).apply(x0), x) << "m = " << m;
  }
  // The period is 2^48: a full jump is the identity.
  EXPECT_EQ(kmol::Rand48Jump::steps(std::uint64_t(1) << 48).apply(x0), x0);
}

KMOL_BACKEND_TEST(Rand48, SeedsMatchGlibcTenMillion) {
  for (Rand48Kind kind : {Rand48Kind::lrand48, Rand48Kind::mrand48, Rand48Kind::drand48})
    for (long seed : {0L, 1L, -7L, 0x7fffffffL}) {
      const std::int64_t n = seed == 1L ? ten_million : 100'003;
      const auto got = kmol_numbers<ExecSpace>(kmol::rand48_seed_state(seed), kind, n);
      EXPECT_EQ(first_difference(got, glibc_numbers(kind, seed, n)), -1)
          << kmol::to_string(kind) << " seed " << seed;
    }
}

KMOL_BACKEND_TEST(Rand48, OneTwoAndManyStreamsInBothLayouts) {
  for (Rand48Kind kind : {Rand48Kind::lrand48, Rand48Kind::mrand48, Rand48Kind::drand48}) {
    const auto& want = glibc_numbers(kind, 1L, ten_million);
    for (Rand48Layout layout : {Rand48Layout::blocked, Rand48Layout::interleaved})
      for (std::int64_t streams : {1, 2, 1237}) {
        const std::int64_t n = streams == 1237 ? ten_million : 1'000'003;
        const auto got =
            kmol_numbers<ExecSpace>(kmol::rand48_seed_state(1), kind, n, {streams, layout});
        EXPECT_EQ(first_difference(got, std::vector<double>(want.begin(), want.begin() + n)), -1)
            << kmol::to_string(kind) << ", " << kmol::to_string(layout) << ", " << streams
            << " streams";
      }
  }
}

KMOL_BACKEND_TEST(Rand48, Seed48AndContinuation) {
  unsigned short xsubi[3] = {0x1234, 0xABCD, 0x0F0F};
  seed48(xsubi);
  std::vector<double> want(20001);
  for (auto& x : want) x = double(lrand48());
  std::uint64_t after = 0;
  const auto first = kmol_numbers<ExecSpace>(kmol::rand48_seed48_state(xsubi), Rand48Kind::lrand48,
                                             20000, {}, &after);
  const auto next = kmol_numbers<ExecSpace>(after, Rand48Kind::lrand48, 1);
  EXPECT_EQ(first_difference(first, std::vector<double>(want.begin(), want.end() - 1)), -1);
  EXPECT_EQ(next[0], want.back());
  // Fewer numbers than streams, and none at all.
  EXPECT_EQ(kmol_numbers<ExecSpace>(kmol::rand48_seed48_state(xsubi), Rand48Kind::lrand48, 3,
                                    {1000, Rand48Layout::interleaved})[2],
            want[2]);
  EXPECT_TRUE(
      kmol_numbers<ExecSpace>(kmol::rand48_seed48_state(xsubi), Rand48Kind::lrand48, 0).empty());
}

KMOL_BACKEND_TEST(Rand48, PerThreadGeneratorInsideKernels) {
  // Thread i draws three drand48 numbers starting 3 i numbers on: together glibc's sequence.
  const std::int64_t n = 10000;
  Kokkos::View<double*, typename ExecSpace::memory_space> out("out", 3 * n);
  const kmol::Rand48 base{kmol::rand48_seed_state(2024)};
  Kokkos::parallel_for(
      "test::rand48_threads", Kokkos::RangePolicy<ExecSpace>(0, n), KOKKOS_LAMBDA(std::int64_t i) {
        kmol::Rand48 g = base.advanced(std::uint64_t(3 * i));
        for (int k = 0; k < 3; ++k) out(3 * i + k) = g.drand48();
      });
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  EXPECT_EQ(first_difference(std::vector<double>(host.data(), host.data() + 3 * n),
                             glibc_numbers(Rand48Kind::drand48, 2024, 3 * n)),
            -1);
}

TEST(Rand48, RefusesMismatchedViewType) {
  Kokkos::View<double*, Kokkos::HostSpace> out("out", 4);
  EXPECT_THROW(kmol::rand48_fill(Kokkos::DefaultHostExecutionSpace(), 0, Rand48Kind::lrand48, out),
               kmol::InputError);
  EXPECT_THROW(kmol::rand48_kind_from_string("random"), kmol::InputError);
}

KMOL_BACKEND_TEST(XorShift64Streams, EveryElementIsItsStreamsNextNumber) {
  // Two fills, replayed here stream by stream from the same generators (a pool's states depend
  // only on its seed and their index): the second continues where the first stopped.
  constexpr std::uint64_t seed = 2024;
  const kmol::XorShift64Streams<ExecSpace> streams(ExecSpace(), seed);
  const std::int64_t n = 100'003, count = streams.streams();
  Kokkos::Random_XorShift64_Pool<Kokkos::DefaultHostExecutionSpace> replay(seed);
  replay.init(seed, int(count));
  // The elements stream s writes, in order.
  const auto elements_of = [&](std::int64_t s) {
    std::vector<std::int64_t> e;
    if (kmol::XorShift64Streams<ExecSpace>::blocked) {
      const std::int64_t chunk = (n + count - 1) / count;
      for (std::int64_t i = s * chunk; i < std::min(n, (s + 1) * chunk); ++i) e.push_back(i);
    } else {
      for (std::int64_t i = s; i < n; i += count) e.push_back(i);
    }
    return e;
  };
  std::vector<std::uint32_t> want[2] = {std::vector<std::uint32_t>(std::size_t(n)),
                                        std::vector<std::uint32_t>(std::size_t(n))};
  for (std::int64_t s = 0; s < count; ++s) {
    auto generator = replay.get_state(int(s));
    const auto elements = elements_of(s);
    for (auto& fill : want)
      for (std::int64_t e : elements) fill[std::size_t(e)] = generator.urand();
    replay.free_state(generator);
  }
  Kokkos::View<std::uint32_t*, typename ExecSpace::memory_space> out("out", n);
  for (const auto& fill : want) {
    streams.fill(out);
    const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
    const std::vector<std::uint32_t> got(host.data(), host.data() + n);
    ASSERT_EQ(got, fill) << count << " streams";
  }
  // Not a constant: the numbers spread over the 32 bits.
  const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  double mean = 0;
  for (std::int64_t i = 0; i < n; ++i) mean += double(host(i)) / double(n);
  EXPECT_NEAR(mean / 4294967296.0, 0.5, 0.01);
}
