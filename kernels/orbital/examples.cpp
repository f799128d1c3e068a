#include "kernels/orbital/examples.hpp"

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <ostream>
#include <stdexcept>

#include "kernels/orbital/orbital.hpp"
#include "kernels/orbital/overlap.hpp"

namespace kmol {
namespace {

struct Contraction {
  int l;
  std::vector<double> exponents, coefficients;
};

// STO-3G (Hehre, Stewart and Pople, J. Chem. Phys. 51, 2657 (1969)); the sp shell split in s and p.
std::vector<Contraction> sto3g(int z) {
  if (z == 1)
    return {{0, {3.42525091, 0.62391373, 0.16885540}, {0.15432897, 0.53532814, 0.44463454}}};
  const std::vector<double> sp = {5.0331513, 1.1695961, 0.3803890};
  return {{0, {130.7093200, 23.8088610, 6.4436083}, {0.15432897, 0.53532814, 0.44463454}},
          {0, sp, {-0.09996723, 0.39951283, 0.70011547}},
          {1, sp, {0.15591627, 0.60768372, 0.39195739}}};
}

// 6-31G* for carbon (Hehre, Ditchfield and Pople, J. Chem. Phys. 56, 2257 (1972); the d exponent
// 0.8 of Hariharan and Pople, Theor. Chim. Acta 28, 213 (1973)).
std::vector<Contraction> c_631gs() {
  const std::vector<double> sp2 = {7.8682724, 1.8812885, 0.5442493};
  return {{0,
           {3047.5249, 457.36951, 103.94869, 29.210155, 9.2866630, 3.1639270},
           {0.0018347, 0.0140373, 0.0688426, 0.2321844, 0.4679413, 0.3623120}},
          {0, sp2, {-0.1193324, -0.1608542, 1.1434564}},
          {1, sp2, {0.0689991, 0.3164240, 0.7443083}},
          {0, {0.1687144}, {1.0}},
          {1, {0.1687144}, {1.0}},
          {2, {0.8}, {1.0}}};
}

void water(MoldenData& m) {
  // r(OH) = 0.9572 A, angle HOH = 104.52 degrees, O on the z axis.
  const double r = 0.9572, half = 0.5 * 104.52 * M_PI / 180;
  m.symbols = {"O", "H", "H"};
  m.atomic_numbers = {8, 1, 1};
  m.positions = {{0, 0, 0.1173},
                 {0, r * std::sin(half), 0.1173 - r * std::cos(half)},
                 {0, -r * std::sin(half), 0.1173 - r * std::cos(half)}};
}

// A truncated icosahedron: atom P_ij = R ((1 - t) V_i + t V_j) for every directed edge (i, j) of an
// icosahedron of circumradius R. Pentagon bonds are R t e long, bonds between hexagons
// R (1 - 2t) e (e: the edge of the unit icosahedron), which fixes t and R.
void c60(MoldenData& m) {
  const double phi = 0.5 * (1 + std::sqrt(5.0));
  std::vector<Vec3<double>> v;
  for (double a : {-1.0, 1.0})
    for (double b : {-phi, phi}) {
      v.push_back({0, a, b});
      v.push_back({a, b, 0});
      v.push_back({b, 0, a});
    }
  const double scale = 1 / std::sqrt(1 + phi * phi);
  for (auto& p : v) p = scale * p;
  const double e = 2 * scale, single = 1.45, double_bond = 1.40;
  const double t = 1 / (double_bond / single + 2), R = single / (t * e);
  for (std::size_t i = 0; i < v.size(); ++i)
    for (std::size_t j = 0; j < v.size(); ++j)
      if (i != j && std::fabs(std::sqrt(norm2(v[i] - v[j])) - e) < 1e-9) {
        m.symbols.push_back("C");
        m.atomic_numbers.push_back(6);
        m.positions.push_back(R * ((1 - t) * v[i] + t * v[j]));
      }
  if (m.positions.size() != 60) throw std::logic_error("C60 construction");
}

// Lower Cholesky factor of the symmetric positive definite n x n matrix a (row-major), in place.
void cholesky(std::vector<double>& a, int n) {
  for (int j = 0; j < n; ++j) {
    double d = a[std::size_t(j) * n + j];
    for (int k = 0; k < j; ++k) d -= a[std::size_t(j) * n + k] * a[std::size_t(j) * n + k];
    if (!(d > 0)) throw std::logic_error("overlap matrix not positive definite");
    const double l = std::sqrt(d);
    a[std::size_t(j) * n + j] = l;
    for (int i = j + 1; i < n; ++i) {
      double s = a[std::size_t(i) * n + j];
      for (int k = 0; k < j; ++k) s -= a[std::size_t(i) * n + k] * a[std::size_t(j) * n + k];
      a[std::size_t(i) * n + j] = s / l;
    }
    for (int k = j + 1; k < n; ++k) a[std::size_t(j) * n + k] = 0;
  }
}

// Row r of L^-1 (L lower triangular): the coefficients of the r-th function made orthonormal to
// functions 0..r-1 (Gram-Schmidt in the overlap metric).
std::vector<double> inverse_row(const std::vector<double>& l, int n, int r) {
  std::vector<double> x(std::size_t(n), 0.0);  // x^T L = e_r^T: back substitution from r down
  x[std::size_t(r)] = 1 / l[std::size_t(r) * n + r];
  for (int j = r - 1; j >= 0; --j) {
    double s = 0;
    for (int i = j + 1; i <= r; ++i) s += x[std::size_t(i)] * l[std::size_t(i) * n + j];
    x[std::size_t(j)] = -s / l[std::size_t(j) * n + j];
  }
  return x;
}

// printf-style formatting (kmol_kernels does not link fmt).
std::string format(const char* pattern, ...) {
  char buffer[256];
  va_list args;
  va_start(args, pattern);
  std::vsnprintf(buffer, sizeof buffer, pattern, args);
  va_end(args);
  return buffer;
}

}  // namespace

MoldenData example_molecule(ExampleMolecule molecule, const ExampleOptions& o) {
  MoldenData m;
  m.path = molecule == ExampleMolecule::water_sto3g ? "example:water-sto3g" : "example:c60-6-31gs";
  if (molecule == ExampleMolecule::water_sto3g)
    water(m);
  else
    c60(m);
  std::vector<bool> core;  // per basis function
  for (int a = 0; a < int(m.positions.size()); ++a) {
    const auto shells = molecule == ExampleMolecule::water_sto3g
                            ? sto3g(m.atomic_numbers[std::size_t(a)])
                            : c_631gs();
    for (std::size_t k = 0; k < shells.size(); ++k) {
      GaussianShell g;
      g.atom = a;
      g.l = shells[k].l;
      g.spherical = o.spherical && g.l >= 2;
      g.exponents = shells[k].exponents;
      g.coefficients = shells[k].coefficients;
      core.insert(core.end(), std::size_t(g.functions()),
                  k == 0 && m.atomic_numbers[std::size_t(a)] > 2);
      m.shells.push_back(g);
    }
  }
  const OrbitalBasis basis(m);
  const std::vector<double> s_full = overlap_matrix(basis);
  std::vector<int> keep;
  for (int f = 0; f < basis.functions(); ++f)
    if (!(o.valence && core[std::size_t(f)])) keep.push_back(f);
  const int n = int(keep.size());
  if (o.orbitals > n) throw std::invalid_argument("more orbitals than basis functions");
  std::vector<double> s(std::size_t(n) * n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      s[std::size_t(i) * n + j] =
          s_full[std::size_t(keep[std::size_t(i)]) * basis.functions() + keep[std::size_t(j)]];
  cholesky(s, n);
  for (int k = 0; k < o.orbitals; ++k) {
    MolecularOrbital mo;
    mo.symmetry = "A";
    mo.energy =
        -0.6 + 0.05 * k;  // no SCF here: increasing energies order the orbitals for homo and lumo
    mo.occupation = k < o.occupied ? 2.0 : 0.0;
    mo.coefficients.assign(std::size_t(basis.functions()), 0.0);
    const std::vector<double> row = inverse_row(s, n, n - 1 - k);
    for (int i = 0; i < n; ++i)
      mo.coefficients[std::size_t(keep[std::size_t(i)])] = row[std::size_t(i)];
    m.orbitals.push_back(std::move(mo));
  }
  return m;
}

void write_molden(std::ostream& out, const MoldenData& m) {
  out << "[Molden Format]\n[Title]\nwritten by kmol from " << m.path << "\n[Atoms] Angs\n";
  for (std::size_t a = 0; a < m.positions.size(); ++a)
    out << format("%-3s %4zu %3d %18.10f %18.10f %18.10f\n", m.symbols[a].c_str(), a + 1,
                  m.atomic_numbers[a], m.positions[a].x, m.positions[a].y, m.positions[a].z);
  bool spherical_d = false, spherical_f = false, spherical_g = false;
  out << "[GTO]\n";
  for (std::size_t k = 0; k < m.shells.size(); ++k) {
    const GaussianShell& g = m.shells[k];
    if (k == 0 || m.shells[k - 1].atom != g.atom) out << format("%4d 0\n", g.atom + 1);
    out << format(" %c %3zu 1.00\n", "spdfg"[g.l], g.exponents.size());
    for (std::size_t p = 0; p < g.exponents.size(); ++p)
      out << format("%20.10e %20.10e\n", g.exponents[p], g.coefficients[p]);
    if (k + 1 == m.shells.size() || m.shells[k + 1].atom != g.atom) out << "\n";
    spherical_d |= g.l == 2 && g.spherical;
    spherical_f |= g.l == 3 && g.spherical;
    spherical_g |= g.l == 4 && g.spherical;
  }
  if (spherical_d && spherical_f)
    out << "[5D7F]\n";
  else if (spherical_d)
    out << "[5D10F]\n";
  else if (spherical_f)
    out << "[7F]\n";
  if (spherical_g) out << "[9G]\n";
  out << "[MO]\n";
  for (const MolecularOrbital& mo : m.orbitals) {
    out << format(" Sym= %s\n Ene= %.6f\n Spin= %s\n Occup= %.6f\n", mo.symmetry.c_str(), mo.energy,
                  mo.spin.c_str(), mo.occupation);
    for (std::size_t i = 0; i < mo.coefficients.size(); ++i)
      out << format("%5zu %22.14e\n", i + 1, mo.coefficients[i]);
  }
}

}  // namespace kmol
