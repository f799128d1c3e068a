// Pair histograms beyond the minimum-image limit: every implementation on every backend counts
// every periodic image within r_max, equal to the all-images brute force in double precision, in
// every kind of box (orthorhombic, skewed triclinic, rhombic dodecahedron, truncated octahedron).
#include <cmath>
#include <random>
#include <vector>

#include "kernels/pair_histogram/pair_histogram.hpp"
#include "kernels/pair_histogram/selection.hpp"
#include "kmol/core/errors.hpp"
#include "kmol/core/execution_space.hpp"
#include "support/all_images_oracle.hpp"
#include "support/backend_test.hpp"
#include "support/pair_histogram_oracle.hpp"

namespace {

using kmol::BoxSpec;
using kmol::Vec3;
using Impl = kmol::PairHistogramImpl;
using Input = kmol::PairHistogramInput<double>;
using Settings = kmol::PairHistogramSettings;

std::vector<BoxSpec> periodic_boxes() {
  const double s2 = std::sqrt(2.0), s6 = std::sqrt(6.0), d = 12;
  return {
      BoxSpec::orthorhombic(10, 11, 12),
      BoxSpec::triclinic({11, 0, 0}, {3, 10, 0}, {-2.5, 3.5, 10.5}),
      BoxSpec::triclinic({d, 0, 0}, {0, d, 0}, {d / 2, d / 2, d * s2 / 2}),
      BoxSpec::triclinic({d, 0, 0}, {d / 3, 2 * s2 * d / 3, 0}, {-d / 3, s2 * d / 3, s6 * d / 3})};
}

std::vector<Vec3<double>> points_in(const BoxSpec& box, int n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-0.3, 1.3);  // some outside the cell
  std::vector<Vec3<double>> out(static_cast<std::size_t>(n));
  for (auto& p : out) p = u(rng) * box.edges[0] + u(rng) * box.edges[1] + u(rng) * box.edges[2];
  return out;
}

template <class ExecSpace>
std::vector<Impl> runnable(const Input& in, const Settings& s) {
  Settings without_box = s;
  without_box.box = BoxSpec::none();  // the image sum's terms have none
  const auto shape = kmol::shape_of(in.n_a, in.n_b, in.one_set(), without_box);
  std::vector<Impl> out;
  for (auto impl : {Impl::kokkos, Impl::host, Impl::cuda})
    if (kmol::pair_histogram_refusal(impl, shape, kmol::platform_of<ExecSpace>()).empty())
      out.push_back(impl);
  return out;
}

std::uint64_t total(const std::vector<std::uint64_t>& counts) {
  std::uint64_t sum = 0;
  for (auto c : counts) sum += c;
  return sum;
}

template <class ExecSpace>
void expect_oracle(const Input& in, Settings s) {
  const auto want = kmol::test::oracle_all_images(in, s);
  ASSERT_GT(total(want), 0u);
  std::vector<Vec3<float>> a_f, b_f;
  for (std::int64_t i = 0; i < in.n_a; ++i) a_f.push_back(in.a[i].cast<float>());
  for (std::int64_t i = 0; i < in.n_b; ++i) b_f.push_back(in.b[i].cast<float>());
  kmol::PairHistogramInput<float> in_f =
      in.one_set() ? kmol::one_set(a_f.data(), in.n_a)
                   : kmol::two_sets(a_f.data(), in.n_a, b_f.data(), in.n_b);
  in_f.species = in.species;
  in_f.molecule_a = in.molecule_a;
  in_f.molecule_b = in.molecule_b;
  std::vector<std::uint64_t> float_reference;
  const auto impls = runnable<ExecSpace>(in, s);
  ASSERT_FALSE(impls.empty());
  for (Impl impl : impls) {
    s.impl = impl;
    EXPECT_EQ(kmol::pair_histogram(ExecSpace(), in, s).counts, want)
        << "double, impl " << kmol::to_string(impl);
    const auto got_f = kmol::pair_histogram(ExecSpace(), in_f, s).counts;
    if (float_reference.empty()) float_reference = got_f;
    EXPECT_EQ(got_f, float_reference) << "float, impl " << kmol::to_string(impl);
    EXPECT_NEAR(double(total(got_f)), double(total(want)), 1e-4 * double(total(want)) + 2);
  }
}

}  // namespace

KMOL_BACKEND_TEST(PeriodicImages, EveryImageWithinRmaxMatchesTheBruteForce) {
  for (const BoxSpec& box : periodic_boxes()) {
    const double r_in = kmol::inscribed_radius(kmol::validated(box));
    const auto a = points_in(box, 70, 1);
    const auto b = points_in(box, 45, 2);
    // Just beyond the faces' limit, at the minimum-image radius, and several cells out.
    for (double r_max :
         {1.05 * r_in, kmol::minimum_image_radius(kmol::validated(box)), 2.7 * r_in}) {
      Settings s;
      s.box = box;
      s.r_min = 0.25;
      s.r_max = r_max;
      s.n_bins = 61;
      SCOPED_TRACE(kmol::to_string(box.kind) + " r_max " + std::to_string(r_max));
      expect_oracle<ExecSpace>(kmol::one_set(a.data(), 70), s);
      expect_oracle<ExecSpace>(kmol::two_sets(a.data(), 70, b.data(), 45), s);
    }
  }
}

KMOL_BACKEND_TEST(PeriodicImages, SpeciesPartialsAndExclusionsMatchTheBruteForce) {
  for (const BoxSpec& box : periodic_boxes()) {
    const double r_in = kmol::inscribed_radius(kmol::validated(box));
    const auto a = points_in(box, 60, 3);
    const auto b = points_in(box, 30, 4);
    std::vector<std::int32_t> species(60), mol_a(60), mol_b(30);
    for (int i = 0; i < 60; ++i) species[i] = i % 3, mol_a[i] = i / 4;
    for (int i = 0; i < 30; ++i) mol_b[i] = i / 2;
    Settings s;
    s.box = box;
    s.r_max = 1.9 * r_in;
    s.n_bins = 40;
    s.n_species = 3;
    s.species_pairs_enabled = {1, 1, 0, 1, 1, 1};
    SCOPED_TRACE(kmol::to_string(box.kind));
    Input with_species = kmol::one_set(a.data(), 60);
    with_species.species = species.data();
    with_species.molecule_a = mol_a.data();
    expect_oracle<ExecSpace>(with_species, s);
    s.n_species = 1;
    s.species_pairs_enabled.clear();
    Input excluded = kmol::two_sets(a.data(), 60, b.data(), 30);
    excluded.molecule_a = mol_a.data();
    excluded.molecule_b = mol_b.data();
    expect_oracle<ExecSpace>(excluded, s);
    // Selections sharing atoms: each shared atom is its own molecule in both (as kmol rdf labels
    // them), so it is not paired with itself, but with its images.
    std::vector<std::int32_t> own_a(60), own_b(30);
    for (int i = 0; i < 60; ++i) own_a[i] = i;
    for (int i = 0; i < 30; ++i) own_b[i] = 2 * i;  // b's atom i is a's atom 2i
    std::vector<Vec3<double>> shared(30);
    for (int i = 0; i < 30; ++i) shared[i] = a[std::size_t(2 * i)];
    Input overlap = kmol::two_sets(a.data(), 60, shared.data(), 30);
    overlap.molecule_a = own_a.data();
    overlap.molecule_b = own_b.data();
    expect_oracle<ExecSpace>(overlap, s);
  }
}

// Up to the minimum-image radius the image sum is the minimum-image histogram: equal to the
// minimum-image oracle in the rhombic dodecahedron between its faces' limit and half its image
// distance, where the minimum-image kernels alone cannot reach.
KMOL_BACKEND_TEST(PeriodicImages, WithinTheMinimumImageRadiusEqualsTheMinimumImage) {
  const double d = 12;
  const BoxSpec box =
      BoxSpec::triclinic({d, 0, 0}, {0, d, 0}, {d / 2, d / 2, d * std::sqrt(2.0) / 2});
  const auto a = points_in(box, 120, 5);
  Settings s;
  s.box = box;
  s.r_max = 0.999 * kmol::minimum_image_radius(kmol::validated(box));
  s.n_bins = 50;
  ASSERT_GT(s.r_max, 1.4 * kmol::inscribed_radius(kmol::validated(box)));
  const auto in = kmol::one_set(a.data(), 120);
  const auto want = kmol::test::oracle_pair_histogram(in, s);
  EXPECT_EQ(kmol::pair_histogram(ExecSpace(), in, s).counts, want);
  EXPECT_EQ(kmol::test::oracle_all_images(in, s), want);
}

TEST(PeriodicImages, CellsRefusesTheImageSumNamingTheLimit) {
  const auto a = points_in(BoxSpec::orthorhombic(10, 10, 10), 20, 6);
  Settings s;
  s.box = BoxSpec::orthorhombic(10, 10, 10);
  s.r_max = 6;
  s.n_bins = 10;
  s.impl = Impl::cells;
  try {
    kmol::pair_histogram(Kokkos::DefaultHostExecutionSpace(), kmol::one_set(a.data(), 20), s);
    FAIL() << "cells counted beyond the inscribed radius";
  } catch (const kmol::UnsupportedError& e) {
    EXPECT_NE(std::string(e.what()).find("inscribed radius (5.000000)"), std::string::npos)
        << e.what();
  }
}

namespace {

// Distances in the xy plane against every image of the lattice of the box's first two edges
// (gmx rdf -xy's periodicity), z ignored: one set, i < j, and each atom with its own images once
// per pair +-n.
std::vector<std::uint64_t> oracle_xy(const std::vector<Vec3<double>>& a, const BoxSpec& box,
                                     const Settings& s) {
  const kmol::HistogramRange<double> range(s.r_min, s.r_max, s.n_bins);
  std::vector<std::uint64_t> counts(std::size_t(s.n_bins), 0);
  const Vec3<double> e0 = box.edges[0], e1 = box.edges[1];
  for (std::size_t i = 0; i < a.size(); ++i)
    for (std::size_t j = i; j < a.size(); ++j)
      for (int p = -6; p <= 6; ++p)
        for (int q = -6; q <= 6; ++q) {
          if (j == i && !(p > 0 || (p == 0 && q > 0))) continue;  // own images: one of +-n
          const double x = a[j].x - a[i].x + p * e0.x + q * e1.x;
          const double y = a[j].y - a[i].y + p * e0.y + q * e1.y;
          const double r = std::sqrt(x * x + y * y);
          if (r >= s.r_min && r < s.r_max) {
            std::int32_t k = std::int32_t((r - s.r_min) / range.width);
            if (k >= s.n_bins || r < std::fma(double(k), range.width, s.r_min)) --k;
            if (k + 1 < s.n_bins && r >= std::fma(double(k + 1), range.width, s.r_min)) ++k;
            ++counts[std::size_t(k)];
          }
        }
  return counts;
}

}  // namespace

KMOL_BACKEND_TEST(PeriodicImages, DistancesInAPlaneMatchA2DBruteForce) {
  const BoxSpec dodecahedron = BoxSpec::triclinic({12, 0, 0}, {0, 12, 0}, {6, 6, 8.5});
  for (const BoxSpec& box : {BoxSpec::orthorhombic(10, 11, 3), dodecahedron}) {
    const auto a = points_in(box, 80, 7);
    for (double r_max : {4.9, 13.0}) {  // within the plane's minimum image, and beyond
      Settings s;
      s.box = box;
      s.plane = kmol::Plane::xy;
      s.r_min = 0.1;
      s.r_max = r_max;
      s.n_bins = 37;
      SCOPED_TRACE(kmol::to_string(box.kind) + " r_max " + std::to_string(r_max));
      const auto want = oracle_xy(a, box, s);
      ASSERT_GT(total(want), 0u);
      for (Impl impl : runnable<ExecSpace>(kmol::one_set(a.data(), 80), s)) {
        s.impl = impl;
        EXPECT_EQ(kmol::pair_histogram(ExecSpace(), kmol::one_set(a.data(), 80), s).counts, want)
            << kmol::to_string(impl);
      }
    }
  }
}

TEST(PeriodicImages, APlaneNeedsTwoBoxEdgesInIt) {
  const BoxSpec box = BoxSpec::triclinic({12, 0, 0}, {0, 12, 0}, {6, 6, 8.5});
  EXPECT_NEAR(kmol::plane_area(box, kmol::Plane::xy), 144, 1e-12);
  try {
    kmol::plane_box(box, kmol::Plane::xz, 5);
    FAIL() << "xz accepted without two edges in the plane";
  } catch (const kmol::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("two edges in the xz plane"), std::string::npos)
        << e.what();
  }
  EXPECT_NEAR(kmol::plane_area(BoxSpec::orthorhombic(2, 3, 5), kmol::Plane::yz), 15, 1e-12);
}
