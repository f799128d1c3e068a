// Scattering: the tables against GROMACS' and gemmi's, the histogram route against the direct
// Debye sum, a uniform sphere against its analytic form factor, Guinier's Rg against the
// coordinates', an ideal gas's structure factor.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>

#include "drivers/library/scattering_job.hpp"
#include "kmol/core/errors.hpp"

namespace {

using kmol::Vec3;
using Host = Kokkos::DefaultHostExecutionSpace;

// Random points in a sphere of radius R about the origin.
std::vector<Vec3<double>> sphere_points(std::size_t n, double radius, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-radius, radius);
  std::vector<Vec3<double>> out;
  while (out.size() < n) {
    const Vec3<double> r{u(rng), u(rng), u(rng)};
    if (norm2(r) <= radius * radius) out.push_back(r);
  }
  return out;
}

kmol::AtomIdentity elements_cycling(std::size_t n, const std::vector<std::string>& symbols) {
  kmol::AtomIdentity atoms;
  for (std::size_t i = 0; i < n; ++i) atoms.elements.push_back(symbols[i % symbols.size()]);
  atoms.source = "test";
  return atoms;
}

// A small "molecule": heavy atoms with hydrogens 1 Angstrom from every third (N, O: exchangeable).
std::vector<Vec3<double>> with_hydrogens(std::vector<Vec3<double>> heavy) {
  const std::size_t n = heavy.size();
  for (std::size_t i = 0; i < n; i += 3) heavy.push_back(heavy[i] + Vec3<double>{1.0, 0, 0});
  return heavy;
}

// Calls check(fields) with each row of a GROMACS data file (';' starts a comment) as a stream of
// its fields; returns how many rows it read (0 where the file is not installed).
template <class Check>
int each_gromacs_row(const std::string& path, Check check) {
  std::ifstream in(path);
  int rows = 0;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == ';') continue;
    std::istringstream fields(line);
    check(fields);
    ++rows;
  }
  return rows;
}

}  // namespace

TEST(Scattering, FormFactorsMatchGromacsSfactor) {
  const int checked = each_gromacs_row("/usr/share/gromacs/top/sfactor.dat", [](auto& fields) {
    std::string symbol;
    int z = 0;
    double a[4], b[4], c;
    fields >> symbol >> z >> a[0] >> a[1] >> a[2] >> a[3] >> b[0] >> b[1] >> b[2] >> b[3] >> c;
    const kmol::ElementData* e = kmol::element_named(symbol);
    ASSERT_NE(e, nullptr) << symbol;
    EXPECT_EQ(e->z, z);
    for (double q : {0.0, 0.5, 1.0, 2.0, 4.0}) {
      const double s2 = std::pow(q / (4 * M_PI), 2);
      double f = c;
      for (int i = 0; i < 4; ++i) f += a[i] * std::exp(-b[i] * s2);
      // sfactor.dat rounds the IT92 coefficients to three decimals.
      EXPECT_NEAR(kmol::xray_form_factor(*e, q), f, 0.01) << symbol << " q=" << q;
    }
  });
  if (checked == 0) GTEST_SKIP() << "GROMACS' sfactor.dat is not installed";
  EXPECT_GE(checked, 20);
  EXPECT_NEAR(kmol::xray_form_factor(*kmol::element_named("C"), 0), 6.0, 0.01);
  EXPECT_NEAR(kmol::xray_form_factor(*kmol::element_named("O"), 0), 8.0, 0.01);
}

TEST(Scattering, FormFactorsMatchGemmi) {
  FILE* pipe = popen(
      "/usr/bin/python3 -c 'import gemmi\n"
      "for z in range(1, 99):\n"
      "  e = gemmi.Element(z)\n"
      "  print(e.name, *[e.it92.calculate_sf(q * q / (16 * 3.141592653589793**2) )"
      " for q in (0.0, 0.7, 1.5, 3.0)], e.neutron92.get_coefs()[0])' 2>/dev/null",
      "r");
  std::stringstream text;
  char buffer[4096];
  while (pipe && fgets(buffer, sizeof buffer, pipe)) text << buffer;
  const int status = pipe ? pclose(pipe) : -1;
  if (status != 0 || text.str().empty()) GTEST_SKIP() << "Debian's gemmi is not installed";
  int checked = 0;
  std::string symbol;
  while (text >> symbol) {
    double f[4], b = 0;
    text >> f[0] >> f[1] >> f[2] >> f[3] >> b;
    const kmol::ElementData* e = kmol::element_named(symbol);
    ASSERT_NE(e, nullptr) << symbol;
    const double q[4] = {0.0, 0.7, 1.5, 3.0};
    for (int k = 0; k < 4; ++k) EXPECT_NEAR(kmol::xray_form_factor(*e, q[k]), f[k], 1e-4) << symbol;
    if (b != 0) EXPECT_NEAR(e->neutron_fm, b, 1e-6) << symbol;
    ++checked;
  }
  EXPECT_EQ(checked, 98);
}

TEST(Scattering, NeutronLengthsMatchGromacsNsfactor) {
  const int checked = each_gromacs_row("/usr/share/gromacs/top/nsfactor.dat", [](auto& fields) {
    std::string symbol;
    int p = 0, n = 0;
    double b = 0;
    fields >> symbol >> p >> n >> b;
    if (symbol == "D") {
      EXPECT_NEAR(kmol::deuterium_fm, b, 1e-9);
    } else {
      const kmol::ElementData* e = kmol::element_named(symbol);
      ASSERT_NE(e, nullptr) << symbol;
      // GROMACS lists 1H's -3.7406 fm; Sears' natural hydrogen is -3.7390 fm.
      EXPECT_NEAR(e->neutron_fm, b, symbol == "H" ? 0.002 : 1e-9) << symbol;
    }
  });
  if (checked == 0) GTEST_SKIP() << "GROMACS' nsfactor.dat is not installed";
  EXPECT_GE(checked, 15);
}

TEST(Scattering, ElementsFromColumnsMassesAndNames) {
  EXPECT_STREQ(kmol::element_of_atom_name("CA", "ALA")->symbol, "C");
  EXPECT_STREQ(kmol::element_of_atom_name("CA", "CA")->symbol, "Ca");
  EXPECT_STREQ(kmol::element_of_atom_name("OW", "SOL")->symbol, "O");
  EXPECT_STREQ(kmol::element_of_atom_name("1HB", "ALA")->symbol, "H");
  EXPECT_STREQ(kmol::element_of_atom_name("NA", "NA")->symbol, "Na");
  kmol::AtomIdentity atoms;
  atoms.names = {"OW", "X1", "Q"};
  atoms.masses = {15.9994, 35.453, 0};
  atoms.source = "top.tpr";
  const std::vector<Vec3<double>> xyz(3, Vec3<double>{0, 0, 0});
  kmol::ScatteringSettings s;
  try {
    kmol::scattering_types(atoms, {}, xyz, s);
    FAIL() << "atom Q has no element";
  } catch (const kmol::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("atom 3 'Q'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("--element"), std::string::npos) << e.what();
  }
  const auto types = kmol::scattering_types(atoms, {"Q=S"}, xyz, s);
  ASSERT_EQ(types.size(), 3);
  EXPECT_EQ(types.names[1], "Cl");
  EXPECT_EQ(types.names[2], "S");
}

TEST(Scattering, ExchangeableHydrogensAreDeuterated) {
  kmol::AtomIdentity atoms = elements_cycling(4, {"N", "C", "H", "H"});
  const std::vector<Vec3<double>> xyz{{0, 0, 0}, {5, 0, 0}, {1.0, 0, 0}, {6.1, 0, 0}};
  kmol::ScatteringSettings s;
  s.probe = kmol::Probe::neutron;
  s.d2o = 0.5;
  const auto types = kmol::scattering_types(atoms, {}, xyz, s);
  ASSERT_EQ(types.size(), 4);
  EXPECT_EQ(types.names[types.of_atom[2]], "H(exch)");
  EXPECT_EQ(types.names[types.of_atom[3]], "H");
  const auto w = kmol::type_weights(types, s, {0.1});
  EXPECT_NEAR(w[std::size_t(types.of_atom[2])], 0.5 * (-3.739) + 0.5 * 6.671, 1e-12);
  EXPECT_NEAR(w[std::size_t(types.of_atom[3])], -3.739, 1e-12);
}

// The histogram route equals the direct Debye sum within its stated discretisation error, for
// each probe and mix of species, and the error is small.
TEST(Scattering, HistogramRouteMatchesDirectSum) {
  const auto xyz = with_hydrogens(sphere_points(600, 14.0, 7));
  const kmol::AtomIdentity atoms = elements_cycling(600, {"N", "C", "O", "S", "C"});
  kmol::AtomIdentity all = atoms;
  all.elements.resize(xyz.size(), "H");
  for (auto probe : {kmol::Probe::xray, kmol::Probe::neutron}) {
    kmol::ScatteringSettings s;
    s.probe = probe;
    s.d2o = 0.4;
    s.q_max = 1.0;
    s.q_bins = 60;
    kmol::ScatteringJob histogram(s, all, {}, xyz, kmol::BoxSpec::none());
    kmol::ScatteringJob direct(s, all, {}, xyz, kmol::BoxSpec::none(),
                               kmol::ScatteringImpl::direct);
    histogram.add_frame(Host(), xyz, kmol::BoxSpec::none());
    direct.add_frame(Host(), xyz, kmol::BoxSpec::none());
    const auto h = histogram.result(), d = direct.result();
    EXPECT_GE(histogram.types().size(), probe == kmol::Probe::neutron ? 5 : 4);
    EXPECT_LT(h.max_relative_error, 0.03);  // of a small solute, to q = 1/Angstrom
    for (std::size_t k = 0; k < h.q.size(); ++k) {
      EXPECT_NEAR(h.intensity[k], d.intensity[k], h.error[k] + 1e-9 * std::abs(d.intensity[k]))
          << kmol::to_string(probe) << " q=" << h.q[k];
    }
    EXPECT_GT(d.intensity[0], 100 * d.intensity.back());  // a real curve, not a constant
  }
}

// Points of a cubic lattice (1 Angstrom) inside a sphere: a uniform sphere of radius
// R = (3 N / (4 pi))^(1/3) with no random scatter, I(q) = f^2 N^2 P(qR) well below the lattice's
// first reflection (2 pi / Angstrom), P(x) = [3 (sin x - x cos x) / x^3]^2.
TEST(Scattering, UniformSphereGivesItsFormFactor) {
  std::vector<Vec3<double>> xyz;
  for (int i = -16; i <= 16; ++i)
    for (int j = -16; j <= 16; ++j)
      for (int k = -16; k <= 16; ++k)
        if (i * i + j * j + k * k <= 15 * 15) xyz.push_back({double(i), double(j), double(k)});
  const double n = double(xyz.size());
  const double radius = std::cbrt(3 * n / (4 * M_PI));
  kmol::ScatteringSettings s;
  s.q_max = 0.6;
  s.q_bins = 61;
  kmol::ScatteringJob job(s, elements_cycling(xyz.size(), {"C"}), {}, xyz, kmol::BoxSpec::none());
  job.add_frame(Host(), xyz, kmol::BoxSpec::none());
  const auto r = job.result();
  double largest = 0, lowest = 1;
  for (std::size_t k = 0; k < r.q.size(); ++k) {
    const double x = r.q[k] * radius;
    const double amplitude = k == 0 ? 1.0 : 3 * (std::sin(x) - x * std::cos(x)) / (x * x * x);
    const double f = kmol::xray_form_factor(*kmol::element_named("C"), r.q[k]);
    const double p = r.intensity[k] / (f * f * n * n);
    EXPECT_NEAR(p, amplitude * amplitude, 2e-4) << "q R = " << x;
    largest = std::max(largest, std::abs(p - amplitude * amplitude));
    lowest = std::min(lowest, p);
  }
  EXPECT_LT(lowest, 1e-4);  // through the minima of P
  std::printf("uniform sphere of %.0f points, R = %.3f Angstrom: |I/(f N)^2 - P| <= %.2e\n", n,
              radius, largest);
}

TEST(Scattering, GuinierRadiusEqualsWeightedRadius) {
  auto xyz = sphere_points(3000, 15.0, 3);
  for (auto& r : xyz) r.z *= 0.6;  // an ellipsoid, not a sphere
  const kmol::AtomIdentity atoms = elements_cycling(xyz.size(), {"C", "N", "O", "C", "S"});
  kmol::ScatteringSettings s;
  s.q_max = 0.3;
  s.q_bins = 151;
  kmol::ScatteringJob job(s, atoms, {}, xyz, kmol::BoxSpec::none());
  job.add_frame(Host(), xyz, kmol::BoxSpec::none());
  const auto r = job.result();
  ASSERT_TRUE(r.guinier.ok) << r.guinier.why;
  std::vector<double> weight;
  for (auto t : job.types().of_atom) weight.push_back(job.weights()[std::size_t(t) * 151]);
  const double rg = kmol::weighted_radius_of_gyration(xyz, weight);
  EXPECT_GT(r.guinier.points, 5);
  EXPECT_NEAR(r.guinier.rg, rg, 0.01 * rg);
  EXPECT_NEAR(r.guinier.i0, r.intensity[0], 0.02 * r.intensity[0]);
}

TEST(Scattering, IdealGasHasUnitStructureFactor) {
  constexpr double edge = 40;
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> u(0, edge);
  const auto box = kmol::BoxSpec::orthorhombic(edge, edge, edge);
  std::vector<Vec3<double>> xyz(2000);
  for (auto& r : xyz) r = {u(rng), u(rng), u(rng)};
  kmol::ScatteringSettings s;
  s.q_min = 0.5;
  s.q_max = 3;
  s.q_bins = 26;
  kmol::ScatteringJob job(s, elements_cycling(xyz.size(), {"Ar"}), {}, xyz, box);
  for (int frame = 0; frame < 20; ++frame) {
    for (auto& r : xyz) r = {u(rng), u(rng), u(rng)};
    job.add_frame(Host(), xyz, box);
  }
  const auto r = job.result();
  ASSERT_EQ(r.structure.total.size(), r.q.size());
  for (std::size_t k = 0; k < r.q.size(); ++k) {
    EXPECT_NEAR(r.structure.total[k], 1.0, 0.05) << "q=" << r.q[k];
    EXPECT_GT(r.sigma[k], 0);
  }
}

TEST(Scattering, RefusesQBeyondTheBinWidth) {
  kmol::ScatteringSettings s;
  s.q_max = 2;
  s.bin_width = 1;
  EXPECT_THROW(kmol::check_settings(s), kmol::InputError);
  s.bin_width = 0.4;
  EXPECT_NO_THROW(kmol::check_settings(s));
}
