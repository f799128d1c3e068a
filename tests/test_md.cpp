// Lennard-Jones MD: every force implementation on every backend against the double-precision
// all-pairs oracle, the same trajectory from every implementation, energy and momentum
// conservation, thermostats, start-up and bad input.
#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "kernels/md/health.hpp"
#include "kernels/md/host/lj_host.hpp"
#include "kernels/md/md.hpp"
#include "kernels/md/selection.hpp"
#include "kernels/md/validation.hpp"
#include "kmol/core/errors.hpp"
#include "kmol/core/execution_space.hpp"
#include "support/backend_test.hpp"
#include "support/lj_oracle.hpp"
#include "support/test_sizes.hpp"

namespace {

using kmol::MdForceImpl;
using kmol::MdSettings;
using kmol::MdState;
using kmol::Vec3;

// Every force implementation (neighbour lists of both kinds) that runs the system here, by its
// --impl name.
template <class ExecSpace>
std::vector<std::string> forces_for(const MdState& s, const MdSettings& settings) {
  constexpr auto platform = kmol::platform_of<ExecSpace>();
  std::vector<std::string> out;
  for (const std::string& name : kmol::md_force_names())
    if (kmol::md_force_refusal(
            kmol::md_force_impl_from_string(name),
            {std::int64_t(s.positions.size()), s.box, settings.cutoff, settings.skin}, platform)
            .empty())
      out.push_back(name);
  return out;
}

// A crystal shaken by up to `amplitude` along each axis (some atoms pushed out of the box).
MdState shaken_crystal(int cells, double density, double amplitude, std::uint64_t seed) {
  MdState s = kmol::fcc_lattice({cells, cells + 1, cells}, density);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-amplitude, amplitude);
  for (auto& p : s.positions) p = p + Vec3<double>{u(rng), u(rng), u(rng)};
  return s;
}

double largest(const std::vector<Vec3<double>>& v) {
  double m = 0;
  for (const auto& a : v) m = std::max({m, std::abs(a.x), std::abs(a.y), std::abs(a.z)});
  return m;
}

template <class ExecSpace, class T>
void expect_matches_oracle(const MdState& s, MdSettings settings, double tolerance) {
  const auto want = kmol::test::oracle_lj(s, settings.cutoff);
  const double scale = 1 + largest(want.forces);
  const double n = double(s.positions.size());
  for (const std::string& impl : forces_for<ExecSpace>(s, settings)) {
    kmol::set_md_force(settings, impl);
    kmol::MdSimulation<ExecSpace, T> md(ExecSpace(), s, settings);
    const auto f = md.forces();
    double worst = 0;
    for (std::size_t i = 0; i < f.size(); ++i)
      worst = std::max({worst, std::abs(f[i].x - want.forces[i].x),
                        std::abs(f[i].y - want.forces[i].y), std::abs(f[i].z - want.forces[i].z)});
    EXPECT_LT(worst, tolerance * scale) << impl;
    const auto t = md.thermo();
    EXPECT_NEAR(t.potential, want.potential / n,
                tolerance * (1 + std::abs(want.potential / n)) * 10)
        << impl;
    const double volume = s.box.x * s.box.y * s.box.z;
    EXPECT_NEAR(t.pressure, want.virial / (3 * volume),
                tolerance * 100 * (1 + std::abs(want.virial / (3 * volume))))
        << impl;
  }
}

}  // namespace

KMOL_BACKEND_TEST(Md, ForcesMatchOracleOnShakenCrystals) {
  MdSettings settings;
  const MdState liquid_like = shaken_crystal(6, 0.8442, 0.12, 1);
  expect_matches_oracle<ExecSpace, double>(liquid_like, settings, 1e-12);
  expect_matches_oracle<ExecSpace, float>(liquid_like, settings, 2e-5);
  // A dilute gas where most cells are nearly empty, and a short cutoff.
  settings.cutoff = 1.6;
  settings.skin = 0.5;
  expect_matches_oracle<ExecSpace, double>(shaken_crystal(4, 0.3, 0.4, 2), settings, 1e-12);
}

KMOL_BACKEND_TEST(Md, AtomsOnFacesAndAtTheCutoff) {
  // The unshaken crystal has atoms on the box faces (coordinate 0) and, with the cutoff equal to
  // the lattice constant, whole shells of pairs exactly at the cutoff: forces vanish by symmetry.
  const double density = 0.5;
  MdState s = kmol::fcc_lattice({8, 8, 8}, density);
  MdSettings settings;
  settings.cutoff = std::cbrt(4 / density);
  settings.skin = 0.2;
  expect_matches_oracle<ExecSpace, double>(s, settings, 1e-12);
  expect_matches_oracle<ExecSpace, float>(s, settings, 2e-5);
  // Move one atom to the far face (x = L): it wraps to 0 and is the same atom as before.
  s.positions[5].x = s.box.x;
  expect_matches_oracle<ExecSpace, double>(s, settings, 1e-12);
}

KMOL_BACKEND_TEST(Md, EveryImplementationFollowsTheSameTrajectory) {
  MdState start = kmol::fcc_lattice({6, 6, 6}, 0.8442);
  kmol::maxwell_boltzmann(start, 0.72, 7);
  MdSettings settings;
  std::vector<Vec3<double>> reference;
  for (const std::string& impl : forces_for<ExecSpace>(start, settings)) {
    kmol::set_md_force(settings, impl);
    kmol::MdSimulation<ExecSpace, double> md(ExecSpace(), start, settings);
    md.run(100);
    const auto s = md.state();
    if (reference.empty()) {
      reference = s.positions;
      continue;
    }
    double worst = 0;
    for (std::size_t i = 0; i < reference.size(); ++i) {
      Vec3<double> d = s.positions[i] - reference[i];
      d = {d.x - s.box.x * std::round(d.x / s.box.x), d.y - s.box.y * std::round(d.y / s.box.y),
           d.z - s.box.z * std::round(d.z / s.box.z)};
      worst = std::max(worst, std::sqrt(kmol::norm2(d)));
    }
    EXPECT_LT(worst, 1e-9) << impl << " after 100 steps";
    if (settings.impl == MdForceImpl::neighbour || settings.impl == MdForceImpl::host) {
      EXPECT_GT(md.list_builds(), 1) << "the list should have been rebuilt during 100 steps";
      EXPECT_LT(md.list_builds(), 50) << "the skin should spare most rebuilds";
    }
  }
}

// Drift: the change of the mean total energy between the first and last fifth of the samples
// (the fluctuation about the mean, ~1e-4 per atom at dt = 0.005, is not drift).
template <class ExecSpace, class T>
double energy_drift(kmol::MdSimulation<ExecSpace, T>& md, int samples, int every) {
  std::vector<double> e;
  for (int k = 0; k < samples; ++k) {
    md.run(every);
    e.push_back(md.thermo().total);
    EXPECT_LT(std::sqrt(kmol::norm2(md.thermo().momentum)), sizeof(T) == 8 ? 1e-10 : 1e-2);
  }
  const int w = samples / 5;
  double first = 0, last = 0;
  for (int k = 0; k < w; ++k) {
    first += e[std::size_t(k)] / w;
    last += e[std::size_t(samples - w + k)] / w;
  }
  return std::abs(last - first);
}

KMOL_BACKEND_TEST(Md, NveConservesEnergyAndMomentum) {
  // 864 atoms and 1,000 steps here (the 10^4-step check is the long test
  // MdLong.NveDriftTenThousandSteps); under the sanitizers 500 atoms and 100 steps a precision.
  const int side = kmol::test::sized(6, 5), every = kmol::test::sized(20, 10);
  MdState start = kmol::fcc_lattice({side, side, side}, 0.8442);
  kmol::maxwell_boltzmann(start, 0.72, 11);
  MdSettings settings;  // dt 0.005, r_c 2.5, skin 0.3
  kmol::MdSimulation<ExecSpace, double> md(ExecSpace(), start, settings);
  EXPECT_NEAR(md.thermo().temperature, 0.72, 1e-12);
  EXPECT_LT(energy_drift(md, kmol::test::sized(50, 10), every), 1e-4) << "double precision";
  kmol::MdSimulation<ExecSpace, float> single(ExecSpace(), start, settings);
  EXPECT_LT(energy_drift(single, kmol::test::sized(25, 10), every), 2e-3) << "single precision";
}

KMOL_BACKEND_TEST(Md, ThermostatsReachTheirTemperature) {
  for (auto thermostat : {kmol::Thermostat::andersen, kmol::Thermostat::langevin}) {
    MdState start = kmol::fcc_lattice({5, 5, 5}, 0.8442);
    kmol::maxwell_boltzmann(start, 0.3, 3);
    MdSettings settings;
    settings.thermostat = thermostat;
    settings.temperature = 1.2;
    settings.coupling = 10;
    kmol::MdSimulation<ExecSpace, double> md(ExecSpace(), start, settings);
    md.run(200);
    double mean = 0;
    for (int k = 0; k < 20; ++k) {
      md.run(10);
      mean += md.thermo().temperature / 20;
    }
    EXPECT_NEAR(mean, 1.2, 0.12) << kmol::to_string(thermostat);
  }
}

// The device-side check finds the atom the host-side one (md_health_problem) names, so a run
// copies its configuration to the host only when one is wrong.
KMOL_BACKEND_TEST(Md, UnphysicalAtomFoundWhereTheAtomsAre) {
  MdState start = kmol::fcc_lattice({4, 4, 4}, 0.8442);
  kmol::maxwell_boltzmann(start, 0.72, 7);
  const double half = 0.5 * start.box.x, dt = 0.005;
  const auto forces = forces_for<ExecSpace>(start, MdSettings{});
  ASSERT_FALSE(forces.empty());
  for (const std::string& impl : forces) {
    MdSettings settings;
    kmol::set_md_force(settings, impl);
    kmol::MdSimulation<ExecSpace, float> healthy(ExecSpace(), start, settings);
    EXPECT_EQ(healthy.first_unphysical_atom(dt), -1) << impl;
    MdState fast = start;
    fast.velocities[37] = {0, 1.01 * half / dt, 0};  // over half the box per step
    fast.velocities[90] = {-2 * half / dt, 0, 0};
    kmol::MdSimulation<ExecSpace, float> md(ExecSpace(), fast, settings);
    EXPECT_EQ(md.first_unphysical_atom(dt), 37) << impl;
    kmol::MdThermo thermo = md.thermo();
    const auto problem = kmol::md_health_problem(thermo, thermo, md.state(), dt);
    ASSERT_TRUE(problem);
    EXPECT_NE(problem->find("atom 37 moves"), std::string::npos) << *problem;
  }
}

TEST(Md, StartingConfiguration) {
  MdState s = kmol::fcc_lattice({3, 4, 5}, 0.8442);
  EXPECT_EQ(s.positions.size(), 240u);
  EXPECT_NEAR(240 / (s.box.x * s.box.y * s.box.z), 0.8442, 1e-12);
  kmol::maxwell_boltzmann(s, 1.44, 5);
  Vec3<double> p;
  double twice_kinetic = 0;
  for (const auto& v : s.velocities) {
    p = p + v;
    twice_kinetic += kmol::norm2(v);
  }
  EXPECT_LT(std::sqrt(kmol::norm2(p)), 1e-12);
  EXPECT_NEAR(twice_kinetic / (3 * 240 - 3), 1.44, 1e-12);
  EXPECT_EQ(kmol::fcc_cells_per_side(4000), 10);
  EXPECT_EQ(kmol::fcc_cells_per_side(32000), 20);
  EXPECT_EQ(kmol::fcc_cells_per_side(3), 1);
}

TEST(Md, RefusesBadInput) {
  using Host = Kokkos::DefaultHostExecutionSpace;
  MdState s = kmol::fcc_lattice({2, 2, 2}, 0.8442);  // 3.36 across: less than 2 r_c
  EXPECT_THROW((kmol::MdSimulation<Host, double>(Host(), s, {})), kmol::InputError);
  s = kmol::fcc_lattice({4, 4, 4}, 0.8442);  // 6.7 across: all pairs only
  MdSettings settings;
  settings.impl = MdForceImpl::cells;
  EXPECT_THROW((kmol::MdSimulation<Host, double>(Host(), s, settings)), kmol::UnsupportedError);
  settings.impl = MdForceImpl::automatic;
  EXPECT_EQ((kmol::MdSimulation<Host, double>(Host(), s, settings).impl()), MdForceImpl::all_pairs);
  settings.dt = -1;
  EXPECT_THROW((kmol::MdSimulation<Host, double>(Host(), s, settings)), kmol::InputError);
  settings.dt = 0.005;
  s.positions[3].y = NAN;
  EXPECT_THROW((kmol::MdSimulation<Host, double>(Host(), s, settings)), kmol::InputError);
  EXPECT_THROW(kmol::md_force_impl_from_string("fast"), kmol::InputError);
  EXPECT_EQ(kmol::md_force_impl_from_string("host"), MdForceImpl::host);
  EXPECT_EQ(kmol::md_force_impl_from_string("cpu"), MdForceImpl::host);  // the accepted alias
  EXPECT_EQ(kmol::to_string(MdForceImpl::host), "host");
  // List kind and implementation are apart; the lists' old names set both.
  MdSettings half;
  kmol::set_md_force(half, "neighbour_half");
  EXPECT_EQ(half.impl, MdForceImpl::neighbour);
  EXPECT_EQ(half.list, kmol::MdList::half);
  EXPECT_EQ(kmol::md_list_from_string("full"), kmol::MdList::full);
  EXPECT_THROW(kmol::md_list_from_string("quarter"), kmol::InputError);
  EXPECT_THROW(kmol::fcc_lattice({1, 1, 1}, -1), kmol::InputError);
}

TEST(Md, CoincidentAtomsAreRefused) {
  MdState s = kmol::fcc_lattice({4, 4, 4}, 0.8442);
  EXPECT_FALSE(kmol::md::coincident_atoms(s.positions, s.box));
  s.positions[9] = s.positions[5];
  s.positions[2] = s.positions[40];
  const auto pair = kmol::md::coincident_atoms(s.positions, s.box);
  ASSERT_TRUE(pair);
  EXPECT_EQ(pair->first, 2u);
  EXPECT_EQ(pair->second, 40u);
  using Host = Kokkos::DefaultHostExecutionSpace;
  EXPECT_THROW((kmol::MdSimulation<Host, double>(Host(), s, {})), kmol::InputError);
  s.positions[2].x += 1e-9;  // apart, however little
  EXPECT_EQ(kmol::md::coincident_atoms(s.positions, s.box),
            (std::pair<std::size_t, std::size_t>{5, 9}));
}

// The conservation check at full length (ctest -L long, configured with
// -DKMOL_LONG_TESTS=ON): 4,000 atoms, 10^4 steps, on the default execution space.
TEST(MdLong, NveDriftTenThousandSteps) {
  using Space = Kokkos::DefaultExecutionSpace;
  MdState start = kmol::fcc_lattice({10, 10, 10}, 0.8442);
  kmol::maxwell_boltzmann(start, 0.72, 2026);
  MdSettings settings;
  kmol::MdSimulation<Space, double> md(Space(), start, settings);
  const double drift = energy_drift(md, 100, 100);
  kmol::MdSimulation<Space, float> single(Space(), start, settings);
  const double drift_single = energy_drift(single, 100, 100);
  std::printf("NVE drift over 10^4 steps, 4000 atoms: double %.3g, single %.3g per atom\n", drift,
              drift_single);
  RecordProperty("drift_double", std::to_string(drift));
  RecordProperty("drift_single", std::to_string(drift_single));
  EXPECT_LT(drift, 1e-4);
}

// The AVX2 sweeps of --impl host evaluate eight (float) or four (double) pairs at once; each lane
// must round exactly as the shared scalar evaluator does.
template <class T>
void expect_lanes_round_as_evaluator() {
  const auto lj = kmol::ShiftedForceLJ<T>::with_cutoff(2.5);
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> u(0.6, 2.5);
  std::vector<T> r2;
  for (int k = 0; k < 1001; ++k) r2.push_back(T(u(rng) * u(rng)));
  r2.push_back(std::nextafter(lj.cutoff2, T(0)));  // the last representable distance inside
  r2.erase(std::remove_if(r2.begin(), r2.end(), [&](T v) { return !(v < lj.cutoff2); }), r2.end());
  std::vector<T> f(r2.size()), e(r2.size());
  kmol::lj_lanes_evaluate(lj, r2.data(), int(r2.size()), f.data(), e.data());
  for (std::size_t k = 0; k < r2.size(); ++k) {
    T want_f, want_e;
    lj.evaluate(r2[k], want_f, want_e);
    ASSERT_EQ(f[k], want_f) << "r2 " << r2[k];
    ASSERT_EQ(e[k], want_e) << "r2 " << r2[k];
  }
}

TEST(MdCpu, LanesRoundAsTheEvaluator) {
  if (!kmol::lj_host_available()) GTEST_SKIP() << "this build has no AVX2 sweeps";
  expect_lanes_round_as_evaluator<float>();
  expect_lanes_round_as_evaluator<double>();
}
