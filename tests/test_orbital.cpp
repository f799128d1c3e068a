// Molecular orbitals: the Molden reader (and its refusals), the basis normalisation (analytic
// overlaps), every implementation on every backend against the double-precision oracle (the
// CUDA kernel with its tables in constant and in global memory; the gemm path), and on fine
// lattices the norm of an orbital and the overlap of two.
#include <cmath>
#include <random>
#include <sstream>

#include "kernels/orbital/cartesian.hpp"
#include "kernels/orbital/conventions.hpp"
#include "kernels/orbital/evaluator.hpp"
#include "kernels/orbital/examples.hpp"
#include "kernels/orbital/implementations.hpp"
#include "kernels/orbital/orbital.hpp"
#include "kernels/orbital/overlap.hpp"
#include "kernels/orbital/selection.hpp"
#include "kmol/core/errors.hpp"
#include "kmol/core/execution_space.hpp"
#include "support/backend_test.hpp"
#include "support/orbital_oracle.hpp"

namespace {

using namespace kmol;

MoldenData parse(const std::string& text) {
  std::istringstream in(text);
  return parse_molden(in, "test.molden");
}

// Water in STO-3G with extra d, f and g shells on O and p, d on H (exponents of the order of
// correlation-consistent polarisation functions), and random coefficients: every l, in the
// given flavour, for the oracle comparisons.
MoldenData polarised_water(bool spherical) {
  MoldenData m = example_molecule(ExampleMolecule::water_sto3g, {7, 5, false, false});
  auto add = [&](int atom, int l, std::vector<double> alpha, std::vector<double> c) {
    GaussianShell g;
    g.atom = atom;
    g.l = l;
    g.spherical = spherical && l >= 2;
    g.exponents = std::move(alpha);
    g.coefficients = std::move(c);
    m.shells.push_back(g);
  };
  add(0, 2, {2.314, 0.645}, {0.6, 0.5});
  add(0, 3, {1.428}, {1.0});
  add(0, 4, {1.1}, {1.0});
  add(1, 1, {1.407, 0.388}, {0.4, 0.7});
  add(2, 2, {1.057}, {1.0});
  // Shells grouped by atom, as in a file.
  std::stable_sort(m.shells.begin(), m.shells.end(),
                   [](const GaussianShell& a, const GaussianShell& b) { return a.atom < b.atom; });
  std::mt19937 random(7);
  std::uniform_real_distribution<double> u(-1, 1);
  MolecularOrbital mo;
  for (int f = 0; f < m.functions(); ++f) mo.coefficients.push_back(u(random));
  m.orbitals = {mo, mo};
  for (double& c : m.orbitals[1].coefficients) c = u(random);
  return m;
}

Grid small_lattice() {
  Grid l;
  l.origin = {-2.1, -2.4, -1.9};
  l.spacing = {0.31, 0.31, 0.31};
  l.counts = {15, 17, 13};  // rows not a multiple of the kernels' 128-point blocks
  return l;
}

template <class T>
void expect_matches_oracle(const OrbitalMap<T>& map, const MoldenData& m,
                           const std::vector<double>& c, const std::string& what) {
  const double tol = std::is_same_v<T, float> ? 2e-5 : 1e-11;
  const Grid& l = map.lattice;
  int reported = 0;
  for (std::int64_t k = 0; k < l.counts[2]; ++k)
    for (std::int64_t j = 0; j < l.counts[1]; ++j)
      for (std::int64_t i = 0; i < l.counts[0]; ++i) {
        double magnitude = 0;
        const Vec3<double> p =
            l.origin + Vec3<double>{i * l.spacing[0], j * l.spacing[0], k * l.spacing[0]};
        const double want = test::oracle_orbital(m, c, p, &magnitude);
        const double got = double(map.at(i, j, k));
        if (!(std::fabs(got - want) <= tol * magnitude + 1e-300) && reported++ < 5)
          ADD_FAILURE() << what << " point " << i << "," << j << "," << k << ": " << got << " vs "
                        << want << " (terms " << magnitude << ")";
      }
}

template <class ExecSpace, class T>
void check_every_impl(const MoldenData& m, const std::string& what) {
  const OrbitalBasis basis(m);
  OrbitalSettings s;
  s.lattice = small_lattice();
  for (OrbitalImpl impl : compiled_implementations(orbital_implementations)) {
    if (!orbital_refusal(impl, platform_of<ExecSpace>()).empty()) continue;
    s.impl = impl;
    for (std::int64_t limit :
         {std::int64_t(64 * 1024), std::int64_t(0)}) {  // cuda: constant, then global memory
      if (limit == 0 && impl != OrbitalImpl::cuda) continue;
      s.constant_bytes_limit = limit;
      const auto map = orbital_on_lattice<T>(ExecSpace(), basis, m.orbitals[0], s);
      EXPECT_EQ(map.impl_used, impl);
      if (impl == OrbitalImpl::cuda) {
        EXPECT_NE(map.launch.find(limit ? "constant" : "global"), std::string::npos) << map.launch;
      }
      expect_matches_oracle(map, m, m.orbitals[0].coefficients,
                            what + " " + to_string(impl) + " " + map.launch);
    }
  }
  std::vector<const MolecularOrbital*> both = {&m.orbitals[0], &m.orbitals[1]};
  const auto maps = orbitals_on_lattice<T>(ExecSpace(), basis, both, s);
  ASSERT_EQ(maps.size(), 2u);
  for (int i = 0; i < 2; ++i)
    expect_matches_oracle(maps[std::size_t(i)], m, m.orbitals[std::size_t(i)].coefficients,
                          what + " gemm orbital " + std::to_string(i));
}

KMOL_BACKEND_TEST(Orbital, MatchesOracleCartesian) {
  const MoldenData m = polarised_water(false);
  check_every_impl<ExecSpace, float>(m, "cartesian float");
  check_every_impl<ExecSpace, double>(m, "cartesian double");
}

KMOL_BACKEND_TEST(Orbital, MatchesOracleSpherical) {
  const MoldenData m = polarised_water(true);
  check_every_impl<ExecSpace, float>(m, "spherical float");
  check_every_impl<ExecSpace, double>(m, "spherical double");
}

KMOL_BACKEND_TEST(Orbital, MatchesOracleC60) {
  // 900 functions: the packed tables (about 30 KB in double) still fit the constant bank.
  const MoldenData m = example_molecule(ExampleMolecule::c60_631gs, {2, 1, false, true});
  MoldenData two = m;
  two.orbitals = {m.orbitals[0], m.orbitals[1]};
  const OrbitalBasis basis(m);
  OrbitalSettings s;
  s.lattice.origin = {-4.6, -4.4, 0.3};
  s.lattice.spacing = {0.7, 0.7, 0.7};
  s.lattice.counts = {14, 5, 4};
  for (OrbitalImpl impl : compiled_implementations(orbital_implementations)) {
    if (!orbital_refusal(impl, platform_of<ExecSpace>()).empty()) continue;
    s.impl = impl;
    expect_matches_oracle(orbital_on_lattice<float>(ExecSpace(), basis, m.orbitals[1], s), m,
                          m.orbitals[1].coefficients, "C60 " + to_string(impl));
  }
}

TEST(Orbital, CartesianOrderOfTheEvaluatorMatchesTheTable) {
  const double x = 0.7, y = -1.3, z = 0.45;
  for (int l = 0; l <= 4; ++l) {
    const auto& powers = orbital::cartesian_powers(l);
    double v[15];
    orbital::monomials(l, x, y, z, 1.0, v);
    for (std::size_t c = 0; c < powers.size(); ++c) {
      std::vector<double> e(powers.size(), 0.0);
      e[c] = 1;
      const double want =
          std::pow(x, powers[c][0]) * std::pow(y, powers[c][1]) * std::pow(z, powers[c][2]);
      EXPECT_NEAR(orbital::angular(l, x, y, z, e.data()), want, 1e-14)
          << "l " << l << " monomial " << c;
      EXPECT_NEAR(v[c], want, 1e-14) << "l " << l << " monomial " << c;
    }
  }
}

TEST(Orbital, BasisFunctionsAreNormalisedAndSphericalShellsOrthonormal) {
  for (bool spherical : {false, true}) {
    const MoldenData m = polarised_water(spherical);
    const OrbitalBasis basis(m);
    const auto s = overlap_matrix(basis);
    const int n = basis.functions();
    for (int i = 0; i < n; ++i)
      EXPECT_NEAR(s[std::size_t(i) * n + i], 1.0, 1e-12) << "function " << i;
    for (const auto& shell : basis.shells())
      for (int a = 0; a < shell.functions; ++a)
        for (int b = 0; b < shell.functions; ++b) {
          const double sab =
              s[std::size_t(shell.first_function + a) * n + shell.first_function + b];
          if (spherical && a != b) {
            EXPECT_NEAR(sab, 0.0, 1e-12) << "l " << shell.l << " functions " << a << ", " << b;
          }
          EXPECT_NEAR(sab, s[std::size_t(shell.first_function + b) * n + shell.first_function + a],
                      1e-14);
        }
  }
}

TEST(Orbital, ExampleOrbitalsAreOrthonormal) {
  const MoldenData m = example_molecule(ExampleMolecule::water_sto3g, {7, 5, false, false});
  const auto s = overlap_matrix(OrbitalBasis(m));
  for (int i = 0; i < 7; ++i)
    for (int j = 0; j < 7; ++j)
      EXPECT_NEAR(overlap(s, m.orbitals[std::size_t(i)].coefficients,
                          m.orbitals[std::size_t(j)].coefficients),
                  i == j ? 1.0 : 0.0, 1e-10);
}

TEST(Orbital, C60Geometry) {
  const MoldenData m = example_molecule(ExampleMolecule::c60_631gs, {1, 1, false, true});
  ASSERT_EQ(m.atoms(), 60);
  int short_bonds = 0, long_bonds = 0;
  for (std::size_t a = 0; a < 60; ++a)
    for (std::size_t b = a + 1; b < 60; ++b) {
      const double d = std::sqrt(norm2(m.positions[a] - m.positions[b]));
      if (std::fabs(d - 1.40) < 1e-9)
        ++short_bonds;
      else if (std::fabs(d - 1.45) < 1e-9)
        ++long_bonds;
      else
        EXPECT_GT(d, 2.2);
    }
  EXPECT_EQ(short_bonds, 30);
  EXPECT_EQ(long_bonds, 60);
  EXPECT_EQ(m.functions(), 900);  // 6-31G*: 3 s, 2 p and a Cartesian d shell per carbon
}

// The lattice integral of psi_i psi_j (bohr^3 volume element) for the example's orbitals 0 and 1.
template <class T>
void check_norm_and_overlap(const MoldenData& m, double spacing, double padding,
                            const std::string& what) {
  const OrbitalBasis basis(m);
  OrbitalSettings s;
  s.lattice = grid_around(m.positions.data(), m.atoms(), spacing, padding);
  const auto a =
      orbital_on_lattice<T>(Kokkos::DefaultHostExecutionSpace(), basis, m.orbitals[0], s);
  const auto b =
      orbital_on_lattice<T>(Kokkos::DefaultHostExecutionSpace(), basis, m.orbitals[1], s);
  double aa = 0, bb = 0, ab = 0;
  for (std::size_t p = 0; p < a.values.size(); ++p) {
    aa += double(a.values[p]) * a.values[p];
    bb += double(b.values[p]) * b.values[p];
    ab += double(a.values[p]) * b.values[p];
  }
  const double dv = std::pow(spacing / bohr_in_angstrom, 3);
  EXPECT_NEAR(aa * dv, 1.0, 0.01) << what;
  EXPECT_NEAR(bb * dv, 1.0, 0.01) << what;
  EXPECT_NEAR(ab * dv, 0.0, 0.01) << what;
  std::printf("%s: %lld points, <0|0> = %.6f, <1|1> = %.6f, <0|1> = %.2e\n", what.c_str(),
              (long long)a.values.size(), aa * dv, bb * dv, ab * dv);
}

TEST(Orbital, WaterNormAndOverlapOnAFineLattice) {
  // Every function, core included: O 1s (exponents to 131 bohr^-2) needs about 0.04 A.
  check_norm_and_overlap<float>(
      example_molecule(ExampleMolecule::water_sto3g, {2, 1, false, false}), 0.04, 4.5,
      "water STO-3G, 0.04 A");
}

TEST(Orbital, C60NormAndOverlapOnAFineLattice) {
  check_norm_and_overlap<float>(example_molecule(ExampleMolecule::c60_631gs, {2, 1, false, true}),
                                0.12, 4.0, "C60 6-31G* valence, 0.12 A");
}

TEST(Orbital, SelectsOrbitals) {
  const MoldenData m = example_molecule(ExampleMolecule::water_sto3g, {7, 5, false, false});
  EXPECT_EQ(select_orbital(m, "homo"), 4);
  EXPECT_EQ(select_orbital(m, "LUMO"), 5);
  EXPECT_EQ(select_orbital(m, "1"), 0);
  EXPECT_THROW(select_orbital(m, "8"), InputError);
  EXPECT_THROW(select_orbital(m, "0"), InputError);
  EXPECT_THROW(select_orbital(m, "homo", "Beta"), InputError);
  // Levels counted from the frontier by energy, whatever the file's order.
  MoldenData shuffled = m;
  std::swap(shuffled.orbitals[2], shuffled.orbitals[4]);
  EXPECT_EQ(select_orbital(shuffled, "homo"), 2);
  EXPECT_EQ(select_orbital(shuffled, "homo-1"), 3);
  EXPECT_EQ(select_orbital(shuffled, "homo-2"), 4);
  EXPECT_EQ(select_orbital(m, "homo-4"), 0);
  EXPECT_EQ(select_orbital(m, "lumo+1"), 6);
  EXPECT_EQ(select_orbital(m, "lumo+0"), 5);
  EXPECT_THROW(select_orbital(m, "homo-5"), InputError);
  EXPECT_THROW(select_orbital(m, "lumo+2"), InputError);
  EXPECT_THROW(select_orbital(m, "homo+1"), InputError);
  EXPECT_THROW(select_orbital(m, "lumo+x"), InputError);
  // A Beta channel after the Alpha one: numbers count within the spin asked for.
  MoldenData open_shell = m;
  for (MolecularOrbital mo : m.orbitals) {
    mo.spin = "Beta";
    open_shell.orbitals.push_back(mo);
  }
  EXPECT_EQ(select_orbital(open_shell, "9"), 8);
  EXPECT_EQ(select_orbital(open_shell, "2", "Beta"), 8);
  EXPECT_EQ(select_orbital(open_shell, "2", "Alpha"), 1);
  EXPECT_EQ(select_orbital(open_shell, "homo-1", "Beta"), 10);
  EXPECT_EQ(select_orbital(open_shell, "lumo", "Beta"), 12);
  EXPECT_THROW(select_orbital(open_shell, "8", "Beta"), InputError);
}

TEST(Molden, RoundTripsAndReadsFlagsUnitsSpShellsAndScaleFactors) {
  const MoldenData water = example_molecule(ExampleMolecule::water_sto3g, {7, 5, true, false});
  std::ostringstream out;
  write_molden(out, water);
  const MoldenData back = parse(out.str());
  ASSERT_EQ(back.atoms(), 3);
  ASSERT_EQ(back.shells.size(), water.shells.size());
  ASSERT_EQ(back.orbitals.size(), 7u);
  EXPECT_NEAR(back.positions[1].y, water.positions[1].y, 1e-9);
  EXPECT_NEAR(back.orbitals[3].coefficients[2], water.orbitals[3].coefficients[2], 1e-12);
  EXPECT_EQ(back.orbitals[4].occupation, 2.0);

  const MoldenData m = parse(R"([Molden Format]
[Atoms] AU
C 1 6 0.0 0.0 1.0D+00
[GTO]
  1 0
 sp 2 2.0
  1.0 0.5 0.25
  0.5D+00 0.5 0.75
 d 1 1.0
  0.8 1.0
 f 1
  0.8 1.0

[5D10F]
[9G]
[MO]
 Sym= A
 Ene= -0.5
 Spin= Beta
 Occup= 1.0
 3 0.5
 15 0.25
)");
  EXPECT_NEAR(m.positions[0].z, bohr_in_angstrom, 1e-12);
  ASSERT_EQ(m.shells.size(), 4u);  // sp split in s and p
  EXPECT_EQ(m.shells[0].l, 0);
  EXPECT_EQ(m.shells[1].l, 1);
  EXPECT_EQ(m.shells[1].exponents[1], 2.0);  // 0.5 times the scale factor squared
  EXPECT_EQ(m.shells[1].coefficients[1], 0.75);
  EXPECT_TRUE(m.shells[2].spherical);   // d: 5D
  EXPECT_FALSE(m.shells[3].spherical);  // f: 10F
  EXPECT_EQ(m.functions(), 1 + 3 + 5 + 10);
  EXPECT_EQ(m.orbitals[0].spin, "Beta");
  EXPECT_EQ(m.orbitals[0].coefficients[14], 0.25);
}

// The message names the file, the field and the line.
void expect_refused(const std::string& text, const std::string& field, long line) {
  try {
    parse(text);
    ADD_FAILURE() << "accepted:\n" << text;
  } catch (const InputError& e) {
    EXPECT_EQ(e.where().file, "test.molden");
    EXPECT_EQ(e.where().field, field) << e.what();
    EXPECT_EQ(e.where().line, line) << e.what();
  }
}

TEST(Molden, ChecksEveryNormAndConvertsAxialCartesianFunctions) {
  // Polarised water's orbitals normalised under kmol's convention (each function normalised).
  MoldenData each = polarised_water(false);
  const std::vector<double> s = overlap_matrix(OrbitalBasis(each));
  for (auto& mo : each.orbitals) {
    const double n = std::sqrt(overlap(s, mo.coefficients, mo.coefficients));
    for (double& c : mo.coefficients) c /= n;
  }
  const OrbitalNorms fine = check_orbital_norms(each);
  EXPECT_EQ(fine.checked, int(each.orbitals.size()));
  EXPECT_EQ(fine.off, 0);
  // The same orbitals as an older writer stores them: each Cartesian function scaled by its
  // norm relative to x^l, which the conversion's factors give (unit coefficients in, factors out).
  MoldenData probe = each;
  for (auto& mo : probe.orbitals) mo.coefficients.assign(mo.coefficients.size(), 1.0);
  convert_axial_cartesian(probe);
  const std::vector<double>& factor = probe.orbitals[0].coefficients;
  EXPECT_DOUBLE_EQ(factor[0], 1.0);  // s and p functions keep their coefficients
  MoldenData axial = each;
  for (auto& mo : axial.orbitals)
    for (std::size_t f = 0; f < factor.size(); ++f) mo.coefficients[f] /= factor[f];
  const OrbitalNorms legacy = check_orbital_norms(axial);
  EXPECT_GT(legacy.off, 0);
  EXPECT_TRUE(legacy.axial_fits);
  convert_axial_cartesian(axial);
  EXPECT_EQ(check_orbital_norms(axial).off, 0);
  for (std::size_t k = 0; k < each.orbitals.size(); ++k)
    for (std::size_t f = 0; f < factor.size(); ++f)
      EXPECT_NEAR(axial.orbitals[k].coefficients[f], each.orbitals[k].coefficients[f], 1e-14);
  // xy of a d shell: sqrt(1/3) relative to xx; xyz of an f shell: sqrt(1/15).
  int ratio_third = 0, ratio_fifteenth = 0;
  for (double f : factor) {
    ratio_third += std::fabs(f - std::sqrt(1.0 / 3)) < 1e-15;
    ratio_fifteenth += std::fabs(f - std::sqrt(1.0 / 15)) < 1e-15;
  }
  EXPECT_GT(ratio_third, 0);
  EXPECT_GT(ratio_fifteenth, 0);
  // Spherical shells have no such ambiguity: nothing to explain.
  MoldenData spherical = polarised_water(true);
  EXPECT_FALSE(check_orbital_norms(spherical).axial_fits);
}

TEST(Molden, RefusesMalformedFiles) {
  const std::string head = "[Molden Format]\n[Atoms] Angs\nO 1 8 0 0 0\n[GTO]\n1 0\n";  // lines 1-5
  const std::string s_shell = " s 1 1.0\n 1.0 1.0\n\n";                                 // lines 6-8
  const std::string mo = "[MO]\n Ene= -1\n Occup= 2\n 1 1.0\n";  // lines 9-12
  EXPECT_EQ(parse(head + s_shell + mo).functions(), 1);
  expect_refused("[Atoms] Angs\n" + head.substr(16), "[Molden Format]", 1);
  expect_refused("[Molden Format]\n[Atoms] Furlongs\nO 1 8 0 0 0\n", "[Atoms] units", 2);
  expect_refused("[Molden Format]\n[Atoms] Angs\nO 1 8 0 0 zero\n[GTO]\n", "[Atoms] z", 3);
  expect_refused("[Molden Format]\n[Atoms] Angs\nO 1 8 0 0\n[GTO]\n", "[Atoms]", 3);
  expect_refused("[Molden Format]\n[Atoms] Angs\nO 2 8 0 0 0\n[GTO]\n", "[Atoms] number", 3);
  expect_refused(head + " h 1 1.0\n 1.0 1.0\n\n" + mo, "[GTO] shell type", 6);
  expect_refused(head + " s 2 1.0\n 1.0 1.0\n\n" + mo, "[GTO] primitive", 8);
  expect_refused(head + " s 1 1.0\n -1.0 1.0\n\n" + mo, "[GTO] exponent", 7);
  expect_refused(head + " s 1 1.0\n 1.0 1.0 2.0\n\n" + mo, "[GTO] primitive", 7);
  // Exponents and coefficients whose normalised primitive overflows single precision on the
  // lattice (an exponent of 1e30 once gave a map of NaN with an analytic norm of 1).
  expect_refused(head + " s 1 1.0\n 1.0e30 1.0\n\n" + mo, "[GTO] exponent", 7);
  expect_refused(head + " s 1 1.0e8\n 1.0 1.0\n\n" + mo, "[GTO] exponent", 7);
  expect_refused(head + " g 1 1.0\n 1.0e11 1.0\n\n" + mo, "[GTO] coefficient", 7);
  expect_refused(head + " s 1 1.0\n 1.0 1.0e31\n\n" + mo, "[GTO] coefficient", 7);
  EXPECT_EQ(parse(head + " s 1 1.0\n 1.0e9 1.0\n\n" + mo).functions(), 1);
  expect_refused("[Molden Format]\n[Atoms] Angs\nO 1 8 0 0 0\n[GTO]\n2 0\n" + s_shell + mo,
                 "[GTO] atom", 5);
  expect_refused(head + s_shell + "[MO]\n Ene= -1\n Occup= 2\n 2 1.0\n", "[MO] index", 12);
  expect_refused(head + s_shell + "[MO]\n Ene= low\n", "[MO] Ene", 10);
  expect_refused(head + s_shell + "[MO]\n Spin= Up\n", "[MO] Spin", 10);
  expect_refused(head + s_shell + "[MO]\n Colour= red\n", "[MO]", 10);
  expect_refused(head + s_shell + "[MO]\n 1 1.0\n", "[MO]", 10);
  expect_refused(head + s_shell, "[MO]", 8);
  expect_refused(head + s_shell + "[STO]\n" + mo, "[STO]", 9);
  expect_refused(head + s_shell + "[MO\n", "section", 9);
  // Lines of form feeds and vertical tabs are blank, as the number reader sees them (a line of
  // them once indexed an empty list of words; found by fuzzing).
  EXPECT_EQ(parse("[Molden Format]\n[Atoms] Angs\nO 1 8 0 0 0\n[GTO]\n\v\f\n1 0\n" +
                  s_shell.substr(0, s_shell.size() - 1) + "\v\n" + mo)
                .functions(),
            1);
}

}  // namespace
