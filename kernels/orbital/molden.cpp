#include "kernels/orbital/molden.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <sstream>

#include "kmol/core/errors.hpp"
#include "kmol/core/leading_number.hpp"
#include "kmol/core/significant.hpp"

namespace kmol {
namespace {

std::string lower(std::string s) {
  for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string trim(const std::string& s) {
  // The blanks `>>` skips, so that a line trimmed to something has words.
  const char* blanks = " \t\r\n\v\f";
  const auto b = s.find_first_not_of(blanks);
  if (b == std::string::npos) return {};
  return s.substr(b, s.find_last_not_of(blanks) - b + 1);
}

std::vector<std::string> words(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

struct Line {
  std::string text;
  long number;
};

// A [Section] and the lines up to the next one.
struct Section {
  std::string name;  // lower case, without brackets
  std::string rest;  // what follows the closing bracket (units of [Atoms])
  long line = 0;
  std::vector<Line> body;
};

class Parser {
 public:
  explicit Parser(std::string name) : name_(std::move(name)) {}

  [[noreturn]] void fail(const std::string& field, long line, const std::string& what) const {
    throw InputError({name_, field, line}, "line " + std::to_string(line) + ": " + what);
  }

  // Fortran writes exponents as 1.0D+00.
  double number(std::string w, const std::string& field, long line) const {
    std::replace(w.begin(), w.end(), 'D', 'E');
    std::replace(w.begin(), w.end(), 'd', 'e');
    const LeadingNumber<double> n = leading_number<double>(w);
    if (n.used != w.size() || !std::isfinite(n.value))
      fail(field, line, "expected a number, found '" + w + "'");
    return n.value;
  }

  // Beyond these an orbital's lattice values overflow single precision: exponents (the steepest
  // core functions of published basis sets are below 1e9 bohr^-2) and a primitive's coefficient
  // times its normalisation (2 alpha)^((2l+3)/4).
  static constexpr double max_exponent = 1e12, max_normalised_primitive = 1e30;

  double primitive(const std::string& w, const std::string& field, long line, double alpha,
                   int l) const {
    const double c = number(w, field, line);
    const double normalised = std::abs(c) * std::pow(2 * alpha, (2 * l + 3) / 4.0);
    if (!(normalised <= max_normalised_primitive)) {
      fail(field, line,
           "is " + w + ": normalised with its exponent it reaches " + significant(normalised) +
               ", beyond 1e30 (a damaged coefficient or exponent?)");
    }
    return c;
  }

  long integer(const std::string& w, const std::string& field, long line) const {
    const LeadingNumber<long> n = leading_number<long>(w);
    if (n.used != w.size()) fail(field, line, "expected an integer, found '" + w + "'");
    return n.value;
  }

  std::vector<Section> split(std::istream& in) const {
    std::vector<Section> sections;
    std::string text;
    long number = 0;
    while (std::getline(in, text)) {
      ++number;
      const std::string t = trim(text);
      if (!t.empty() && t[0] == '[') {
        const auto close = t.find(']');
        if (close == std::string::npos)
          fail("section", number, "a section name opens with '[' but does not close");
        sections.push_back(
            {lower(trim(t.substr(1, close - 1))), trim(t.substr(close + 1)), number, {}});
      } else if (!sections.empty()) {
        sections.back().body.push_back({text, number});
      } else if (!t.empty()) {
        fail("[Molden Format]", number, "the file does not start with a [Molden Format] section");
      }
    }
    if (sections.empty() || sections.front().name != "molden format")
      fail("[Molden Format]", sections.empty() ? 1 : sections.front().line,
           "not a Molden file (no [Molden Format] first)");
    return sections;
  }

  void atoms(const Section& s, MoldenData& m) const {
    const std::string units = lower(s.rest);
    double scale = 0;
    if (units.find("angs") != std::string::npos)
      scale = 1;
    else if (units.find("au") != std::string::npos)
      scale = bohr_in_angstrom;
    else
      fail("[Atoms] units", s.line, "expected Angs or AU after [Atoms], found '" + s.rest + "'");
    for (const Line& l : s.body) {
      const auto w = words(l.text);
      if (w.empty()) continue;
      if (w.size() != 6) fail("[Atoms]", l.number, "expected 'name number atomic_number x y z'");
      const long index = integer(w[1], "[Atoms] number", l.number);
      if (index != long(m.positions.size()) + 1)
        fail("[Atoms] number", l.number,
             "atoms must be numbered 1, 2, ... in order; found " + w[1]);
      const long z = integer(w[2], "[Atoms] atomic number", l.number);
      if (z < 0 || z > 118)
        fail("[Atoms] atomic number", l.number, "expected 0..118, found " + w[2]);
      m.symbols.push_back(w[0]);
      m.atomic_numbers.push_back(int(z));
      m.positions.push_back({scale * number(w[3], "[Atoms] x", l.number),
                             scale * number(w[4], "[Atoms] y", l.number),
                             scale * number(w[5], "[Atoms] z", l.number)});
    }
    if (m.positions.empty()) fail("[Atoms]", s.line, "the section lists no atoms");
  }

  void gto(const Section& s, MoldenData& m) const {
    std::size_t i = 0;
    const auto& body = s.body;
    auto next_nonblank = [&] {
      while (i < body.size() && trim(body[i].text).empty()) ++i;
      return i < body.size();
    };
    while (next_nonblank()) {
      const auto head = words(body[i].text);
      const long atom = integer(head[0], "[GTO] atom", body[i].number);
      if (atom < 1 || atom > m.atoms())
        fail("[GTO] atom", body[i].number,
             "atom " + head[0] + " is not in [Atoms] (1.." + std::to_string(m.atoms()) + ")");
      ++i;
      // Shells of this atom up to a blank line.
      while (i < body.size() && !trim(body[i].text).empty()) {
        const auto w = words(body[i].text);
        const long at = body[i].number;
        if (w.size() < 2) fail("[GTO] shell", at, "expected 'type primitives [scale]'");
        const std::string type = lower(w[0]);
        static const std::string letters = "spdfg";
        const bool sp = type == "sp";
        if (!sp && (type.size() != 1 || letters.find(type[0]) == std::string::npos))
          fail("[GTO] shell type", at, "expected s, p, sp, d, f or g, found '" + w[0] + "'");
        const long n = integer(w[1], "[GTO] primitives", at);
        if (n < 1 || n > 1000)
          fail("[GTO] primitives", at, "expected 1..1000 primitives, found " + w[1]);
        const double factor = w.size() > 2 ? number(w[2], "[GTO] scale factor", at) : 1.0;
        if (!(factor > 0)) fail("[GTO] scale factor", at, "must be positive");
        GaussianShell shell, p_part;
        shell.atom = p_part.atom = int(atom - 1);
        shell.l = sp ? 0 : int(letters.find(type[0]));
        p_part.l = 1;
        ++i;
        for (long k = 0; k < n; ++k, ++i) {
          if (i >= body.size() || trim(body[i].text).empty())
            fail("[GTO] primitive", i < body.size() ? body[i].number : at,
                 "shell ends before its " + w[1] + " primitives");
          const auto p = words(body[i].text);
          if (p.size() != (sp ? 3u : 2u))
            fail("[GTO] primitive", body[i].number,
                 sp ? "expected 'exponent s_coefficient p_coefficient'"
                    : "expected 'exponent coefficient'");
          const double alpha = number(p[0], "[GTO] exponent", body[i].number) * factor * factor;
          if (!(alpha > 0)) fail("[GTO] exponent", body[i].number, "must be positive");
          if (!(alpha <= max_exponent))
            fail("[GTO] exponent", body[i].number,
                 "is " + p[0] + " (times the scale factor squared): expected at most 1e12 bohr^-2");
          shell.exponents.push_back(alpha);
          shell.coefficients.push_back(
              primitive(p[1], "[GTO] coefficient", body[i].number, alpha, shell.l));
          if (sp) {
            p_part.exponents.push_back(alpha);
            p_part.coefficients.push_back(
                primitive(p[2], "[GTO] p coefficient", body[i].number, alpha, 1));
          }
        }
        m.shells.push_back(shell);
        if (sp) m.shells.push_back(p_part);
      }
    }
    if (m.shells.empty()) fail("[GTO]", s.line, "the section lists no shells");
  }

  void orbitals(const Section& s, MoldenData& m) const {
    const int n = m.functions();
    MolecularOrbital* mo = nullptr;
    bool in_coefficients = false;
    for (const Line& l : s.body) {
      const std::string t = trim(l.text);
      if (t.empty()) continue;
      const auto eq = t.find('=');
      if (eq != std::string::npos) {
        if (mo == nullptr || in_coefficients) {
          m.orbitals.emplace_back();
          m.orbitals.back().coefficients.assign(std::size_t(n), 0.0);
          mo = &m.orbitals.back();
          in_coefficients = false;
        }
        const std::string key = lower(trim(t.substr(0, eq))), value = trim(t.substr(eq + 1));
        if (key == "ene")
          mo->energy = number(value, "[MO] Ene", l.number);
        else if (key == "occup")
          mo->occupation = number(value, "[MO] Occup", l.number);
        else if (key == "sym")
          mo->symmetry = value;
        else if (key == "spin") {
          const std::string v = lower(value);
          if (v != "alpha" && v != "beta")
            fail("[MO] Spin", l.number, "expected Alpha or Beta, found '" + value + "'");
          mo->spin = v == "alpha" ? "Alpha" : "Beta";
        } else {
          fail("[MO]", l.number,
               "unknown key '" + trim(t.substr(0, eq)) + "' (expected Sym, Ene, Spin or Occup)");
        }
        continue;
      }
      if (mo == nullptr) fail("[MO]", l.number, "coefficients before any Ene=/Occup= header");
      in_coefficients = true;
      const auto w = words(t);
      if (w.size() != 2) fail("[MO] coefficient", l.number, "expected 'index coefficient'");
      const long index = integer(w[0], "[MO] index", l.number);
      if (index < 1 || index > n)
        fail("[MO] index", l.number,
             "basis function " + w[0] + " out of range (the basis has " + std::to_string(n) + ")");
      mo->coefficients[std::size_t(index - 1)] = number(w[1], "[MO] coefficient", l.number);
    }
    if (m.orbitals.empty()) fail("[MO]", s.line, "the section lists no orbitals");
  }

 private:
  std::string name_;
};

}  // namespace

int MoldenData::functions() const {
  int n = 0;
  for (const auto& s : shells) n += s.functions();
  return n;
}

MoldenData parse_molden(std::istream& in, const std::string& name) {
  const Parser p(name);
  const std::vector<Section> sections = p.split(in);
  auto find = [&](const std::string& n) -> const Section* {
    for (const auto& s : sections)
      if (s.name == n) return &s;
    return nullptr;
  };
  if (find("sto"))
    p.fail("[STO]", find("sto")->line, "Slater-type bases are not supported (only [GTO])");
  const long last =
      sections.back().body.empty() ? sections.back().line : sections.back().body.back().number;
  auto require = [&](const std::string& n, const char* field) -> const Section& {
    const Section* s = find(n);
    if (!s) p.fail(field, last, std::string("the file has no ") + field + " section");
    return *s;
  };
  MoldenData m;
  m.path = name;
  p.atoms(require("atoms", "[Atoms]"), m);
  p.gto(require("gto", "[GTO]"), m);
  // Cartesian unless flagged: [5D] and [5D7F] make d and f spherical, [5D10F] d only, [7F] f
  // only, [9G] g.
  bool spherical[5] = {false, false, false, false, false};
  for (const auto& s : sections) {
    if (s.name == "5d" || s.name == "5d7f") spherical[2] = spherical[3] = true;
    if (s.name == "5d10f") spherical[2] = true;
    if (s.name == "7f") spherical[3] = true;
    if (s.name == "9g") spherical[4] = true;
  }
  for (auto& shell : m.shells) shell.spherical = spherical[shell.l];
  p.orbitals(require("mo", "[MO]"), m);
  return m;
}

MoldenData read_molden(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError({path, "", -1}, "cannot open the Molden file");
  return parse_molden(in, path);
}

int select_orbital(const MoldenData& molden, const std::string& which, const std::string& spin) {
  const std::string w = lower(which);
  auto number = [&](const std::string& text, const std::string& what) {
    const auto [value, used] = leading_number<long>(text);
    if (text.empty() || used != text.size() || value < 0)
      throw InputError(
          {molden.path, "--mo", -1},
          "expected homo, lumo, homo-K, lumo+K or an orbital number, found '" + which + "'" + what);
    return value;
  };
  std::vector<int> candidates;  // orbitals of the spin asked for (all when none is)
  for (int i = 0; i < int(molden.orbitals.size()); ++i)
    if (spin.empty() || lower(molden.orbitals[std::size_t(i)].spin) == lower(spin))
      candidates.push_back(i);
  const std::string channel = spin.empty() ? "" : " " + spin;
  const bool homo = w.rfind("homo", 0) == 0, lumo = w.rfind("lumo", 0) == 0;
  if (!homo && !lumo) {
    const long index = number(which, "");
    if (index < 1 || index > long(candidates.size()))
      throw InputError({molden.path, "--mo", -1},
                       "orbital " + which + " is not in the file (it has " +
                           std::to_string(candidates.size()) + channel + " orbitals)");
    return candidates[std::size_t(index - 1)];
  }
  long level = 0;
  if (w.size() > 4) {
    if (w[4] != (homo ? '-' : '+'))
      throw InputError(
          {molden.path, "--mo", -1},
          std::string("expected ") + (homo ? "homo-K" : "lumo+K") + ", found '" + which + "'");
    level = number(w.substr(5), "");
  }
  const std::string spin_used = spin.empty() ? "Alpha" : spin;
  std::vector<int> levels;  // occupied ones from the top, or empty ones from the bottom
  for (int i : candidates) {
    const MolecularOrbital& mo = molden.orbitals[std::size_t(i)];
    if (lower(mo.spin) == lower(spin_used) && (mo.occupation > 0) == homo) levels.push_back(i);
  }
  std::stable_sort(levels.begin(), levels.end(), [&](int a, int b) {
    const double ea = molden.orbitals[std::size_t(a)].energy,
                 eb = molden.orbitals[std::size_t(b)].energy;
    return homo ? ea > eb : ea < eb;
  });
  if (level >= long(levels.size()))
    throw InputError({molden.path, "--mo", -1},
                     "no " + which + ": the file has " + std::to_string(levels.size()) + " " +
                         (homo ? "occupied" : "empty") + " " + spin_used + " orbitals");
  return levels[std::size_t(level)];
}

}  // namespace kmol
