// Gaussian density maps: every implementation on every backend against a double-precision
// brute-force oracle (float and half storage), slabs equal to the single pass to the bit, atoms
// far outside the lattice, bad settings; binary16 conversion against every half value.
#include <cmath>
#include <random>
#include <string>

#include "kernels/density/density.hpp"
#include "kernels/density/half.hpp"
#include "kernels/density/implementations.hpp"
#include "kernels/density/selection.hpp"
#include "kmol/core/errors.hpp"
#include "kmol/core/execution_space.hpp"
#include "support/backend_test.hpp"

namespace {

using namespace kmol;

struct Atoms {
  std::vector<Vec3<float>> xyz;
  std::vector<float> radii;
  std::vector<float> heights;  // empty: all 1
  DensityInput input() const {
    return {xyz.data(), radii.data(), std::int64_t(xyz.size()),
            heights.empty() ? nullptr : heights.data()};
  }
};

Atoms random_atoms(int n, float length, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> where(0, length), radius(1.0f, 2.0f);
  Atoms a;
  for (int i = 0; i < n; ++i) {
    const float x = where(gen), y = where(gen), z = where(gen);
    a.xyz.push_back({x + 3.0f, y - 2.0f, z + 1.0f});
    a.radii.push_back(radius(gen));
  }
  return a;
}

template <class ExecSpace>
std::vector<DensityImpl> runnable() {
  constexpr auto platform = platform_of<ExecSpace>();
  std::vector<DensityImpl> out;
  for (DensityImpl impl : compiled_implementations(density_implementations))
    if (density_refusal(impl, platform).empty()) out.push_back(impl);
  return out;
}

// Each point within 1e-5 of its oracle sum (relative to the sum of the included terms), plus the
// threshold for each Gaussian that float and double may place on opposite sides of the cut.
void check_against_oracle(const DensityMap& map, const Atoms& atoms, const DensitySettings& s,
                          double rel, const std::string& what) {
  const Grid& g = s.grid;
  const double limit = std::log(1.0 / s.threshold);
  int reported = 0;
  for (std::int64_t k = 0; k < g.counts[2]; ++k)
    for (std::int64_t j = 0; j < g.counts[1]; ++j)
      for (std::int64_t i = 0; i < g.counts[0]; ++i) {
        const double p[3] = {g.origin.x + double(i) * g.spacing[0],
                             g.origin.y + double(j) * g.spacing[1],
                             g.origin.z + double(k) * g.spacing[2]};
        double sum = 0, slack = 0;
        for (std::size_t a = 0; a < atoms.xyz.size(); ++a) {
          const double dx = atoms.xyz[a].x - p[0], dy = atoms.xyz[a].y - p[1],
                       dz = atoms.xyz[a].z - p[2];
          const double sigma = s.scale * atoms.radii[a];
          const double x = (dx * dx + dy * dy + dz * dz) / (2 * sigma * sigma);
          const double h = atoms.heights.empty() ? 1.0 : atoms.heights[a];
          if (x <= limit) sum += h * std::exp(-x);
          if (std::abs(x - limit) < 1e-4 * limit) slack += h * s.threshold;
        }
        const double got = map.at((k * g.counts[1] + j) * g.counts[0] + i);
        const double tolerance = rel * std::max(sum, 1e-3) + slack;
        if (std::abs(got - sum) > tolerance && reported++ < 5)
          ADD_FAILURE() << what << " point " << i << "," << j << "," << k << ": " << got
                        << " vs oracle " << sum;
      }
}

DensitySettings settings_for(const Atoms& atoms) {
  DensitySettings s;
  s.grid = density_grid_around(atoms.xyz.data(), std::int64_t(atoms.xyz.size()), 0.7, 4);
  s.scale = 0.8;
  s.threshold = 1e-3;
  return s;
}

// The host's map of `atoms` is refused, naming `field` of atom `atom`.
void expect_bad_atom(const Atoms& atoms, const DensitySettings& s, const std::string& field,
                     long atom) {
  try {
    gaussian_density(Kokkos::DefaultHostExecutionSpace(), atoms.input(), s);
    ADD_FAILURE() << "a bad " << field << " of atom " << atom << " was accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.where().field, field);
    EXPECT_EQ(e.where().line, atom);
  }
}

KMOL_BACKEND_TEST(Density, MatchesOracleFloatAndHalf) {
  const Atoms atoms = random_atoms(300, 14, 11);
  DensitySettings s = settings_for(atoms);
  s.grid.counts[0] += 1;  // a run of points that does not fill the last thread
  for (DensityImpl impl : runnable<ExecSpace>()) {
    s.impl = impl;
    s.storage = DensityStorage::single;
    const DensityMap f = gaussian_density(ExecSpace(), atoms.input(), s);
    EXPECT_EQ(f.impl_used, impl);
    check_against_oracle(f, atoms, s, 1e-5, to_string(impl) + " float");
    s.storage = DensityStorage::half;
    const DensityMap h = gaussian_density(ExecSpace(), atoms.input(), s);
    ASSERT_EQ(h.half_values.size(), f.values.size());
    check_against_oracle(h, atoms, s, 1e-3, to_string(impl) + " half");
    for (std::size_t p = 0; p < f.values.size(); ++p)
      ASSERT_EQ(h.half_values[p], float_to_half(f.values[p]))
          << "half storage is the float sum rounded, point " << p;
  }
}

KMOL_BACKEND_TEST(Density, SlabsEqualSinglePassBitForBit) {
  const Atoms atoms = random_atoms(500, 18, 5);
  DensitySettings s = settings_for(atoms);
  for (DensityImpl impl : runnable<ExecSpace>()) {
    s.impl = impl;
    s.memory_budget = 0;  // automatic: a small map in one slab
    const DensityMap whole = gaussian_density(ExecSpace(), atoms.input(), s);
    EXPECT_EQ(whole.slabs, 1);
    // Room for the atoms and a few planes: many slabs, the last one shorter.
    s.memory_budget =
        28.0 * double(atoms.xyz.size()) + 3.5 * double(s.grid.counts[0] * s.grid.counts[1]) * 8;
    const DensityMap sliced = gaussian_density(ExecSpace(), atoms.input(), s);
    EXPECT_GT(sliced.slabs, 4);
    ASSERT_EQ(sliced.values.size(), whole.values.size());
    for (std::size_t p = 0; p < whole.values.size(); ++p)
      ASSERT_EQ(sliced.values[p], whole.values[p]) << to_string(impl) << " point " << p;
  }
}

// A one-shot map crosses the bus through pageable memory and the calls after it through kept
// page-locked staging (the cuda implementation's rule; the portable one's ring on GPUs): the same
// map to the bit either way. The lattice is larger than any other test's, so that its first call
// is the first of its size.
KMOL_BACKEND_TEST(Density, OneShotAndStagedCallsGiveTheSameMap) {
  const Atoms atoms = random_atoms(2000, 30, 23);
  DensitySettings s = settings_for(atoms);
  s.grid = density_grid_around(atoms.xyz.data(), std::int64_t(atoms.xyz.size()), 0.5, 4);
  for (DensityImpl impl : runnable<ExecSpace>()) {
    s.impl = impl;
    for (DensityStorage storage : {DensityStorage::single, DensityStorage::half}) {
      s.storage = storage;
      const DensityMap first = gaussian_density(ExecSpace(), atoms.input(), s);
      if (impl == DensityImpl::cuda && storage == DensityStorage::single) {
        EXPECT_NE(first.launch.find("pageable"), std::string::npos) << first.launch;
      }
      for (int call = 1; call < 3; ++call) {
        const DensityMap again = gaussian_density(ExecSpace(), atoms.input(), s);
        EXPECT_EQ(again.launch.find("pageable"), std::string::npos) << again.launch;
        ASSERT_EQ(again.values, first.values) << to_string(impl) << " call " << call;
        ASSERT_EQ(again.half_values, first.half_values) << to_string(impl) << " call " << call;
      }
    }
  }
}

// Mass-weighted maps (kmol cc --weight mass): each Gaussian's peak is its atom's height; heights
// of 1 give the unweighted map to the bit.
KMOL_BACKEND_TEST(Density, HeightsWeighEachGaussian) {
  Atoms atoms = random_atoms(300, 14, 17);
  DensitySettings s = settings_for(atoms);
  std::mt19937 gen(3);
  std::uniform_real_distribution<float> mass(1.0f, 32.0f);
  for (DensityImpl impl : runnable<ExecSpace>()) {
    s.impl = impl;
    atoms.heights.clear();
    const DensityMap plain = gaussian_density(ExecSpace(), atoms.input(), s);
    atoms.heights.assign(atoms.xyz.size(), 1.0f);
    const DensityMap ones = gaussian_density(ExecSpace(), atoms.input(), s);
    ASSERT_EQ(ones.values, plain.values) << to_string(impl);
    for (float& h : atoms.heights) h = mass(gen);
    check_against_oracle(gaussian_density(ExecSpace(), atoms.input(), s), atoms, s, 1e-5,
                         to_string(impl) + " weighted");
  }
  atoms.heights[7] = NAN;
  expect_bad_atom(atoms, s, "height", 7);
}

KMOL_BACKEND_TEST(Density, AtomsOutsideTheLatticeAndThinLattices) {
  Atoms atoms = random_atoms(50, 6, 3);
  atoms.xyz.push_back({500, 0, 0});  // far away: no cell, no contribution
  atoms.radii.push_back(1.5f);
  DensitySettings s;
  s.grid = {{2, -3, 0}, {0.5, 0.5, 0.5}, {13, 1, 9}};
  s.threshold = 1e-4;
  for (DensityImpl impl : runnable<ExecSpace>()) {
    s.impl = impl;
    check_against_oracle(gaussian_density(ExecSpace(), atoms.input(), s), atoms, s, 1e-5,
                         to_string(impl));
  }
}

TEST(Density, RejectsBadSettingsNamingTheField) {
  Atoms atoms = random_atoms(5, 3, 1);
  DensitySettings s = settings_for(atoms);
  atoms.radii[3] = -1;
  expect_bad_atom(atoms, s, "radius", 3);
  atoms.radii[3] = 1;
  s.threshold = 1.5;
  EXPECT_THROW(gaussian_density(Kokkos::DefaultHostExecutionSpace(), atoms.input(), s), InputError);
  s.threshold = 0.01;
  s.scale = 0;
  EXPECT_THROW(gaussian_density(Kokkos::DefaultHostExecutionSpace(), atoms.input(), s), InputError);
  s.scale = 1;
  s.memory_budget = -1;
  EXPECT_THROW(gaussian_density(Kokkos::DefaultHostExecutionSpace(), atoms.input(), s), InputError);
}

// Atoms are checked by several threads at once; the error names the first bad atom.
TEST(Density, NamesTheFirstBadAtomOfMany) {
  Atoms atoms = random_atoms(200000, 100, 3);
  atoms.heights.assign(atoms.xyz.size(), 1.0f);
  const DensitySettings s = settings_for(atoms);
  atoms.radii[190000] = 0;
  atoms.heights[150001] = std::nanf("");
  atoms.xyz[150001].y = std::nanf("");
  atoms.heights[160000] = std::nanf("");
  expect_bad_atom(atoms, s, "position", 150001);
  atoms.xyz[150001].y = 1;
  expect_bad_atom(atoms, s, "height", 150001);
}

TEST(Density, HalfConversionRoundTripsEveryHalfAndRoundsToNearestEven) {
  for (std::uint32_t h = 0; h < 0x10000u; ++h) {
    const std::uint16_t bits = std::uint16_t(h);
    if ((bits & 0x7c00u) == 0x7c00u && (bits & 0x3ffu)) continue;  // NaNs: any NaN comes back
    ASSERT_EQ(float_to_half(half_to_float(bits)), bits) << std::hex << h;
  }
  EXPECT_EQ(float_to_half(1.0f), 0x3c00);
  EXPECT_EQ(float_to_half(65504.0f), 0x7bff);
  EXPECT_EQ(float_to_half(65520.0f), 0x7c00);               // halfway past the largest: infinity
  EXPECT_EQ(float_to_half(1.0f + 1.0f / 2048), 0x3c00);     // tie: even
  EXPECT_EQ(float_to_half(1.0f + 3.0f / 2048), 0x3c02);     // tie: even (up)
  EXPECT_EQ(float_to_half(std::ldexp(1.0f, -25)), 0x0000);  // half the smallest subnormal: even (0)
  EXPECT_EQ(float_to_half(std::ldexp(1.5f, -25)), 0x0001);
  EXPECT_EQ(float_to_half(0.1f), 0x2e66);
}

}  // namespace
