#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

#include "kernels/orbital/cartesian.hpp"
#include "kernels/orbital/orbital.hpp"
#include "kernels/orbital/packing.hpp"
#include "kmol/core/errors.hpp"

namespace kmol {

OrbitalBasis::OrbitalBasis(const MoldenData& molden) : centres_(molden.positions) {
  for (const GaussianShell& g : molden.shells) {
    CartesianShell s;
    s.atom = g.atom;
    s.l = g.l;
    s.alpha = g.exponents;
    // Primitives normalised for l (the (2 alpha)^((2l+3)/4) of every monomial of degree l; what
    // differs between the shell's functions is a constant of each function, taken up below).
    for (std::size_t k = 0; k < g.exponents.size(); ++k)
      s.d.push_back(g.coefficients[k] * std::pow(2 * g.exponents[k], (2 * g.l + 3) / 4.0));
    s.first_function = functions_;
    s.functions = g.functions();
    s.first_monomial = monomials_;
    const auto& powers = orbital::cartesian_powers(g.l);
    s.expansion.assign(std::size_t(s.functions) * powers.size(), 0.0);
    for (int f = 0; f < s.functions; ++f) {
      const orbital::Polynomial p =
          g.spherical ? orbital::spherical_function(g.l, f) : orbital::cartesian_function(g.l, f);
      // Each function of the contraction normalised to 1 as a whole.
      double norm2 = 0;
      for (std::size_t a = 0; a < s.d.size(); ++a)
        for (std::size_t b = 0; b < s.d.size(); ++b)
          norm2 += s.d[a] * s.d[b] * orbital::squared_integral(p, s.alpha[a] + s.alpha[b]);
      if (!(norm2 > 0) || !std::isfinite(norm2))
        throw InputError(
            {molden.path, "[GTO]", -1},
            "a shell of atom " + std::to_string(g.atom + 1) + " has a contraction of zero norm");
      for (const orbital::Term& t : p) {
        const auto c = std::find(powers.begin(), powers.end(), t.powers) - powers.begin();
        s.expansion[std::size_t(f) * powers.size() + std::size_t(c)] +=
            t.coefficient / std::sqrt(norm2);
      }
    }
    functions_ += s.functions;
    monomials_ += int(powers.size());
    shells_.push_back(std::move(s));
  }
}

std::vector<double> OrbitalBasis::monomial_coefficients(const std::vector<double>& mo) const {
  if (int(mo.size()) != functions_)
    throw InputError({"", "coefficients", -1}, "the orbital has " + std::to_string(mo.size()) +
                                                   " coefficients but the basis " +
                                                   std::to_string(functions_) + " functions");
  std::vector<double> out(std::size_t(monomials_), 0.0);
  for (const CartesianShell& s : shells_) {
    const std::size_t n = orbital::cartesian_powers(s.l).size();
    const double to_angstrom =
        std::pow(bohr_in_angstrom, -s.l);  // monomials of bohr from ones of Angstrom
    for (int f = 0; f < s.functions; ++f)
      for (std::size_t c = 0; c < n; ++c)
        out[std::size_t(s.first_monomial) + c] += mo[std::size_t(s.first_function + f)] *
                                                  s.expansion[std::size_t(f) * n + c] * to_angstrom;
  }
  return out;
}

namespace orbital {
namespace {

std::int64_t aligned(std::int64_t offset) { return (offset + 15) / 16 * 16; }

template <class V>
void put(std::vector<unsigned char>& bytes, std::int64_t offset, const std::vector<V>& values) {
  if (!values.empty()) std::memcpy(bytes.data() + offset, values.data(), values.size() * sizeof(V));
}

}  // namespace

template <class T>
PackedTables pack_tables(const OrbitalBasis& basis, const std::vector<double>& coef,
                         const Vec3<double>& origin) {
  const auto& shells = basis.shells();
  std::vector<int> order(shells.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    return shells[std::size_t(a)].atom < shells[std::size_t(b)].atom;
  });
  const int atoms = int(basis.centres().size());
  std::vector<T> xyz, alpha, d, c;
  std::vector<int> atom_shells(std::size_t(atoms) + 1, 0), shell_l, shell_prims{0}, shell_coef;
  const double log2e = 1.0 / std::log(2.0), bohr2 = bohr_in_angstrom * bohr_in_angstrom;
  for (const auto& p : basis.centres()) {
    xyz.push_back(T(p.x - origin.x));
    xyz.push_back(T(p.y - origin.y));
    xyz.push_back(T(p.z - origin.z));
  }
  for (int i : order) {
    const CartesianShell& s = shells[std::size_t(i)];
    ++atom_shells[std::size_t(s.atom) + 1];
    shell_l.push_back(s.l);
    shell_coef.push_back(s.first_monomial);
    for (std::size_t k = 0; k < s.alpha.size(); ++k) {
      alpha.push_back(T(s.alpha[k] / bohr2 * log2e));
      d.push_back(T(s.d[k]));
    }
    shell_prims.push_back(int(alpha.size()));
  }
  std::partial_sum(atom_shells.begin(), atom_shells.end(), atom_shells.begin());
  for (double v : coef) c.push_back(T(v));

  PackedTables out;
  TableLayout& l = out.layout;
  l.atoms = atoms;
  l.shells = int(shells.size());
  l.prims = int(alpha.size());
  l.monomials = int(c.size());
  l.xyz = 0;
  l.atom_shells = aligned(l.xyz + std::int64_t(xyz.size() * sizeof(T)));
  l.shell_l = aligned(l.atom_shells + std::int64_t(atom_shells.size() * sizeof(int)));
  l.shell_prims = aligned(l.shell_l + std::int64_t(shell_l.size() * sizeof(int)));
  l.shell_coef = aligned(l.shell_prims + std::int64_t(shell_prims.size() * sizeof(int)));
  l.alpha = aligned(l.shell_coef + std::int64_t(shell_coef.size() * sizeof(int)));
  l.d = aligned(l.alpha + std::int64_t(alpha.size() * sizeof(T)));
  l.coef = aligned(l.d + std::int64_t(d.size() * sizeof(T)));
  l.bytes = aligned(l.coef + std::int64_t(c.size() * sizeof(T)));
  out.bytes.assign(std::size_t(l.bytes), 0);
  put(out.bytes, l.xyz, xyz);
  put(out.bytes, l.atom_shells, atom_shells);
  put(out.bytes, l.shell_l, shell_l);
  put(out.bytes, l.shell_prims, shell_prims);
  put(out.bytes, l.shell_coef, shell_coef);
  put(out.bytes, l.alpha, alpha);
  put(out.bytes, l.d, d);
  put(out.bytes, l.coef, c);
  return out;
}

template PackedTables pack_tables<float>(const OrbitalBasis&, const std::vector<double>&,
                                         const Vec3<double>&);
template PackedTables pack_tables<double>(const OrbitalBasis&, const std::vector<double>&,
                                          const Vec3<double>&);

}  // namespace orbital
}  // namespace kmol
