// The public headers' overloads (include/kmol/): atoms given as flat arrays x0,y0,z0,x1,... or as
// contiguous ranges (points.hpp) reach the entry points as the same atoms as a Vec3 array: the same
// counts, pointers into the caller's memory, and lengths that cannot be atoms refused naming the
// argument.
#include <gtest/gtest.h>
#include <Kokkos_Core.hpp>

#include <array>
#include <random>
#include <string>
#include <vector>

#include <kmol/coulomb.hpp>
#include <kmol/density.hpp>
#include <kmol/maps.hpp>
#include <kmol/pair_histogram.hpp>

namespace {

using namespace kmol;

std::vector<double> flat_gas(std::int64_t n, double length, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0, length);
  std::vector<double> xyz(std::size_t(3 * n));
  for (double& v : xyz) v = u(rng);
  return xyz;
}

std::vector<Vec3<double>> as_vec3(const std::vector<double>& flat) {
  std::vector<Vec3<double>> out(flat.size() / 3);
  for (std::size_t i = 0; i < out.size(); ++i)
    out[i] = {flat[3 * i], flat[3 * i + 1], flat[3 * i + 2]};
  return out;
}

PairHistogramSettings gas_settings() {
  PairHistogramSettings s;
  s.box = BoxSpec::orthorhombic(20, 20, 20);
  s.r_max = 9;
  s.n_bins = 30;
  return s;
}

template <class Input>
std::vector<std::uint64_t> counts(const Input& input) {
  return pair_histogram(Kokkos::DefaultHostExecutionSpace(), input, gas_settings()).counts;
}

// The call throws an InputError whose message holds `words`.
template <class F>
void expect_refused(F call, const std::string& words) {
  try {
    call();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
    return;
  }
  ADD_FAILURE() << "not refused; expected: " << words;
}

TEST(Points, FlatArraysAndRangesCountAsVec3Arrays) {
  const std::int64_t n = 600;
  const std::vector<double> flat = flat_gas(n, 20, 1);
  const std::vector<Vec3<double>> xyz = as_vec3(flat);
  const auto want = counts(one_set(xyz.data(), n));
  std::uint64_t pairs = 0;
  for (auto c : want) pairs += c;
  EXPECT_GT(pairs, std::uint64_t(n));  // an ideal gas: about n^2/2 * 0.38 pairs within r_max

  EXPECT_EQ(counts(one_set(flat.data(), n)), want);
  EXPECT_EQ(counts(one_set(flat)), want);
  EXPECT_EQ(counts(one_set(xyz)), want);
  EXPECT_EQ(counts(one_set(Span<const double>(flat.data(), flat.size()))), want);

  const std::vector<double> other = flat_gas(200, 20, 2);
  const std::vector<Vec3<double>> other_xyz = as_vec3(other);
  const auto want_two = counts(two_sets(xyz.data(), n, other_xyz.data(), 200));
  EXPECT_EQ(counts(two_sets(flat.data(), n, other.data(), 200)), want_two);
  EXPECT_EQ(counts(two_sets(flat, other_xyz)), want_two);
}

TEST(Points, FlatInputReadsTheCallersMemory) {
  const std::array<float, 6> flat{1, 2, 3, 4, 5, 6};
  const auto input = one_set(flat);
  EXPECT_EQ(input.n_a, 2);
  EXPECT_EQ(static_cast<const void*>(input.a), static_cast<const void*>(flat.data()));
  EXPECT_EQ(input.a[1].y, 5.0f);
}

TEST(Points, LengthsThatAreNotAtomsAreRefusedNamingTheArgument) {
  const std::vector<double> seven(7, 1.0);
  expect_refused([&] { one_set(seven); }, "coordinates: 7 values, not three per atom");
  expect_refused([&] { two_sets(flat_gas(2, 1, 3), seven); }, "b: 7 values");

  const std::vector<float> xyz(9, 1.0f), two(2, 1.0f), three(3, 1.0f);
  expect_refused([&] { coulomb_input(xyz, two); }, "charges: 2 values for 3 atoms");
  expect_refused([&] { coulomb_input(xyz, three, two); }, "radii: 2 values for 3 atoms");
  expect_refused([&] { density_input(xyz, three, two); }, "heights: 2 values for 3 atoms");
}

TEST(Points, MapInputsFromRanges) {
  const std::vector<float> xyz{0, 0, 0, 1, 2, 3}, q{1, -1}, r{1.5f, 2};
  const CoulombInput<float> c = coulomb_input(xyz, q, r);
  EXPECT_EQ(c.n, 2);
  EXPECT_EQ(c.positions[1].z, 3.0f);
  EXPECT_EQ(c.charges, q.data());
  EXPECT_EQ(c.radii, r.data());
  const DensityInput d = density_input(xyz, r);
  EXPECT_EQ(d.n, 2);
  EXPECT_EQ(d.radii, r.data());
  EXPECT_EQ(d.heights, nullptr);

  const std::vector<double> flat = flat_gas(50, 10, 4);
  const std::vector<Vec3<double>> vec = as_vec3(flat);
  const Grid a = grid_around(flat.data(), 50, 0.5, 3), b = grid_around(vec.data(), 50, 0.5, 3);
  EXPECT_EQ(a.counts, b.counts);
  EXPECT_EQ(a.origin.x, b.origin.x);
}

}  // namespace
