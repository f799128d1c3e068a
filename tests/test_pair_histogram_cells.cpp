// The cell path's two counting schemes, each forced on every backend with cells of half and of
// the whole reach: atom threads and cell teams against the double-precision oracle, and against
// the all-pairs count in single precision, over
// the cases that steer the cell teams down their separate paths (one shift per partner and cell,
// or the minimum image pair by pair; crowded cells staged in chunks; labels).
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "kernels/pair_histogram/cells/pair_histogram_cells.hpp"
#include "kernels/pair_histogram/pair_histogram.hpp"
#include "kernels/pair_histogram/validation.hpp"
#include "support/backend_test.hpp"
#include "support/pair_histogram_oracle.hpp"
#include "support/test_sizes.hpp"

namespace {

using kmol::BoxSpec;
using kmol::CellScheme;
using kmol::CellThickness;
using kmol::PairHistogramInput;
using kmol::PairHistogramSettings;
using kmol::Vec3;

template <class ExecSpace, class T>
std::vector<std::uint64_t> cells_counts(const PairHistogramInput<T>& in,
                                        const PairHistogramSettings& s, CellScheme scheme,
                                        CellThickness thickness) {
  kmol::PreparedPairHistogram<T> prepared;
  kmol::prepare_pair_histogram(in, s, prepared);
  kmol::pair_histogram_cells(ExecSpace(), prepared.job, scheme, thickness);
  return prepared.result.counts;
}

// Points over [lo, hi) of each edge: beyond [0, 1) some lie outside the primary cell, so atoms
// of one cell carry different images and their partners take the minimum image pair by pair.
// `crowd` more points sit within 0.3 A of one spot, more than one chunk of a team's cell.
std::vector<Vec3<double>> points(std::int64_t n, std::int64_t crowd, const BoxSpec& box, double lo,
                                 double hi, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(lo, hi), near(-0.15, 0.15);
  std::vector<Vec3<double>> out;
  for (std::int64_t i = 0; i < n; ++i)
    out.push_back(u(rng) * box.edges[0] + u(rng) * box.edges[1] + u(rng) * box.edges[2]);
  const Vec3<double> spot = 0.3 * box.edges[0] + 0.6 * box.edges[1] + 0.2 * box.edges[2];
  for (std::int64_t i = 0; i < crowd; ++i)
    out.push_back(spot + Vec3<double>{near(rng), near(rng), near(rng)});
  return out;
}

std::vector<Vec3<float>> in_float(const Vec3<double>* xyz, std::int64_t n) {
  std::vector<Vec3<float>> out;
  for (std::int64_t i = 0; i < n; ++i) out.push_back(xyz[i].cast<float>());
  return out;
}

template <class ExecSpace>
void expect_schemes_exact(const PairHistogramInput<double>& in, const PairHistogramSettings& s) {
  const std::vector<std::uint64_t> want = kmol::test::oracle_pair_histogram(in, s);
  const std::vector<Vec3<float>> a = in_float(in.a, in.n_a),
                                 b = in_float(in.b, in.one_set() ? 0 : in.n_b);
  const PairHistogramInput<float> in_f{a.data(),     in.n_a,     in.one_set() ? nullptr : b.data(),
                                       in.n_b,       in.species, in.molecule_a,
                                       in.molecule_b};
  PairHistogramSettings all_pairs = s;
  all_pairs.impl = kmol::PairHistogramImpl::kokkos;
  const std::vector<std::uint64_t> want_f =
      kmol::pair_histogram(ExecSpace(), in_f, all_pairs).counts;
  for (CellScheme scheme : {CellScheme::atom_threads, CellScheme::cell_teams})
    for (CellThickness thickness : {CellThickness::half_reach, CellThickness::whole_reach}) {
      const std::string name =
          std::string(scheme == CellScheme::cell_teams ? "cell teams" : "atom threads") +
          (thickness == CellThickness::whole_reach ? ", whole-reach cells" : ", half-reach cells");
      EXPECT_EQ((cells_counts<ExecSpace, double>(in, s, scheme, thickness)), want)
          << "double, " << name;
      EXPECT_EQ((cells_counts<ExecSpace, float>(in_f, s, scheme, thickness)), want_f)
          << "float, " << name;
    }
}

}  // namespace

KMOL_BACKEND_TEST(PairHistogramCells, BothSchemesMatchTheOracleOnEveryPath) {
  const std::vector<BoxSpec> boxes = {BoxSpec::orthorhombic(30, 32, 34),
                                      BoxSpec::triclinic({30, 0, 0}, {3, 30, 0}, {3, 3, 30})};
  for (const BoxSpec& box : boxes)
    for (const auto& [lo, hi, crowd] : {std::tuple{0.0, 1.0, 0}, std::tuple{-0.2, 1.2, 300}}) {
      const auto a = points(700, crowd, box, lo, hi, 7);
      const auto b = points(400, 0, box, lo, hi, 8);
      const std::int64_t n_a = std::int64_t(a.size());
      std::vector<std::int32_t> species(n_a), molecule_a(n_a), molecule_b(b.size());
      for (std::int64_t i = 0; i < n_a; ++i) species[i] = int(i % 3), molecule_a[i] = int(i / 3);
      for (std::size_t i = 0; i < b.size(); ++i) molecule_b[i] = int(i / 2);
      // 5 A: six cells of the whole reach or more along each axis, so those wrap too; 8 A: seven
      // half-reach cells or more (one shift per partner and cell); 14 A: four, every cell a
      // neighbour (the minimum image pair by pair).
      for (double r_max : {5.0, 8.0, 14.0}) {
        PairHistogramSettings s;
        s.box = box;
        s.r_min = 0.25;
        s.r_max = r_max;
        s.n_bins = 131;
        SCOPED_TRACE(kmol::to_string(box.kind) + ", r_max " + std::to_string(r_max) + ", crowd " +
                     std::to_string(crowd));
        expect_schemes_exact<ExecSpace>(kmol::one_set(a.data(), n_a), s);
        expect_schemes_exact<ExecSpace>(
            kmol::two_sets(a.data(), n_a, b.data(), std::int64_t(b.size())), s);
        PairHistogramInput<double> labelled = kmol::one_set(a.data(), n_a);
        labelled.species = species.data();
        labelled.molecule_a = molecule_a.data();
        s.n_species = 3;
        s.species_pairs_enabled = {1, 0, 1, 1, 1, 0};
        expect_schemes_exact<ExecSpace>(labelled, s);
        s.n_species = 1;
        s.species_pairs_enabled.clear();
        PairHistogramInput<double> excluded =
            kmol::two_sets(a.data(), n_a, b.data(), std::int64_t(b.size()));
        excluded.molecule_a = molecule_a.data();
        excluded.molecule_b = molecule_b.data();
        expect_schemes_exact<ExecSpace>(excluded, s);
      }
    }
}

KMOL_BACKEND_TEST(PairHistogramCells, CountsBeyond32BitsInOneBinAreExact) {
  // n x n coincident points in a periodic box, all in bin 0 of one cell: one team counts them,
  // flushing its 32-bit histogram whenever the next round of pairs could wrap it. Full size:
  // 65,600^2 = 4,303,360,000 pairs, beyond 2^32. Under the sanitizers: 2,000^2 pairs with the
  // team's capacity lowered to 100,000 increments, so the same flushes come about 40 times.
  if (kmol::runs_on_host<ExecSpace>)
    GTEST_SKIP() << "CPU spaces count the cell path in 64-bit per-thread histograms";
  const std::int64_t n = kmol::test::sized<std::int64_t>(65600, 2000);
  const std::uint64_t capacity =
      kmol::test::sized<std::uint64_t>(kmol::private_count_capacity, 100000);
  const std::vector<Vec3<float>> xyz(n, Vec3<float>{1, 1, 1});
  PairHistogramSettings s;
  s.box = BoxSpec::orthorhombic(20, 20, 20);
  s.r_max = 1;
  s.n_bins = 4;
  s.impl = kmol::PairHistogramImpl::cells;
  kmol::PreparedPairHistogram<float> prepared;
  kmol::prepare_pair_histogram(kmol::two_sets(xyz.data(), n, xyz.data(), n), s, prepared);
  const std::string how = kmol::pair_histogram_cells(
      ExecSpace(), prepared.job, CellScheme::cell_teams, CellThickness::fastest, capacity);
  EXPECT_EQ(prepared.result.at(0, 0), std::uint64_t(n) * std::uint64_t(n)) << how;
}
