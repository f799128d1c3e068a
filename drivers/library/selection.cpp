#include "drivers/library/selection.hpp"

#include <fnmatch.h>
#include <strings.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <functional>

#include "drivers/library/residue_classes.hpp"
#include "drivers/library/selection_tokens.hpp"
#include "kmol/core/errors.hpp"

namespace kmol {

// A parsed piece of a selection: its mask, for a frame where it depends on positions.
struct SelectionNode {
  bool per_frame = false;
  std::function<SelectionMask(const SelectionFrame*)> mask;
};

namespace {

using Node = std::shared_ptr<const SelectionNode>;

Node constant(SelectionMask m) {
  auto n = std::make_shared<SelectionNode>();
  n->mask = [m = std::move(m)](const SelectionFrame*) { return m; };
  return n;
}

// Combines two nodes atom by atom; constant when both are.
Node combined(Node a, Node b, bool both) {
  auto n = std::make_shared<SelectionNode>();
  n->per_frame = a->per_frame || b->per_frame;
  n->mask = [a, b, both](const SelectionFrame* f) {
    SelectionMask m = a->mask(f);
    const SelectionMask r = b->mask(f);
    for (std::size_t i = 0; i < m.size(); ++i) m[i] = both ? (m[i] && r[i]) : (m[i] || r[i]);
    return m;
  };
  return n->per_frame ? Node(n) : constant(n->mask(nullptr));
}

Node negated(Node a) {
  auto n = std::make_shared<SelectionNode>();
  n->per_frame = a->per_frame;
  n->mask = [a](const SelectionFrame* f) {
    SelectionMask m = a->mask(f);
    for (auto& v : m) v = !v;
    return m;
  };
  return n->per_frame ? Node(n) : constant(n->mask(nullptr));
}

// The atoms within `radius` of the reference's atoms (minimum image), the reference left out.
SelectionMask around_mask(const SelectionMask& reference, double radius, const SelectionFrame& f) {
  const std::size_t n = reference.size();
  std::vector<Vec3<double>> centres;
  for (std::size_t j = 0; j < n; ++j)
    if (reference[j]) centres.push_back(f.positions[j]);
  SelectionMask m(n, 0);
  const double r2 = radius * radius;
  visit_box<double>(f.box, [&](const auto& box) {
    for (std::size_t i = 0; i < n; ++i) {
      if (reference[i]) continue;
      for (const Vec3<double>& c : centres)
        if (norm2(box.minimum_image(f.positions[i] - c)) <= r2) {
          m[i] = 1;
          break;
        }
    }
  });
  return m;
}

Node around(Node reference, double radius, const std::string& option) {
  auto n = std::make_shared<SelectionNode>();
  n->per_frame = true;
  n->mask = [reference, radius, option](const SelectionFrame* f) {
    if (!f)
      throw InputError({"", option, -1},
                       "'around' selects by position, frame by frame, and this option takes a "
                       "selection fixed for the whole run");
    return around_mask(reference->mask(f), radius, *f);
  };
  return n;
}

// Element symbols match in any case ("Na", "NA", "na"): files write them either way.
bool matches(const Token& value, const std::string& label, bool any_case = false) {
  if (!value.quoted)
    return fnmatch(value.text.c_str(), label.c_str(), any_case ? FNM_CASEFOLD : 0) == 0;
  return any_case ? strcasecmp(value.text.c_str(), label.c_str()) == 0 : value.text == label;
}

// Recursive descent: expr := term (or term)*; term := factor (and factor)*;
// factor := not factor | around R factor | ( expr ) | primary.
class Parser {
 public:
  Parser(const std::string& text, const AtomTable& atoms, const std::string& option)
      : tokens_(text, option), atoms_(atoms), option_(option) {}

  Node parse() {
    if (tokens_.done()) tokens_.fail(0, "empty selection (try 'all')");
    Node m = expression();
    if (!tokens_.done())
      tokens_.fail(tokens_.here(),
                   "expected 'and', 'or' or the end, found '" + tokens_.peek().text + "'");
    return m;
  }

 private:
  // 'and' binds tighter than 'or': an expression is terms joined by 'or', a term factors joined
  // by 'and', each joined from the left.
  Node expression() { return joined("or", &Parser::term, false); }
  Node term() { return joined("and", &Parser::factor, true); }

  Node joined(const char* word, Node (Parser::*operand)(), bool conjunction) {
    Node m = (this->*operand)();
    while (tokens_.at_word(word)) {
      tokens_.next();
      m = combined(m, (this->*operand)(), conjunction);
    }
    return m;
  }

  Node factor() {
    if (tokens_.done())
      tokens_.fail(tokens_.here(), "the selection ends where an atom property was expected");
    const Token t = tokens_.peek();
    // Each 'not', 'around' and '(' recurses: a bound keeps absurd input from exhausting the stack.
    constexpr int deepest = 256;
    struct Level {
      int& depth;
      explicit Level(int& d) : depth(++d) {}
      ~Level() { --depth; }
    } level(depth_);
    if (depth_ > deepest)
      tokens_.fail(t.at, "nested more than " + std::to_string(deepest) +
                             " levels deep ('not', 'around' and '(')");
    if (tokens_.at_word("not")) {
      tokens_.next();
      return negated(factor());
    }
    if (tokens_.at_word("around")) {
      tokens_.next();
      const double radius = distance(t);
      return around(factor(), radius, option_);
    }
    if (tokens_.at_word("(")) {
      tokens_.next();
      Node m = expression();
      if (!tokens_.at_word(")")) tokens_.fail(tokens_.here(), "expected ')'");
      tokens_.next();
      return m;
    }
    return primary();
  }

  // The radius after 'around': a non-negative number of Angstrom.
  double distance(const Token& keyword) {
    if (tokens_.done() || tokens_.peek().quoted)
      tokens_.fail(tokens_.here(), "expected a distance in Angstrom after 'around'");
    const Token t = tokens_.next();
    char* end = nullptr;
    const double r = std::strtod(t.text.c_str(), &end);
    if (*end != '\0' || !(r >= 0) || !std::isfinite(r))
      tokens_.fail(t.at, "expected a distance in Angstrom after '" + keyword.text + "', found '" +
                             t.text + "'");
    return r;
  }

  template <class V>
  const std::vector<V>& need(const std::vector<V>& property, const Token& keyword,
                             const std::string& source) const {
    if (property.empty())
      tokens_.fail(keyword.at, "the files give no " + keyword.text +
                                   (keyword.text == "species" ? "" : "s") + "; " + source);
    return property;
  }

  // Every atom whose label matches one of the values.
  SelectionMask labelled(const std::vector<std::string>& labels, const std::vector<Token>& values,
                         bool any_case) {
    SelectionMask m(labels.size(), 0);
    for (const Token& v : values)
      for (std::size_t i = 0; i < labels.size(); ++i)
        m[i] = m[i] || matches(v, labels[i], any_case);
    return m;
  }

  SelectionMask indices(const std::vector<Token>& values) {
    const auto n = std::int64_t(atoms_.n_atoms);
    SelectionMask m(std::size_t(n), 0);
    for (const auto& [a, b] : tokens_.ranges(values))
      for (long long i = std::max(a, 0LL); i <= b && i < n; ++i) m[std::size_t(i)] = 1;
    return m;
  }

  SelectionMask residue_numbers(const Token& keyword, const std::vector<Token>& values) {
    const auto& resids = need(atoms_.resids, keyword, topology_hint);
    SelectionMask m(resids.size(), 0);
    for (const auto& [a, b] : tokens_.ranges(values))
      for (std::size_t i = 0; i < resids.size(); ++i)
        m[i] = m[i] || (resids[i] >= a && resids[i] <= b);
    return m;
  }

  SelectionMask species(const Token& keyword, const std::vector<Token>& values) {
    const auto& species =
        need(atoms_.species, keyword,
             "the H5MD file has no particles/<group>/species and the topology no atom types");
    SelectionMask m(species.size(), 0);
    for (const Token& t : values) {
      char* end = nullptr;
      const long long s = std::strtoll(t.text.c_str(), &end, 10);
      if (!t.quoted && !t.text.empty() && *end == '\0') {
        for (std::size_t i = 0; i < species.size(); ++i) m[i] = m[i] || species[i] == s;
        continue;
      }
      if (atoms_.species_names.empty())
        tokens_.fail(t.at, "the file names no species: select species by number");
      bool known = false;
      for (std::size_t s2 = 0; s2 < atoms_.species_names.size(); ++s2) {
        if (!matches(t, atoms_.species_names[s2])) continue;
        known = true;
        for (std::size_t i = 0; i < species.size(); ++i)
          m[i] = m[i] || species[i] == std::int32_t(s2);
      }
      if (!known) tokens_.fail(t.at, "no species named '" + t.text + "'");
    }
    return m;
  }

  SelectionMask residue_class(const Token& keyword, bool (*in_class)(const std::string&)) {
    const auto& resnames = need(atoms_.resnames, keyword, topology_hint);
    SelectionMask m(resnames.size(), 0);
    for (std::size_t i = 0; i < m.size(); ++i) m[i] = in_class(resnames[i]);
    return m;
  }

  Node primary() {
    const Token keyword = tokens_.next();
    const std::string& k = keyword.text;
    const std::size_t n = std::size_t(atoms_.n_atoms);
    if (!keyword.quoted) {
      if (k == "all" || k == "none") return constant(SelectionMask(n, k == "all"));
      if (k == "protein") return constant(residue_class(keyword, is_protein_residue));
      if (k == "water") return constant(residue_class(keyword, is_water_residue));
      if (k == "index") return constant(indices(tokens_.values(keyword)));
      if (k == "resid" || k == "resnum")
        return constant(residue_numbers(keyword, tokens_.values(keyword)));
      if (k == "species") return constant(species(keyword, tokens_.values(keyword)));
      if (const auto* labels = labels_of(keyword))
        return constant(labelled(*labels, tokens_.values(keyword), k == "element"));
      if (k == ")" || k == "and" || k == "or" || k == "to")
        tokens_.fail(keyword.at, "unexpected '" + k + "'");
    }
    tokens_.fail(keyword.at, "unknown keyword '" + k +
                                 "' (expected all, none, index, species, name, resname, resid, "
                                 "resnum, type, element, chain, segid, protein, water, around, "
                                 "not or '(')");
  }

  // The per-atom labels a string keyword selects by, or null for another keyword.
  const std::vector<std::string>* labels_of(const Token& keyword) const {
    const std::string& k = keyword.text;
    if (k == "name") return &need(atoms_.names, keyword, topology_hint);
    if (k == "resname") return &need(atoms_.resnames, keyword, topology_hint);
    if (k == "type")
      return &need(atoms_.types, keyword, "atom types come from a GROMACS TPR given with --top");
    if (k == "element") return &need(atoms_.elements, keyword, topology_hint);
    if (k == "chain") return &need(atoms_.chains, keyword, topology_hint);
    if (k == "segid")
      return &need(atoms_.segids, keyword,
                   "segment ids come from columns 73-76 of a PDB given with --top (try chain)");
    return nullptr;
  }

  static constexpr const char* topology_hint = "give a topology with --top (TPR, PDB, GRO or PQR)";

  Tokens tokens_;
  const AtomTable& atoms_;
  const std::string& option_;
  int depth_ = 0;  // nesting of the factor being parsed
};

std::vector<std::int64_t> indices_of(const SelectionMask& m) {
  std::vector<std::int64_t> selected;
  for (std::size_t i = 0; i < m.size(); ++i)
    if (m[i]) selected.push_back(std::int64_t(i));
  return selected;
}

}  // namespace

Selection::Selection(const std::string& text, const AtomTable& atoms, const std::string& option)
    : text_(text), option_(option), table_(&atoms), root_(Parser(text, atoms, option).parse()) {}

bool Selection::per_frame() const { return root_->per_frame; }

std::vector<std::int64_t> Selection::atoms() const { return indices_of(root_->mask(nullptr)); }

std::vector<std::int64_t> Selection::atoms(const SelectionFrame& frame) const {
  return indices_of(root_->mask(&frame));
}

std::vector<std::int64_t> select_atoms(const std::string& text, const AtomTable& atoms,
                                       const std::string& option) {
  return Selection(text, atoms, option).atoms();
}

std::vector<std::int64_t> selected_atoms(const std::string& text, const AtomTable& atoms,
                                         const std::string& option) {
  std::vector<std::int64_t> indices = select_atoms(text, atoms, option);
  if (indices.empty())
    throw InputError({"", option, -1},
                     "'" + text + "' selects no atoms; " + labels_that_exist(atoms));
  return indices;
}

}  // namespace kmol
