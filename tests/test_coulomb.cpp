// Potential maps: every implementation, on every backend, in both precisions and with and without
// compensated summation, against the brute-force double-precision oracle; the physics' limits
// (mdh at kappa = 0 is Coulomb in the solvent; faces only; units); accuracy of compensation.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "kernels/coulomb/coulomb.hpp"
#include "kernels/coulomb/implementations.hpp"
#include "kernels/coulomb/selection.hpp"
#include "kernels/coulomb/validation.hpp"
#include "kernels/coulomb/water_box.hpp"
#include "kmol/core/cancel.hpp"
#include "kmol/core/errors.hpp"
#include "kmol/core/execution_space.hpp"
#include "support/backend_test.hpp"
#include "support/coulomb_oracle.hpp"

namespace {

using namespace kmol;
using kmol::test::ChargedAtoms;
using kmol::test::small_problem;

template <class ExecSpace>
std::vector<CoulombImpl> runnable(const CoulombSettings& s, std::int64_t atoms) {
  std::vector<CoulombImpl> out;
  for (CoulombImpl impl : compiled_implementations(coulomb_implementations))
    if (coulomb_refusal(
            impl,
            {s.method, atoms, s.lattice.points(), s.faces_only, s.lattice.spacing[0], s.cutoff},
            platform_of<ExecSpace>())
            .empty())
      out.push_back(impl);
  return out;
}

template <class ExecSpace, class T>
PotentialMap<T> compute(const ChargedAtoms& atoms, const CoulombSettings& s) {
  std::vector<Vec3<T>> xyz;
  std::vector<T> q, r;
  for (std::size_t a = 0; a < atoms.positions.size(); ++a) {
    xyz.push_back(atoms.positions[a].template cast<T>());
    q.push_back(T(atoms.charges[a]));
    r.push_back(T(atoms.radii[a]));
  }
  return coulomb_potential(
      ExecSpace(), CoulombInput<T>{xyz.data(), q.data(), r.data(), std::int64_t(xyz.size())}, s);
}

// Every point within rel * (sum of |terms|) of the oracle; returns the largest such ratio.
template <class T>
double check_against_oracle(const PotentialMap<T>& map, const ChargedAtoms& atoms,
                            const CoulombSettings& s, double rel, const std::string& what) {
  const Grid& l = s.lattice;
  double worst = 0;
  int reported = 0;
  for (std::int64_t k = 0; k < l.counts[2]; ++k)
    for (std::int64_t j = 0; j < l.counts[1]; ++j)
      for (std::int64_t i = 0; i < l.counts[0]; ++i) {
        const bool face = i == 0 || j == 0 || k == 0 || i == l.counts[0] - 1 ||
                          j == l.counts[1] - 1 || k == l.counts[2] - 1;
        const double got = double(map.at(i, j, k));
        if (s.faces_only && !face) {
          EXPECT_EQ(got, 0.0) << what << " interior point " << i << "," << j << "," << k;
          continue;
        }
        double magnitude = 0;
        const Vec3<double> p =
            l.origin + Vec3<double>{double(i) * l.spacing[0], double(j) * l.spacing[0],
                                    double(k) * l.spacing[0]};
        const double want = kmol::test::oracle_point(atoms, s, p, &magnitude);
        const double ratio = std::fabs(got - want) / (magnitude + 1e-300);
        worst = std::max(worst, magnitude == 0 ? std::fabs(got) : ratio);
        if (!(ratio <= rel) && magnitude > 0 && reported++ < 5)
          ADD_FAILURE() << what << " point " << i << "," << j << "," << k << ": " << got << " vs "
                        << want << " (terms " << magnitude << ")";
      }
  return worst;
}

template <class ExecSpace>
void check_all(CoulombSettings s, const ChargedAtoms& atoms) {
  for (CoulombImpl impl : runnable<ExecSpace>(s, std::int64_t(atoms.positions.size())))
    for (bool compensated : {false, true}) {
      s.impl = impl;
      s.compensated = compensated;
      const std::string what =
          to_string(s.method) + "/" + to_string(impl) + (compensated ? "/compensated" : "");
      auto f = compute<ExecSpace, float>(atoms, s);
      EXPECT_EQ(f.impl_used, impl);
      check_against_oracle(f, atoms, s, 2e-5, what + "/float");
      auto d = compute<ExecSpace, double>(atoms, s);
      check_against_oracle(d, atoms, s, 1e-12, what + "/double");
    }
}

KMOL_BACKEND_TEST(Coulomb, EveryMethodMatchesTheOracle) {
  // Atoms around and beyond the lattice (points far from every atom get nothing from cutoff).
  const auto atoms = kmol::test::random_atoms(300, {-6, -3, -5}, 20, 7);
  for (CoulombMethod m : {CoulombMethod::direct, CoulombMethod::cutoff, CoulombMethod::mdh})
    check_all<ExecSpace>(small_problem(m), atoms);
}

// `atoms` followed by the atoms of `crowd`.
ChargedAtoms with_crowd(ChargedAtoms atoms, const ChargedAtoms& crowd) {
  atoms.positions.insert(atoms.positions.end(), crowd.positions.begin(), crowd.positions.end());
  atoms.charges.insert(atoms.charges.end(), crowd.charges.begin(), crowd.charges.end());
  atoms.radii.insert(atoms.radii.end(), crowd.radii.begin(), crowd.radii.end());
  return atoms;
}

// Sixty atoms crowded into one bin among 3,000 at water's density: the capacity leaves a few
// atoms (0.2 % of all) to the host in the CUDA cutoff path, and the sum is still the oracle's.
KMOL_BACKEND_TEST(Coulomb, CrowdedBinOverflowsToTheHost) {
  const auto atoms = with_crowd(kmol::test::random_atoms(3000, {-6, -3, -5}, 30, 7),
                                kmol::test::random_atoms(60, {2, 2, 1}, 0.4, 9));
  const CoulombSettings s = small_problem(CoulombMethod::cutoff);
  check_all<ExecSpace>(s, atoms);
  if (platform_of<ExecSpace>() == Platform::cuda) {
    CoulombSettings c = s;
    c.impl = CoulombImpl::cuda;
    const auto map = compute<ExecSpace, float>(atoms, c);
    EXPECT_EQ(map.launch.find(" 0 overflow atoms"), std::string::npos) << map.launch;
  }
}

// The GPU paths sort the atoms into cells or bins with atomic counters; each cell's atoms are then
// put in index order, so a map repeats bit for bit whatever order the counters were taken in. The
// cuda path's first call crosses the bus through pageable memory and the calls after it through
// kept page-locked staging: the same map either way. The lattice is larger than any other
// cutoff test's, so that its first call is the first of its size.
KMOL_BACKEND_TEST(Coulomb, CutoffMapRepeatsBitForBit) {
  const auto atoms = with_crowd(kmol::test::random_atoms(4000, {-6, -3, -5}, 30, 5),
                                kmol::test::random_atoms(200, {2, 2, 1}, 1.5, 8));
  CoulombSettings s = small_problem(CoulombMethod::cutoff);
  s.lattice.counts = {41, 33, 29};
  for (CoulombImpl impl : runnable<ExecSpace>(s, std::int64_t(atoms.positions.size()))) {
    s.impl = impl;
    const auto first = compute<ExecSpace, float>(atoms, s);
    if (impl == CoulombImpl::cuda) {
      EXPECT_NE(first.launch.find("pageable"), std::string::npos) << first.launch;
    }
    for (int call = 0; call < 3; ++call) {
      const auto again = compute<ExecSpace, float>(atoms, s);
      EXPECT_EQ(again.launch.find("pageable"), std::string::npos) << again.launch;
      ASSERT_EQ(again.values.size(), first.values.size());
      EXPECT_EQ(std::memcmp(again.values.data(), first.values.data(),
                            first.values.size() * sizeof(float)),
                0)
          << to_string(impl) << ", call " << call + 2;
    }
  }
}

// A map asked for after a cancel throws Interrupted (every row stops after its first piece), and
// once cleared the same call maps again.
TEST(CoulombCancel, StopAndThrowInterruptedThenMapAgain) {
  const auto atoms = kmol::test::random_atoms(300, {-6, -3, -5}, 20, 7);
  int checked = 0;
  const auto check = [&](auto space, CoulombMethod method) {
    using ExecSpace = decltype(space);
    CoulombSettings s = small_problem(method);
    for (CoulombImpl impl : runnable<ExecSpace>(s, std::int64_t(atoms.positions.size()))) {
      s.impl = impl;
      const std::string what = to_string(method) + "/" + to_string(impl);
      kmol::request_cancel(2);
      EXPECT_THROW((compute<ExecSpace, float>(atoms, s)), kmol::Interrupted) << what;
      kmol::clear_cancel();
      const auto map = compute<ExecSpace, float>(atoms, s);
      double sum = 0;
      for (const float v : map.values) sum += std::fabs(v);
      EXPECT_GT(sum, 0) << what;
      ++checked;
    }
  };
  for (CoulombMethod m : {CoulombMethod::direct, CoulombMethod::cutoff}) {
    check(Kokkos::DefaultHostExecutionSpace(), m);
    check(Kokkos::DefaultExecutionSpace(), m);
  }
  EXPECT_GE(checked, 4);  // the host and kokkos rows of both methods at least
}

// Many atoms are checked by every host thread: the error names the first bad one, whichever
// thread met it.
TEST(CoulombPreparation, NamesTheFirstNonFiniteAtomOfMany) {
  const std::int64_t n = 300000;
  std::vector<Vec3<float>> xyz(std::size_t(n), Vec3<float>{1, 2, 3});
  std::vector<float> q(std::size_t(n), 0.5f);
  xyz[250000].y = std::numeric_limits<float>::quiet_NaN();
  q[70001] = std::numeric_limits<float>::infinity();
  const CoulombInput<float> input{xyz.data(), q.data(), nullptr, n};
  try {
    prepare_coulomb(input, small_problem(CoulombMethod::cutoff));
    FAIL() << "non-finite atoms were accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("atom 70001 has a non-finite"), std::string::npos)
        << e.what();
  }
}

KMOL_BACKEND_TEST(Coulomb, MdhFacesOnly) {
  const auto atoms = kmol::test::random_atoms(200, {0, 0, 0}, 12, 11);
  CoulombSettings s = small_problem(CoulombMethod::mdh);
  s.faces_only = true;
  s.units = PotentialUnits::kcal_per_mol_e;
  check_all<ExecSpace>(s, atoms);
}

KMOL_BACKEND_TEST(Coulomb, AtomOnALatticePointIsLeftOutThere) {
  ChargedAtoms atoms;
  atoms.positions = {{0, 0, 0}, {1, 0, 0}};
  atoms.charges = {1, -1};
  atoms.radii = {1, 1};
  CoulombSettings s;
  s.lattice.spacing = {1, 1, 1};
  s.lattice.counts = {3, 1, 1};
  s.units = PotentialUnits::volt;
  for (CoulombImpl impl : runnable<ExecSpace>(s, 2)) {
    s.impl = impl;
    const auto map = compute<ExecSpace, double>(atoms, s);
    const double k = coulomb::volt_per_e_per_angstrom();
    EXPECT_NEAR(map.at(0, 0, 0), -k, 1e-12 * k) << to_string(impl);
    EXPECT_NEAR(map.at(1, 0, 0), k, 1e-12 * k) << to_string(impl);
    EXPECT_NEAR(map.at(2, 0, 0), k / 2 - k, 1e-12 * k) << to_string(impl);
  }
}

TEST(Coulomb, MdhWithoutSaltIsCoulombInTheSolvent) {
  const auto atoms = kmol::test::random_atoms(50, {0, 0, 0}, 8, 3);
  CoulombSettings mdh = small_problem(CoulombMethod::mdh),
                  direct = small_problem(CoulombMethod::direct);
  mdh.ionic_strength = 0;
  direct.dielectric = 78.54;
  const auto a = compute<Kokkos::DefaultHostExecutionSpace, double>(atoms, mdh);
  const auto b = compute<Kokkos::DefaultHostExecutionSpace, double>(atoms, direct);
  for (std::size_t p = 0; p < a.values.size(); ++p)
    EXPECT_NEAR(a.values[p], b.values[p], 1e-12 * std::fabs(b.values[p]));
}

TEST(Coulomb, UnitsAndDebyeLength) {
  // e / (4 pi eps0 1 A) = 14.3996 V = 332.0637 kcal/mol/e = 560.45 kT/e at 298.15 K.
  EXPECT_NEAR(coulomb::potential_scale(PotentialUnits::volt, 298.15, 1), 14.399645, 1e-5);
  EXPECT_NEAR(coulomb::potential_scale(PotentialUnits::kcal_per_mol_e, 298.15, 1), 332.0637, 1e-3);
  EXPECT_NEAR(coulomb::potential_scale(PotentialUnits::kT_per_e, 298.15, 1), 560.45, 0.01);
  // Debye length of 0.15 M NaCl in water at 298.15 K: 7.85 A.
  EXPECT_NEAR(1 / coulomb::debye_kappa(0.15, 298.15, 78.54), 7.85, 0.01);
}

TEST(Coulomb, BadSettingsNameTheOption) {
  const auto atoms = kmol::test::random_atoms(10, {0, 0, 0}, 5, 1);
  auto expect_option = [&](CoulombSettings s, const std::string& option) {
    try {
      compute<Kokkos::DefaultHostExecutionSpace, float>(atoms, s);
      ADD_FAILURE() << "accepted settings for " << option;
    } catch (const InputError& e) {
      EXPECT_EQ(e.where().field, option) << e.what();
    }
  };
  CoulombSettings s = small_problem(CoulombMethod::cutoff);
  s.cutoff = 0;
  expect_option(s, "--cutoff");
  s = small_problem(CoulombMethod::mdh);
  s.ionic_strength = -0.1;
  expect_option(s, "--ionic-strength");
  s.ionic_strength = 0.1;
  s.lattice.spacing = {0, 0, 0};
  expect_option(s, "--spacing");
  s.lattice.spacing = {0.5, 0.5, 0.5};
  s.lattice.counts = {100000, 100000, 100000};
  expect_option(s, "--spacing");
  ChargedAtoms none;
  EXPECT_THROW((compute<Kokkos::DefaultHostExecutionSpace, float>(
                   none, small_problem(CoulombMethod::direct))),
               InputError);
}

TEST(Coulomb, LatticeAroundCoversTheAtomsWithPadding) {
  const std::vector<Vec3<double>> xyz = {{0, 0, 0}, {10, 4, -2}};
  const Grid l = grid_around(xyz.data(), 2, 0.5, 5);
  EXPECT_EQ(l.counts[0], 41);  // 10 + 2 * 5 = 20 A at 0.5 A
  EXPECT_EQ(l.counts[1], 29);
  EXPECT_EQ(l.counts[2], 25);
  EXPECT_DOUBLE_EQ(l.origin.x, -5);
  EXPECT_DOUBLE_EQ(l.origin.y, -5);
  EXPECT_DOUBLE_EQ(l.origin.z, -7);
}

// A large neutral system where single-precision rounding matters: compensated summation must
// lower the largest error of every implementation (the docs' table at full size, in miniature).
KMOL_BACKEND_TEST(Coulomb, CompensationLowersTheLargestError) {
  // Inputs exactly representable in single precision (coordinates rounded to float, lattice at the
  // origin with a spacing of few bits), so the oracle sees the same problem and the errors left are
  // those of the summation, which is what compensation addresses.
  const auto water = coulomb::water_box(6000, 57, 5);  // 18,000 atoms at 0.1 / A^3
  ChargedAtoms atoms{water.positions, water.charges, water.radii};
  for (auto& p : atoms.positions) p = p.cast<float>().cast<double>();
  for (CoulombMethod m : {CoulombMethod::direct, CoulombMethod::cutoff}) {
    CoulombSettings s;
    s.method = m;
    s.cutoff = 12;
    s.lattice.spacing = {11.5, 11.5, 11.5};
    s.lattice.counts = {5, 4, 3};
    const auto reference = kmol::test::oracle_map(atoms, s);
    for (CoulombImpl impl : runnable<ExecSpace>(s, std::int64_t(atoms.positions.size()))) {
      s.impl = impl;
      double worst[2] = {0, 0};
      for (bool compensated : {false, true}) {
        s.compensated = compensated;
        const auto map = compute<ExecSpace, float>(atoms, s);
        for (std::size_t p = 0; p < reference.size(); ++p)
          worst[compensated] =
              std::max(worst[compensated], std::fabs(double(map.values[p]) - reference[p]));
      }
      EXPECT_LT(worst[1], worst[0]) << to_string(m) << "/" << to_string(impl);
    }
  }
}

}  // namespace
