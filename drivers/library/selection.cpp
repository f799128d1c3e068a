#include "drivers/library/selection.hpp"

#include <fnmatch.h>

#include <cstdlib>
#include <functional>

#include "kmol/core/errors.hpp"

namespace kmol {
namespace {

using Mask = std::vector<char>;

struct Token {
  std::string text;
  std::size_t at = 0;  // offset in the selection text
};

std::vector<Token> tokenize(const std::string& text) {
  std::vector<Token> tokens;
  std::size_t i = 0;
  while (i < text.size()) {
    if (std::isspace(static_cast<unsigned char>(text[i]))) {
      ++i;
    } else if (text[i] == '(' || text[i] == ')') {
      tokens.push_back({std::string(1, text[i]), i});
      ++i;
    } else {
      const std::size_t start = i;
      while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i])) &&
             text[i] != '(' && text[i] != ')')
        ++i;
      tokens.push_back({text.substr(start, i - start), start});
    }
  }
  return tokens;
}

bool is_keyword(const std::string& word) {
  for (const char* k :
       {"and", "or", "not", "all", "none", "index", "species", "name", "resname", "resid"})
    if (word == k) return true;
  return false;
}

// Recursive descent: expr := term (or term)*; term := factor (and factor)*;
// factor := not factor | ( expr ) | primary.
class Parser {
 public:
  Parser(const std::string& text, const AtomTable& atoms, const std::string& option)
      : text_(text), atoms_(atoms), option_(option), tokens_(tokenize(text)) {}

  Mask parse() {
    if (tokens_.empty()) fail(0, "empty selection (try 'all')");
    Mask m = expression();
    if (position_ < tokens_.size())
      fail(tokens_[position_].at,
           "expected 'and', 'or' or the end, found '" + tokens_[position_].text + "'");
    return m;
  }

 private:
  [[noreturn]] void fail(std::size_t at, const std::string& what) const {
    throw InputError({"", option_, -1},
                     what + "\n  " + text_ + "\n  " + std::string(at, ' ') + "^");
  }
  std::size_t end_offset() const { return text_.size(); }
  bool peek(const char* word) const {
    return position_ < tokens_.size() && tokens_[position_].text == word;
  }

  Mask expression() {
    Mask m = term();
    while (peek("or")) {
      ++position_;
      const Mask r = term();
      for (std::size_t i = 0; i < m.size(); ++i) m[i] = m[i] || r[i];
    }
    return m;
  }

  Mask term() {
    Mask m = factor();
    while (peek("and")) {
      ++position_;
      const Mask r = factor();
      for (std::size_t i = 0; i < m.size(); ++i) m[i] = m[i] && r[i];
    }
    return m;
  }

  Mask factor() {
    if (position_ >= tokens_.size())
      fail(end_offset(), "the selection ends where an atom property was expected");
    const Token& t = tokens_[position_];
    // Each 'not' and '(' recurses: a bound keeps absurd input from exhausting the stack.
    constexpr int deepest = 256;
    struct Level {
      int& depth;
      explicit Level(int& d) : depth(++d) {}
      ~Level() { --depth; }
    } level(depth_);
    if (depth_ > deepest)
      fail(t.at, "nested more than " + std::to_string(deepest) + " levels deep ('not' and '(')");
    if (t.text == "not") {
      ++position_;
      Mask m = factor();
      for (auto& v : m) v = !v;
      return m;
    }
    if (t.text == "(") {
      ++position_;
      Mask m = expression();
      if (!peek(")"))
        fail(position_ < tokens_.size() ? tokens_[position_].at : end_offset(), "expected ')'");
      ++position_;
      return m;
    }
    return primary();
  }

  // The values after a keyword, up to the next keyword or parenthesis.
  std::vector<Token> values(const Token& keyword) {
    std::vector<Token> v;
    while (position_ < tokens_.size() && tokens_[position_].text != "(" &&
           tokens_[position_].text != ")" && !is_keyword(tokens_[position_].text))
      v.push_back(tokens_[position_++]);
    if (v.empty())
      fail(position_ < tokens_.size() ? tokens_[position_].at : end_offset(),
           "expected a value after '" + keyword.text + "'");
    return v;
  }

  // "a" or "a:b" (inclusive) as a closed interval.
  std::pair<long long, long long> range(const Token& t) const {
    const std::size_t colon = t.text.find(':');
    auto number = [&](const std::string& s, std::size_t offset) {
      char* end = nullptr;
      const long long v = std::strtoll(s.c_str(), &end, 10);
      if (s.empty() || *end != '\0') fail(t.at + offset, "expected an integer, found '" + s + "'");
      return v;
    };
    if (colon == std::string::npos) {
      const long long v = number(t.text, 0);
      return {v, v};
    }
    const long long a = number(t.text.substr(0, colon), 0),
                    b = number(t.text.substr(colon + 1), colon + 1);
    if (b < a) fail(t.at, "empty range " + t.text + " (a:b includes both ends, a <= b)");
    return {a, b};
  }

  template <class V>
  const std::vector<V>& need(const std::vector<V>& property, const Token& keyword,
                             const char* source) const {
    if (property.empty())
      fail(keyword.at, "the trajectory has no " + keyword.text + "s; " + source);
    return property;
  }

  Mask primary() {
    const Token keyword = tokens_[position_++];
    const std::size_t n = std::size_t(atoms_.n_atoms);
    Mask m(n, 0);
    const std::string& k = keyword.text;
    if (k == "all" || k == "none") {
      std::fill(m.begin(), m.end(), k == "all");
    } else if (k == "index" || k == "resid") {
      const auto ranges = values(keyword);
      for (const auto& t : ranges) {
        const auto [a, b] = range(t);
        if (k == "index") {
          for (long long i = std::max(a, 0LL); i <= b && i < (long long)n; ++i) m[i] = 1;
        } else {
          const auto& resids =
              need(atoms_.resids, keyword, "give a topology with --top (TPR, PDB, GRO or PQR)");
          for (std::size_t i = 0; i < n; ++i) m[i] = m[i] || (resids[i] >= a && resids[i] <= b);
        }
      }
    } else if (k == "species") {
      const auto& species =
          need(atoms_.species, keyword, "the H5MD file has no particles/<group>/species");
      for (const auto& t : values(keyword)) {
        std::vector<char> wanted;
        char* end = nullptr;
        const long long s = std::strtoll(t.text.c_str(), &end, 10);
        if (*end == '\0') {
          for (std::size_t i = 0; i < n; ++i) m[i] = m[i] || species[i] == s;
          continue;
        }
        if (atoms_.species_names.empty())
          fail(t.at, "the file names no species: select species by number");
        bool known = false;
        for (std::size_t s2 = 0; s2 < atoms_.species_names.size(); ++s2) {
          if (fnmatch(t.text.c_str(), atoms_.species_names[s2].c_str(), 0) != 0) continue;
          known = true;
          for (std::size_t i = 0; i < n; ++i) m[i] = m[i] || species[i] == std::int32_t(s2);
        }
        if (!known) fail(t.at, "no species named '" + t.text + "'");
      }
    } else if (k == "name" || k == "resname") {
      const auto& labels = need(k == "name" ? atoms_.names : atoms_.resnames, keyword,
                                "give a topology with --top (TPR, PDB, GRO or PQR)");
      for (const auto& t : values(keyword))
        for (std::size_t i = 0; i < n; ++i)
          m[i] = m[i] || fnmatch(t.text.c_str(), labels[i].c_str(), 0) == 0;
    } else if (k == ")" || k == "and" || k == "or") {
      fail(keyword.at, "unexpected '" + k + "'");
    } else {
      fail(keyword.at,
           "unknown keyword '" + k +
               "' (expected all, none, index, species, name, resname, resid, not or '(')");
    }
    return m;
  }

  const std::string& text_;
  const AtomTable& atoms_;
  const std::string& option_;
  std::vector<Token> tokens_;
  std::size_t position_ = 0;
  int depth_ = 0;  // nesting of the factor being parsed
};

}  // namespace

std::vector<std::int64_t> select_atoms(const std::string& text, const AtomTable& atoms,
                                       const std::string& option) {
  const Mask m = Parser(text, atoms, option).parse();
  std::vector<std::int64_t> selected;
  for (std::size_t i = 0; i < m.size(); ++i)
    if (m[i]) selected.push_back(std::int64_t(i));
  return selected;
}

std::vector<std::int64_t> selected_atoms(const std::string& text, const AtomTable& atoms,
                                         const std::string& option) {
  std::vector<std::int64_t> indices = select_atoms(text, atoms, option);
  if (indices.empty()) throw InputError({"", option, -1}, "'" + text + "' selects no atoms");
  return indices;
}

}  // namespace kmol
