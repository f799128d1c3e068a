// Pair histograms of every implementation on every backend against the double-precision oracle,
// and against each other count for count.
#include <cmath>
#include <random>
#include <utility>
#include <vector>

#include "kernels/pair_histogram/fast_binning.hpp"
#include "kernels/pair_histogram/implementations.hpp"
#include "kernels/pair_histogram/pair_histogram.hpp"
#include "kernels/pair_histogram/selection.hpp"
#include "kernels/pair_histogram/views.hpp"
#include "kmol/core/cancel.hpp"
#include "kmol/core/errors.hpp"
#include "kmol/core/execution_space.hpp"
#include "support/backend_test.hpp"
#include "support/pair_histogram_oracle.hpp"
#include "support/test_sizes.hpp"

namespace {

using kmol::BoxSpec;
using kmol::PairHistogramImpl;
using kmol::PairHistogramInput;
using kmol::PairHistogramSettings;
using kmol::Vec3;

template <class ExecSpace>
std::vector<PairHistogramImpl> impls_for(const PairHistogramInput<float>& in,
                                         const PairHistogramSettings& s) {
  constexpr auto platform = kmol::platform_of<ExecSpace>();
  const kmol::PairHistogramShape shape = kmol::shape_of(in.n_a, in.n_b, in.one_set(), s);
  std::vector<PairHistogramImpl> out;
  for (auto impl : kmol::compiled_implementations(kmol::pair_histogram_implementations))
    if (kmol::pair_histogram_refusal(impl, shape, platform).empty()) out.push_back(impl);
  return out;
}

template <class T>
std::vector<Vec3<T>> uniform_points(std::int64_t n, const BoxSpec& box, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-0.2, 1.2);  // some points outside the primary cell
  std::vector<Vec3<T>> pts(n);
  for (auto& p : pts) {
    const Vec3<double> q =
        box.kind == kmol::BoxKind::none
            ? Vec3<double>{10 * u(rng), 10 * u(rng), 10 * u(rng)}
            : u(rng) * box.edges[0] + u(rng) * box.edges[1] + u(rng) * box.edges[2];
    p = q.template cast<T>();
  }
  return pts;
}

std::vector<BoxSpec> all_boxes() {
  return {BoxSpec::none(), BoxSpec::orthorhombic(12, 13, 14),
          BoxSpec::triclinic({12, 0, 0}, {1.2, 12, 0}, {1.2, 1.2, 12})};
}

double limit_for(const BoxSpec& box) {
  return box.kind == kmol::BoxKind::none ? 18.0 : kmol::inscribed_radius(kmol::validated(box));
}

struct Case {
  PairHistogramInput<double> input;
  PairHistogramSettings settings;
};

template <class ExecSpace>
void expect_all_impls_match_oracle(const PairHistogramInput<double>& in_d,
                                   PairHistogramSettings s) {
  // Double precision: exactly the oracle.
  const auto want = kmol::test::oracle_pair_histogram(in_d, s);
  std::vector<Vec3<float>> a_f, b_f;
  for (std::int64_t i = 0; i < in_d.n_a; ++i) a_f.push_back(in_d.a[i].cast<float>());
  for (std::int64_t i = 0; i < in_d.n_b; ++i) b_f.push_back(in_d.b[i].cast<float>());
  PairHistogramInput<float> in_f{
      a_f.data(),     in_d.n_a,     in_d.one_set() ? nullptr : b_f.data(),
      in_d.n_b,       in_d.species, in_d.molecule_a,
      in_d.molecule_b};
  std::vector<std::uint64_t> float_reference;
  for (PairHistogramImpl impl : impls_for<ExecSpace>(in_f, s)) {
    s.impl = impl;
    const auto got = kmol::pair_histogram(ExecSpace(), in_d, s);
    EXPECT_EQ(got.counts, want) << "double, impl " << kmol::to_string(impl);
    const auto got_f = kmol::pair_histogram(ExecSpace(), in_f, s);
    if (float_reference.empty()) float_reference = got_f.counts;
    EXPECT_EQ(got_f.counts, float_reference) << "float, impl " << kmol::to_string(impl);
    std::uint64_t total = 0, total_want = 0;
    for (auto c : got_f.counts) total += c;
    for (auto c : want) total_want += c;
    EXPECT_NEAR(double(total), double(total_want), 1e-4 * double(total_want) + 2)
        << kmol::to_string(impl);
  }
}

}  // namespace

KMOL_BACKEND_TEST(PairHistogram, OneAndTwoSetsInEveryBoxMatchTheOracle) {
  for (const BoxSpec& box : all_boxes()) {
    const auto a = uniform_points<double>(300, box, 1);
    const auto b = uniform_points<double>(170, box, 2);
    // Short cutoffs leave room for 3 and more cells across the box (the cell path).
    for (double fraction : {1.0, 0.6, 0.3}) {
      PairHistogramSettings s;
      s.box = box;
      s.r_min = 0.5;
      s.r_max = fraction * limit_for(box);
      s.n_bins = 97;
      SCOPED_TRACE(kmol::to_string(box.kind) + " r_max " + std::to_string(s.r_max));
      expect_all_impls_match_oracle<ExecSpace>(kmol::one_set(a.data(), 300), s);
      expect_all_impls_match_oracle<ExecSpace>(kmol::two_sets(a.data(), 300, b.data(), 170), s);
    }
  }
}

KMOL_BACKEND_TEST(PairHistogram, SpeciesMasksAndExclusionsMatchTheOracle) {
  for (const BoxSpec& box : all_boxes()) {
    const auto a = uniform_points<double>(240, box, 3);
    const auto b = uniform_points<double>(90, box, 4);
    std::vector<std::int32_t> species(240), mol_a(240), mol_b(90);
    for (int i = 0; i < 240; ++i) species[i] = i % 3, mol_a[i] = i / 4;
    for (int i = 0; i < 90; ++i) mol_b[i] = i / 2;
    PairHistogramSettings s;
    s.box = box;
    s.r_max = box.kind == kmol::BoxKind::none ? limit_for(box) : 0.6 * limit_for(box);  // cells too
    s.n_bins = 50;
    s.n_species = 3;
    s.species_pairs_enabled = {1, 1, 0, 1, 1, 1};
    PairHistogramInput<double> with_species = kmol::one_set(a.data(), 240);
    with_species.species = species.data();
    with_species.molecule_a = mol_a.data();
    expect_all_impls_match_oracle<ExecSpace>(with_species, s);
    PairHistogramInput<double> excluded = kmol::two_sets(a.data(), 240, b.data(), 90);
    excluded.molecule_a = mol_a.data();
    excluded.molecule_b = mol_b.data();
    s.n_species = 1;
    s.species_pairs_enabled.clear();
    expect_all_impls_match_oracle<ExecSpace>(excluded, s);
  }
}

// Atoms sorted into runs of species ends[0], ends[1], ... (the end of each run), in every box,
// with and without a mask of species pairs, against the oracle.
template <class ExecSpace>
void expect_sorted_species_match_oracle(const std::vector<int>& ends, std::int32_t n_species,
                                        std::int32_t bins, std::uint64_t seed,
                                        const std::vector<std::uint8_t>& mask = {}) {
  const int n = ends.back();
  for (const BoxSpec& box : all_boxes()) {
    const auto a = uniform_points<double>(n, box, seed);
    std::vector<std::int32_t> species;
    for (std::size_t run = 0; run < ends.size(); ++run)
      species.resize(std::size_t(ends[run]),
                     std::int32_t(n_species - std::int32_t(ends.size()) + std::int32_t(run)));
    PairHistogramSettings s;
    s.box = box;
    s.r_max = box.kind == kmol::BoxKind::none ? limit_for(box) : 0.6 * limit_for(box);
    s.n_bins = bins;
    s.n_species = n_species;
    PairHistogramInput<double> in = kmol::one_set(a.data(), n);
    in.species = species.data();
    expect_all_impls_match_oracle<ExecSpace>(in, s);
    if (mask.empty()) continue;
    s.species_pairs_enabled = mask;
    expect_all_impls_match_oracle<ExecSpace>(in, s);
  }
}

KMOL_BACKEND_TEST(PairHistogram, SpeciesSortedInRunsAcrossTilesMatchTheOracle) {
  // Runs longer than the host kernel's tiles of 1024 atoms: each row's pairs are counted run by
  // run into their species pair's histogram (a masked pair skipped).
  expect_sorted_species_match_oracle<ExecSpace>({700, 1300, 1500}, 3, 64, 5, {1, 0, 1, 1, 1, 0});
}

KMOL_BACKEND_TEST(PairHistogram, SortedSpeciesWithNoneOrOneAtomMatchTheOracle) {
  // GPUs count sorted species pair by pair: species 0 has no atom, species 3 a single one (no
  // pair of its own), and the runs differ in length (the longer taken as B without a box).
  expect_sorted_species_match_oracle<ExecSpace>({900, 1400, 1401}, 4, 48, 11);
}

KMOL_BACKEND_TEST(PairHistogram, LatticeShellsOnBinEdgesAndBoxFacesAreExact) {
  // A simple cubic lattice of spacing 1 in a 6^3 box: distances sqrt(1), sqrt(2), ... fall on the
  // edges of 0.25-wide bins (1.0, 2.0) and atoms sit on the box faces.
  std::vector<Vec3<double>> xyz;
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 6; ++j)
      for (int k = 0; k < 6; ++k) xyz.push_back({double(i), double(j), double(k)});
  PairHistogramSettings s;
  s.box = BoxSpec::orthorhombic(6, 6, 6);
  s.r_max = 3.0;  // exactly the inscribed radius
  s.n_bins = 12;
  const auto got = kmol::pair_histogram(ExecSpace(), kmol::one_set(xyz.data(), 216), s);
  EXPECT_EQ(got.at(0, 4), 216u * 6 / 2);         // r = 1 starts bin 4 = [1.0, 1.25)
  EXPECT_EQ(got.at(0, 8), 216u * (6 + 24) / 2);  // r = 2 and sqrt(5) in bin 8 = [2.0, 2.25)
  expect_all_impls_match_oracle<ExecSpace>(kmol::one_set(xyz.data(), 216), s);
}

KMOL_BACKEND_TEST(PairHistogram, TriclinicLatticeWithPairsOnCellFacesIsExact) {
  // Points on a quarter-cell lattice of a skewed cell: many displacements have fractional
  // coordinates of exactly +-1/2, where the image across the face must be compared.
  const BoxSpec box = BoxSpec::triclinic({8, 0, 0}, {2, 8, 0}, {1.5, -2, 8});
  std::vector<Vec3<double>> xyz;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      for (int k = 0; k < 4; ++k)
        xyz.push_back(0.25 * i * box.edges[0] + 0.25 * j * box.edges[1] + 0.25 * k * box.edges[2]);
  PairHistogramSettings s;
  s.box = box;
  s.r_max = limit_for(box);
  s.n_bins = 97;
  expect_all_impls_match_oracle<ExecSpace>(kmol::one_set(xyz.data(), std::int64_t(xyz.size())), s);
}

KMOL_BACKEND_TEST(PairHistogram, FineBinsFarFromZeroMatchTheOracle) {
  // 2^20 bins across [1000, 1000.5): too fine for the fast binning's rounding bound in single
  // precision (fast_kernel_exact fails), so float kernels take bin_of itself there.
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(0, 0.1), v(0, 0.3);
  std::vector<Vec3<double>> a(200), b(150);
  for (auto& p : a) p = {u(rng), v(rng), v(rng)};
  for (auto& p : b) p = {1000.2 + u(rng), v(rng), v(rng)};  // every distance in [1000.1, 1000.3]
  PairHistogramSettings s;
  s.r_min = 1000;
  s.r_max = 1000.5;
  s.n_bins = 1 << 20;
  ASSERT_FALSE(kmol::fast_binning::fast_kernel_exact(
      kmol::HistogramRange<float>(s.r_min, s.r_max, s.n_bins)));
  expect_all_impls_match_oracle<ExecSpace>(kmol::two_sets(a.data(), 200, b.data(), 150), s);
}

KMOL_BACKEND_TEST(PairHistogram, EmptySelectionsAndOneAtomGiveZeroCounts) {
  const Vec3<double> one{1, 2, 3};
  PairHistogramSettings s;
  s.r_max = 5;
  s.n_bins = 10;
  for (auto input :
       {kmol::one_set(&one, 0), kmol::one_set(&one, 1), kmol::two_sets(&one, 1, &one, 0)}) {
    const auto got = kmol::pair_histogram(ExecSpace(), input, s);
    EXPECT_EQ(got.counts, std::vector<std::uint64_t>(10, 0));
  }
  const auto pair = kmol::pair_histogram(ExecSpace(), kmol::two_sets(&one, 1, &one, 1), s);
  EXPECT_EQ(pair.at(0, 0), 1u);
}

KMOL_BACKEND_TEST(PairHistogram, CountsBeyond32BitsInOneBinAreExact) {
  // 66,000 x 66,000 coincident points: 4,356,000,000 pairs in bin 0, more than 2^32. Under the
  // sanitizers 4,000 x 4,000: the same counting and flush into the 64-bit totals, though no
  // 32-bit count comes near wrapping.
  const std::int64_t n = kmol::test::sized<std::int64_t>(66000, 4000);
  const std::vector<Vec3<float>> xyz(n, Vec3<float>{1, 1, 1});
  PairHistogramSettings s;
  s.r_max = 1;
  s.n_bins = 4;
  const PairHistogramInput<float> in = kmol::two_sets(xyz.data(), n, xyz.data(), n);
  for (PairHistogramImpl impl : impls_for<ExecSpace>(in, s)) {
    s.impl = impl;
    const auto got = kmol::pair_histogram(ExecSpace(), in, s);
    EXPECT_EQ(got.at(0, 0), std::uint64_t(n) * std::uint64_t(n)) << kmol::to_string(impl);
  }
}

KMOL_BACKEND_TEST(PairHistogram, RefusesBadInputNamingTheProblem) {
  std::vector<Vec3<float>> xyz(5, Vec3<float>{1, 1, 1});
  xyz[3].y = NAN;
  PairHistogramSettings s;
  s.r_max = 5;
  s.n_bins = 10;
  try {
    kmol::pair_histogram(ExecSpace(), kmol::one_set(xyz.data(), 5), s);
    FAIL() << "accepted a NaN coordinate";
  } catch (const kmol::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("atom 3"), std::string::npos) << e.what();
  }
  xyz[3].y = 1;
  // Beyond half the box every image counts (periodic_images.hpp): five atoms at one point of a
  // box of 8 are 10 pairs at 0 and, at 8, each pair's 6 images and each atom's own 3 (of 6).
  s.box = BoxSpec::orthorhombic(8, 8, 8);
  s.r_max = 9;
  const auto images = kmol::pair_histogram(ExecSpace(), kmol::one_set(xyz.data(), 5), s).counts;
  EXPECT_EQ(images, (std::vector<std::uint64_t>{10, 0, 0, 0, 0, 0, 0, 0, 75, 0}));
  s.box = BoxSpec::none();
  s.n_bins = 0;
  EXPECT_THROW(kmol::pair_histogram(ExecSpace(), kmol::one_set(xyz.data(), 5), s),
               kmol::InputError);
}

KMOL_BACKEND_TEST(PairHistogram, LargeSetsInManyTeamsAndWindowsMatchTheHostCountForCount) {
  // Large enough for several A tiles, B chunks and histogram windows of the portable engine on
  // GPUs (2048 A atoms, 16,384 B atoms; about 10,000 bins a team of 256, or with the device's
  // opt-in shared memory about 56,000 a team of 1024, so 120,000 bins take several windows), one
  // set and two, against the host implementation in float: counts equal bin for bin.
  const BoxSpec box = BoxSpec::orthorhombic(12, 13, 14);
  const auto a = uniform_points<float>(18000, box, 11);
  const auto b = uniform_points<float>(40000, box, 12);
  PairHistogramSettings s;
  s.box = box;
  s.r_max = limit_for(box);
  for (const auto& [bins, in] :
       {std::pair{12000, kmol::one_set(a.data(), 18000)},
        std::pair{12000, kmol::two_sets(a.data(), 2500, b.data(), 40000)},
        std::pair{120000, kmol::two_sets(a.data(), 1000, b.data(), 40000)}}) {
    s.n_bins = bins;
    s.impl = PairHistogramImpl::host;
    const auto want = kmol::pair_histogram(Kokkos::DefaultHostExecutionSpace(), in, s).counts;
    for (PairHistogramImpl impl : impls_for<ExecSpace>(in, s)) {
      s.impl = impl;
      const auto got = kmol::pair_histogram(ExecSpace(), in, s);
      EXPECT_EQ(got.counts, want) << kmol::to_string(impl) << ", " << bins << " bins"
                                  << (in.one_set() ? ", one set: " : ", two sets: ") << got.launch;
    }
  }
}

KMOL_BACKEND_TEST(PairHistogram, NoBoxWithEveryPairInRangeMatchesTheHostCountForCount) {
  // Without a box and with r_max beyond the atoms' diagonal every pair counts, and the portable
  // engine's GPU teams with a whole A tile skip the range test: whole tiles and a partial one, one
  // set and two, against the host implementation in float.
  const auto a = uniform_points<float>(9000, BoxSpec::none(), 21);  // in [-2, 12)^3
  PairHistogramSettings s;
  s.r_max = 24.5;  // the diagonal is 14 sqrt(3) = 24.2
  s.n_bins = 10000;
  for (const auto& in :
       {kmol::one_set(a.data(), 9000), kmol::two_sets(a.data(), 5000, a.data() + 5000, 4000)}) {
    s.impl = PairHistogramImpl::host;
    const auto want = kmol::pair_histogram(Kokkos::DefaultHostExecutionSpace(), in, s).counts;
    std::uint64_t total = 0;
    for (auto c : want) total += c;
    EXPECT_EQ(total, in.one_set() ? 9000ull * 8999 / 2 : 5000ull * 4000);
    for (PairHistogramImpl impl : impls_for<ExecSpace>(in, s)) {
      s.impl = impl;
      const auto got = kmol::pair_histogram(ExecSpace(), in, s);
      EXPECT_EQ(got.counts, want) << kmol::to_string(impl)
                                  << (in.one_set() ? ", one set: " : ", two sets: ") << got.launch;
    }
  }
}

template <class ExecSpace, class T>
void expect_every_impl_counts_as_host(const PairHistogramInput<T>& in, PairHistogramSettings s,
                                      const std::string& what) {
  s.impl = PairHistogramImpl::host;
  const auto want = kmol::pair_histogram(Kokkos::DefaultHostExecutionSpace(), in, s).counts;
  for (PairHistogramImpl impl : impls_for<ExecSpace>(in, s)) {
    s.impl = impl;
    const auto got = kmol::pair_histogram(ExecSpace(), in, s);
    EXPECT_EQ(got.counts, want) << what << ", " << kmol::to_string(impl) << ": " << got.launch;
  }
}

KMOL_BACKEND_TEST(PairHistogram, WorkUnitsSkippedShiftedAndWrappedCountAsTheHost) {
  // Enough atoms that GPU kernels' work units (groups of Morton-ordered atoms) are small: units
  // skipped below r_min and beyond r_max, counted without range tests, wrapped with one shift
  // per axis or pair by pair, next to window boundaries (150,000 bins take several windows).
  // Under compute-sanitizer: the same paths with larger units.
  const std::int64_t n = kmol::test::sized<std::int64_t>(20000, 2500);
  const BoxSpec box = BoxSpec::orthorhombic(12, 13, 14);
  auto a = uniform_points<float>(n, box, 31);
  auto b = uniform_points<float>(n, box, 32);
  // A quarter of B lies 7 to 9 box lengths away: other shifts, and units too far out for the
  // rounding-mode floor's bound to be proven cheaply.
  for (std::size_t j = 0; j < b.size(); j += 4) b[j] = b[j] + Vec3<float>{7 * 12, -9 * 13, 9 * 14};
  PairHistogramSettings s;
  s.box = box;
  s.r_min = 2;
  s.r_max = 6;
  s.n_bins = 3000;
  expect_every_impl_counts_as_host<ExecSpace>(kmol::two_sets(a.data(), n, b.data(), n), s,
                                              "orthorhombic, far images");
  s.r_min = 0;
  s.n_bins = 150000;
  expect_every_impl_counts_as_host<ExecSpace>(kmol::one_set(a.data(), n), s,
                                              "orthorhombic, one set, windows");
  // Without a box: every pair within r_max, windows split by distance.
  s.box = BoxSpec::none();
  s.r_max = 24.5;
  expect_every_impl_counts_as_host<ExecSpace>(kmol::two_sets(a.data(), n, b.data(), n / 4), s,
                                              "no box, windows");
}

KMOL_BACKEND_TEST(PairHistogram, DenseLatticeOnBoxFacesCountsAsTheHost) {
  // 25^3 atoms on a lattice of spacing L/24 from 0 to L inclusive: atoms on both faces of every
  // axis, displacements of exactly +-L/2 (where the wrap's floor changes) and distances on edges.
  const float side = 12;
  std::vector<Vec3<float>> xyz;
  for (int i = 0; i <= 24; ++i)
    for (int j = 0; j <= 24; ++j)
      for (int k = 0; k <= 24; ++k) xyz.push_back(0.5f * Vec3<float>{float(i), float(j), float(k)});
  PairHistogramSettings s;
  s.box = BoxSpec::orthorhombic(side, side, side);
  s.r_max = 6;
  s.n_bins = 1200;
  expect_every_impl_counts_as_host<ExecSpace>(kmol::one_set(xyz.data(), std::int64_t(xyz.size())),
                                              s, "lattice on faces");
}

// The selector's thresholds (selection.cpp) on a cube of 100,000 atoms with side 100: cells up to
// 27 r_max^3 / V = 0.75 on CPUs and 0.25 on GPUs, never without a box or with few atoms.
TEST(PairHistogramSelection, CellsWhereTheMeasuredCrossoversPutThem) {
  const auto chosen = [](double r_max, kmol::Platform platform, std::int64_t atoms = 100000,
                         BoxSpec box = BoxSpec::orthorhombic(100, 100, 100)) {
    PairHistogramSettings s;
    s.box = box;
    s.r_max = r_max;
    s.n_bins = 240;
    return kmol::choose_pair_histogram_impl(kmol::shape_of(atoms, atoms, true, s), platform,
                                            PairHistogramImpl::automatic);
  };
  const PairHistogramImpl gpu_all_pairs =
#ifdef KMOL_HAVE_CUDA
      PairHistogramImpl::cuda;
#else
      PairHistogramImpl::kokkos;
#endif
  EXPECT_EQ(chosen(30, kmol::Platform::host), PairHistogramImpl::cells);  // 0.729
  EXPECT_EQ(chosen(33, kmol::Platform::host), PairHistogramImpl::host);   // 0.970
  EXPECT_EQ(chosen(20, kmol::Platform::cuda), PairHistogramImpl::cells);  // 0.216
  EXPECT_EQ(chosen(25, kmol::Platform::cuda), gpu_all_pairs);             // 0.422
  EXPECT_EQ(chosen(10, kmol::Platform::host, 9000), PairHistogramImpl::host);
  EXPECT_EQ(chosen(10, kmol::Platform::host, 100000, BoxSpec::none()), PairHistogramImpl::host);
}

namespace {

// The host-pointer input's coordinates as Views in the space's memory (Vec3 and T[3] rows).
template <class ExecSpace, class T>
void expect_views_count_as_pointers(const PairHistogramInput<T>& in, PairHistogramSettings s) {
  using Memory = typename ExecSpace::memory_space;
  Kokkos::View<Vec3<T>*, Memory> a("a", in.n_a), b("b", in.one_set() ? 0 : in.n_b);
  Kokkos::deep_copy(
      a, Kokkos::View<const Vec3<T>*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(in.a, in.n_a));
  if (!in.one_set())
    Kokkos::deep_copy(
        b, Kokkos::View<const Vec3<T>*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(in.b, in.n_b));
  const Kokkos::View<const T* [3], Kokkos::LayoutRight, Memory> rows(
      reinterpret_cast<const T*>(a.data()), in.n_a);
  PairHistogramInput<T> labels;
  labels.species = in.species;
  labels.molecule_a = in.molecule_a;
  labels.molecule_b = in.molecule_b;
  for (PairHistogramImpl impl : {PairHistogramImpl::kokkos, PairHistogramImpl::cells}) {
    s.impl = impl;
    const kmol::PairHistogramShape shape = kmol::shape_of(in.n_a, in.n_b, in.one_set(), s);
    if (!kmol::pair_histogram_refusal(impl, shape, kmol::Platform::cuda).empty()) continue;
    const auto want = kmol::pair_histogram(ExecSpace(), in, s).counts;
    if (in.one_set()) {
      EXPECT_EQ(kmol::pair_histogram(ExecSpace(), a, s, labels).counts, want) << to_string(impl);
      EXPECT_EQ(kmol::pair_histogram(ExecSpace(), rows, s, labels).counts, want);
    } else {
      EXPECT_EQ(kmol::pair_histogram(ExecSpace(), a, b, s, labels).counts, want) << to_string(impl);
    }
  }
}

}  // namespace

KMOL_BACKEND_TEST(PairHistogram, ViewsInTheSpacesMemoryCountAsHostPointers) {
  for (const BoxSpec& box : all_boxes()) {
    const auto a = uniform_points<double>(400, box, 5);
    const auto b = uniform_points<double>(150, box, 6);
    std::vector<Vec3<float>> a_f, b_f;
    for (const auto& p : a) a_f.push_back(p.cast<float>());
    for (const auto& p : b) b_f.push_back(p.cast<float>());
    std::vector<std::int32_t> mol_a(400), mol_b(150);
    for (int i = 0; i < 400; ++i) mol_a[i] = i / 3;
    for (int i = 0; i < 150; ++i) mol_b[i] = i / 2;
    PairHistogramSettings s;
    s.box = box;
    s.r_max = box.kind == kmol::BoxKind::none ? limit_for(box) : 0.3 * limit_for(box);
    s.n_bins = 61;
    SCOPED_TRACE(kmol::to_string(box.kind));
    expect_views_count_as_pointers<ExecSpace>(kmol::one_set(a.data(), 400), s);
    expect_views_count_as_pointers<ExecSpace>(kmol::two_sets(a_f.data(), 400, b_f.data(), 150), s);
    PairHistogramInput<double> excluded = kmol::two_sets(a.data(), 400, b.data(), 150);
    excluded.molecule_a = mol_a.data();
    excluded.molecule_b = mol_b.data();
    expect_views_count_as_pointers<ExecSpace>(excluded, s);
    // Far from the origin: the cell list's rounding margin grows with the largest coordinate,
    // which resident atoms give from their finite check.
    std::vector<Vec3<double>> far(a);
    for (auto& p : far) p = p + Vec3<double>{1234.5, -987.25, 4321.0};
    expect_views_count_as_pointers<ExecSpace>(kmol::one_set(far.data(), 400), s);
  }
}

KMOL_BACKEND_TEST(PairHistogram, NonFiniteCoordinatesInAViewAreRefused) {
  Kokkos::View<Vec3<float>*, typename ExecSpace::memory_space> a("a", 100);
  auto host = Kokkos::create_mirror_view(a);
  for (int i = 0; i < 100; ++i) host(i) = {float(i % 10), float(i / 10), 1.0f};
  host(37).y = std::nanf("");
  Kokkos::deep_copy(a, host);
  PairHistogramSettings s;
  s.r_max = 5;
  s.n_bins = 10;
  try {
    kmol::pair_histogram(ExecSpace(), a, s);
    FAIL() << "a NaN coordinate was accepted";
  } catch (const kmol::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("atom 37"), std::string::npos) << e.what();
  }
}

// A cancel (the Python module's Ctrl-C) makes the host, cells and kokkos implementations skip
// their remaining work and throw Interrupted; once cleared, the same call counts again. The kokkos
// rows also on the default space, whose GPU teams read the cancel from page-locked host memory.
TEST(PairHistogramCancel, StopAndThrowInterruptedThenCountAgain) {
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> u(0, 30);
  std::vector<Vec3<double>> xyz(3000);
  for (auto& p : xyz) p = {u(rng), u(rng), u(rng)};
  const PairHistogramInput<double> in{xyz.data(), std::int64_t(xyz.size())};
  PairHistogramSettings s;
  s.r_max = 9;
  s.n_bins = 9;
  s.box = BoxSpec::orthorhombic(30, 30, 30);
  const auto check = [&](const auto& space, PairHistogramImpl impl) {
    s.impl = impl;
    kmol::request_cancel(2);
    EXPECT_THROW(kmol::pair_histogram(space, in, s), kmol::Interrupted) << kmol::to_string(impl);
    kmol::clear_cancel();
    const auto counts = kmol::pair_histogram(space, in, s).counts;
    std::uint64_t total = 0;
    for (const auto c : counts) total += c;
    EXPECT_GT(total, 0u) << kmol::to_string(impl);
  };
  for (const PairHistogramImpl impl :
       {PairHistogramImpl::host, PairHistogramImpl::cells, PairHistogramImpl::kokkos})
    check(Kokkos::DefaultHostExecutionSpace(), impl);
  check(Kokkos::DefaultExecutionSpace(), PairHistogramImpl::kokkos);
}
