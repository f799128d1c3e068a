// A solute's excess intensity over its solvent (scattering_solution.hpp): both runs taken relative
// to the uniform solvent filling the sphere, so Delta I neither depends on the sphere's radius nor
// keeps the cut's edge.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <cmath>
#include <random>
#include <vector>

#include "drivers/library/scattering_solution.hpp"

namespace {

using kmol::Vec3;

constexpr double spacing = 3.2;  // a lattice of oxygens, 0.03 per cubic Angstrom
constexpr int cells = 13;
constexpr double length = spacing * cells;
constexpr double removed_within = 4.0;  // of the box's centre, where the solute sits

struct Run {
  std::vector<Vec3<double>> xyz;
  kmol::AtomIdentity atoms;
  std::vector<std::int64_t> solute;
};

Vec3<double> centre() { return {0.5 * length, 0.5 * length, 0.5 * length}; }

// The lattice of oxygens; with `solute`, those within removed_within of the centre give way to
// 30 carbons placed in pairs +-v about it (their centroid is the box's centre, as the solvent's
// sphere is).
Run lattice(bool solute) {
  Run run;
  for (int i = 0; i < cells; ++i)
    for (int j = 0; j < cells; ++j)
      for (int k = 0; k < cells; ++k) {
        const Vec3<double> p{(i + 0.5) * spacing, (j + 0.5) * spacing, (k + 0.5) * spacing};
        if (solute && kmol::norm2(p - centre()) < removed_within * removed_within) continue;
        run.xyz.push_back(p);
        run.atoms.elements.push_back("O");
      }
  if (!solute) return run;
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> u(-2.0, 2.0);
  for (int n = 0; n < 15; ++n) {
    const Vec3<double> v{u(rng), u(rng), u(rng)};
    for (double sign : {1.0, -1.0}) {
      run.solute.push_back(std::int64_t(run.xyz.size()));
      run.xyz.push_back(centre() + sign * v);
      run.atoms.elements.push_back("C");
    }
  }
  return run;
}

kmol::ScatteringSettings settings() {
  kmol::ScatteringSettings s;
  s.q_max = 0.4;
  s.q_bins = 9;
  return s;
}

const kmol::BoxSpec box = kmol::BoxSpec::orthorhombic(length, length, length);

kmol::ObservationVolume sphere(double radius) { return {kmol::VolumeShape::sphere, radius}; }
kmol::ObservationVolume shell(double thickness) { return {kmol::VolumeShape::shell, thickness}; }

kmol::ScatteringResult lattice_excess(kmol::ObservationVolume volume) {
  kmol::SolutionScattering job(settings(), volume, {});
  const Run solution = lattice(true), solvent = lattice(false);
  const Kokkos::DefaultHostExecutionSpace host;
  job.start_solution(solution.atoms, {}, solution.solute, solution.xyz, box);
  job.add_solution_frame(host, solution.xyz, box);
  job.start_solvent(solvent.atoms, {}, solvent.xyz, box);
  job.add_solvent_frame(host, solvent.xyz, box);
  return job.result();
}

TEST(SolutionScattering, ForwardExcessOfALatticeIsTheElectronsReplaced) {
  // Without fluctuations (one frame of a lattice) the forward excess is the squared difference
  // of the electrons: 30 carbons for the oxygens they replaced (IT92's f(0) within 1e-4 of Z).
  int replaced = 0;
  for (const auto& p : lattice(false).xyz)
    replaced += kmol::norm2(p - centre()) < removed_within * removed_within;
  ASSERT_GT(replaced, 5);
  const double electrons = 30 * 6 - 8.0 * replaced;
  for (const auto& volume : {sphere(12), sphere(17), shell(6)})
    EXPECT_NEAR(lattice_excess(volume).intensity[0], electrons * electrons,
                1e-3 * electrons * electrons)
        << (volume.shape == kmol::VolumeShape::shell ? "shell " : "R = ") << volume.size;
}

// An ideal gas of oxygens at 0.03 per cubic Angstrom: the solvent fills the box, the solution's
// stays out of a ball of removed_within about the centre, where 30 carbons sit.
std::vector<Vec3<double>> gas_frame(std::mt19937_64& rng, std::int64_t oxygens, bool solute) {
  std::uniform_real_distribution<double> u(0, length);
  std::vector<Vec3<double>> xyz;
  while (std::int64_t(xyz.size()) < oxygens) {
    const Vec3<double> p{u(rng), u(rng), u(rng)};
    if (!solute || kmol::norm2(p - centre()) >= removed_within * removed_within) xyz.push_back(p);
  }
  if (solute)
    for (const auto& p : lattice(true).xyz)
      if (kmol::norm2(p - centre()) < removed_within * removed_within) xyz.push_back(p);
  return xyz;
}

kmol::ScatteringResult gas_excess(kmol::ObservationVolume volume, int frames) {
  kmol::SolutionScattering job(settings(), volume, {});
  const double ball = 4.0 / 3.0 * M_PI * std::pow(removed_within, 3);
  const auto solvent_oxygens = std::int64_t(0.03 * length * length * length);
  const auto solution_oxygens = std::int64_t(0.03 * (length * length * length - ball));
  kmol::AtomIdentity solution_atoms, solvent_atoms;
  solution_atoms.elements.assign(std::size_t(solution_oxygens), "O");
  solution_atoms.elements.resize(std::size_t(solution_oxygens) + 30, "C");
  solvent_atoms.elements.assign(std::size_t(solvent_oxygens), "O");
  std::vector<std::int64_t> solute;
  for (int c = 0; c < 30; ++c) solute.push_back(solution_oxygens + c);
  std::mt19937_64 rng(11);
  const Kokkos::DefaultHostExecutionSpace host;
  for (int f = 0; f < frames; ++f) {
    const auto xyz = gas_frame(rng, solution_oxygens, true);
    if (f == 0) job.start_solution(solution_atoms, {}, solute, xyz, box);
    job.add_solution_frame(host, xyz, box);
  }
  for (int f = 0; f < frames; ++f) {
    const auto xyz = gas_frame(rng, solvent_oxygens, false);
    if (f == 0) job.start_solvent(solvent_atoms, {}, xyz, box);
    job.add_solvent_frame(host, xyz, box);
  }
  return job.result();
}

TEST(SolutionScattering, ExcessOverAGasDoesNotDependOnTheVolume) {
  // Left relative to the cut solvent, Delta I(0) would hold 2 rho_w (c_A - c_B): the solvent's
  // electrons in V (1,700 in R = 12, 4,900 in R = 17) times the excess (about 54), a few 1e5
  // growing with V; relative to the uniform solvent it is the solute's (3e3 here) within the
  // gas's noise, whatever the volume: two spheres and a solute-shaped shell.
  const auto small = gas_excess(sphere(12), 60);
  for (const auto& volume : {sphere(17), shell(8)}) {
    const auto other = gas_excess(volume, 60);
    for (std::size_t k = 0; k < small.q.size(); ++k) {
      const double sigma = std::hypot(small.sigma[k], other.sigma[k]);
      EXPECT_GT(sigma, 0);
      EXPECT_NEAR(small.intensity[k], other.intensity[k], 4 * sigma)
          << "q = " << small.q[k] << ", volume " << volume.size;
    }
    EXPECT_LT(std::abs(other.intensity[0]), 3e4);
  }
  EXPECT_LT(std::abs(small.intensity[0]), 3e4);
}

TEST(SolutionScattering, BallAmplitudeIsAUniformBallsMeanPhase) {
  // 3 (sin x - x cos x) / x^3 against a midpoint sum of sinc over the ball's shells.
  for (double x : {0.0, 1e-4, 0.5, 2.0, 7.0}) {
    double sum = 0;
    const int shells = 20000;
    for (int i = 0; i < shells; ++i) {
      const double r = (i + 0.5) / shells;
      sum += 3 * r * r * (x * r == 0 ? 1.0 : std::sin(x * r) / (x * r)) / shells;
    }
    EXPECT_NEAR(kmol::ball_amplitude(x), sum, 1e-8) << "x = " << x;
  }
}

}  // namespace
