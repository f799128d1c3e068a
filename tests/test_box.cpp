// Minimum image against a brute-force search over neighbouring images, on every backend.
#include <cmath>
#include <random>
#include <vector>

#include "kmol/core/box.hpp"
#include "kmol/core/errors.hpp"
#include "support/backend_test.hpp"

namespace {

using kmol::BoxSpec;
using kmol::Vec3;

double brute_force_distance(const BoxSpec& box, Vec3<double> d) {
  double best = INFINITY;
  for (int i = -3; i <= 3; ++i)
    for (int j = -3; j <= 3; ++j)
      for (int k = -3; k <= 3; ++k) {
        const Vec3<double> c =
            d + double(i) * box.edges[0] + double(j) * box.edges[1] + double(k) * box.edges[2];
        best = std::min(best, std::sqrt(c.x * c.x + c.y * c.y + c.z * c.z));
      }
  return best;
}

// Skewed cells, some given in a badly reduced form (the same lattice as a nicer cell).
std::vector<BoxSpec> skewed_cells(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> skew(-0.45, 0.45), len(8, 14);
  std::vector<BoxSpec> boxes;
  for (int n = 0; n < 6; ++n) {
    const double a = len(rng), b = len(rng), c = len(rng);
    boxes.push_back(
        BoxSpec::triclinic({a, 0, 0}, {skew(rng) * a, b, 0}, {skew(rng) * a, skew(rng) * b, c}));
  }
  boxes.push_back(BoxSpec::triclinic({10, 0, 0}, {30, 10, 0}, {-20, 10, 10}));  // unreduced cube
  boxes.push_back(BoxSpec::orthorhombic(9, 11, 13));
  return boxes;
}

// Random points plus points on faces and corners of the cell.
std::vector<Vec3<double>> probe_points(const BoxSpec& box, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(-0.7, 1.7);
  std::vector<Vec3<double>> pts;
  const double corners[] = {0.0, 0.5, 1.0};
  for (double f0 : corners)
    for (double f1 : corners)
      for (double f2 : corners)
        pts.push_back(f0 * box.edges[0] + f1 * box.edges[1] + f2 * box.edges[2]);
  for (int n = 0; n < 300; ++n)
    pts.push_back(u(rng) * box.edges[0] + u(rng) * box.edges[1] + u(rng) * box.edges[2]);
  return pts;
}

template <class ExecSpace, class Box>
std::vector<double> kmol_distances(const Box& kbox, const std::vector<Vec3<double>>& pts) {
  const std::int64_t n = pts.size();
  Kokkos::View<Vec3<double>*, typename ExecSpace::memory_space> p("p", n);
  Kokkos::View<double**, typename ExecSpace::memory_space> r("r", n, n);
  Kokkos::deep_copy(
      p,
      Kokkos::View<const Vec3<double>*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(pts.data(), n));
  Kokkos::parallel_for(
      "test::minimum_image", Kokkos::RangePolicy<ExecSpace>(0, n), KOKKOS_LAMBDA(std::int64_t i) {
        for (std::int64_t j = 0; j < n; ++j)
          r(i, j) = kmol::math::sqrt(kmol::norm2(kbox.minimum_image(p(j) - p(i))));
      });
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), r);
  return std::vector<double>(h.data(), h.data() + n * n);
}

}  // namespace

KMOL_BACKEND_TEST(Box, MinimumImageMatchesBruteForceWithinInscribedRadius) {
  std::mt19937_64 rng(7);
  for (const BoxSpec& box : skewed_cells(rng)) {
    const double r_in = kmol::inscribed_radius(kmol::validated(box));
    const auto pts = probe_points(box, rng);
    const auto got = kmol::visit_box<double>(
        box, [&](auto kbox) { return kmol_distances<ExecSpace>(kbox, pts); });
    std::size_t checked = 0;
    for (std::size_t i = 0; i < pts.size(); ++i)
      for (std::size_t j = 0; j < pts.size(); ++j) {
        const double want = brute_force_distance(box, pts[j] - pts[i]);
        if (want > r_in) continue;
        ++checked;
        ASSERT_NEAR(got[i * pts.size() + j], want, 1e-9 * (1 + want)) << "pair " << i << "," << j;
      }
    EXPECT_GT(checked, pts.size());
  }
}

TEST(Box, ReductionEnlargesTheInscribedSphereOfAnUnreducedCell) {
  const BoxSpec skewed = BoxSpec::triclinic({10, 0, 0}, {30, 10, 0}, {-20, 10, 10});
  EXPECT_NEAR(kmol::inscribed_radius(kmol::validated(skewed)), 5.0, 1e-12);
}

// The minimum-image radius is half the shortest lattice vector: checked against a search over
// every combination of the cell's edges up to 4, in cells given reduced or not.
TEST(Box, MinimumImageRadiusIsHalfTheShortestLatticeVector) {
  std::mt19937_64 rng(11);
  for (const BoxSpec& box : skewed_cells(rng)) {
    double shortest = INFINITY;
    for (int i = -4; i <= 4; ++i)
      for (int j = -4; j <= 4; ++j)
        for (int k = -4; k <= 4; ++k)
          if (i != 0 || j != 0 || k != 0)
            shortest =
                std::min(shortest,
                         std::sqrt(kmol::norm2(double(i) * box.edges[0] + double(j) * box.edges[1] +
                                               double(k) * box.edges[2])));
    const BoxSpec reduced = kmol::validated(box);
    EXPECT_NEAR(kmol::minimum_image_radius(reduced), 0.5 * shortest, 1e-9 * shortest);
    EXPECT_GE(kmol::minimum_image_radius(reduced), kmol::inscribed_radius(reduced) - 1e-9);
  }
  EXPECT_TRUE(std::isinf(kmol::minimum_image_radius(BoxSpec::none())));
  EXPECT_DOUBLE_EQ(kmol::minimum_image_radius(kmol::validated(BoxSpec::orthorhombic(10, 20, 30))),
                   5.0);
}

// GROMACS' rhombic dodecahedron (xy-square) of 40 A: the faces of its triclinic cell are 28.3 A
// apart, but its lattice's shortest vector is 40 A long; likewise the truncated octahedron.
TEST(Box, DodecahedronAndOctahedronReachHalfTheirImageDistance) {
  const double d = 40, s2 = std::sqrt(2.0), s6 = std::sqrt(6.0);
  const BoxSpec dodecahedron =
      kmol::validated(BoxSpec::triclinic({d, 0, 0}, {0, d, 0}, {d / 2, d / 2, d * s2 / 2}));
  EXPECT_NEAR(kmol::inscribed_radius(dodecahedron), d / (2 * s2), 1e-9);
  EXPECT_NEAR(kmol::minimum_image_radius(dodecahedron), d / 2, 1e-9);
  const BoxSpec octahedron = kmol::validated(
      BoxSpec::triclinic({d, 0, 0}, {d / 3, 2 * s2 * d / 3, 0}, {-d / 3, s2 * d / 3, s6 * d / 3}));
  EXPECT_NEAR(kmol::minimum_image_radius(octahedron), d / 2, 1e-9);
  EXPECT_LT(kmol::inscribed_radius(octahedron), d / 2 - 1);
}

TEST(Box, RefusesDegenerateAndNonFiniteCells) {
  EXPECT_THROW(kmol::validated(BoxSpec::triclinic({1, 0, 0}, {0, 1, 0}, {1, 1, 0})),
               kmol::InputError);
  EXPECT_THROW(kmol::validated(BoxSpec::orthorhombic(1, 0, 1)), kmol::InputError);
  EXPECT_THROW(kmol::validated(BoxSpec::orthorhombic(1, NAN, 1)), kmol::InputError);
  // A cell skewed a million times over (found by fuzzing H5MD boxes): refused at once, not
  // reduced two lattice vectors a round for minutes.
  EXPECT_THROW(kmol::validated(BoxSpec::triclinic({1, 0, 0}, {1e6, 1, 0}, {0, 0, 1})),
               kmol::InputError);
  // A few rounds' worth of skew is reduced as before.
  const BoxSpec skewed = kmol::validated(BoxSpec::triclinic({1, 0, 0}, {40, 1, 0}, {0, 0, 1}));
  EXPECT_DOUBLE_EQ(skewed.edges[1].x, 0);
}

TEST(Box, RefusesEdgesTooShortOrTooLongForACell) {
  // A subnormal edge (found by mutating H5MD files) made every g(r) row -nan.
  for (const double l : {1e-320, 1e-4, 1e9, 1e30}) try {
      kmol::validated(BoxSpec::orthorhombic(10, l, 10));
      FAIL() << "accepted an edge of " << l;
    } catch (const kmol::InputError& e) {
      EXPECT_NE(std::string(e.what()).find("expected between 0.001 and 1e+08"), std::string::npos)
          << e.what();
    }
  EXPECT_NO_THROW(kmol::validated(BoxSpec::orthorhombic(1e-3, 1, 1e8)));
  EXPECT_THROW(kmol::validated(BoxSpec::triclinic({10, 0, 0}, {0, 10, 0}, {1e9, 0, 10})),
               kmol::InputError);
  EXPECT_THROW(kmol::validated(BoxSpec::triclinic({1e-5, 0, 0}, {0, 10, 0}, {0, 0, 10})),
               kmol::InputError);
}
