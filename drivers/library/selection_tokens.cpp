#include "drivers/library/selection_tokens.hpp"

#include <cctype>
#include <cstdlib>

#include "kmol/core/errors.hpp"

namespace kmol {
namespace {

bool is_keyword(const std::string& word) {
  for (const char* k :
       {"and", "or", "not", "all", "none", "index", "species", "name", "resname", "resid", "resnum",
        "type", "element", "chain", "segid", "protein", "water", "around"})
    if (word == k) return true;
  return false;
}

bool separates(char c) {
  return std::isspace(static_cast<unsigned char>(c)) || c == '(' || c == ')';
}

}  // namespace

Tokens::Tokens(const std::string& text, const std::string& option) : text_(text), option_(option) {
  std::size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else if (c == '(' || c == ')') {
      tokens_.push_back({std::string(1, c), i, false});
      ++i;
    } else if (c == '"' || c == '\'') {
      const std::size_t close = text.find(c, i + 1);
      if (close == std::string::npos) fail(i, std::string("this quote (") + c + ") is not closed");
      tokens_.push_back({text.substr(i + 1, close - i - 1), i, true});
      i = close + 1;
    } else {
      const std::size_t start = i;
      while (i < text.size() && !separates(text[i])) ++i;
      tokens_.push_back({text.substr(start, i - start), start, false});
    }
  }
}

bool Tokens::at_word(const char* word) const {
  return !done() && !peek().quoted && peek().text == word;
}

std::vector<Token> Tokens::values(const Token& keyword) {
  std::vector<Token> v;
  while (!done() && (peek().quoted || (!at_word("(") && !at_word(")") && !is_keyword(peek().text))))
    v.push_back(next());
  if (v.empty()) fail(here(), "expected a value after '" + keyword.text + "'");
  return v;
}

namespace {

// "-12" and "7" as integers; false for anything else.
bool integer(const std::string& s, long long& v) {
  if (s.empty()) return false;
  char* end = nullptr;
  v = std::strtoll(s.c_str(), &end, 10);
  return *end == '\0' && (std::isdigit(static_cast<unsigned char>(s.back())));
}

}  // namespace

std::vector<std::pair<long long, long long>> Tokens::ranges(
    const std::vector<Token>& values) const {
  std::vector<std::pair<long long, long long>> out;
  for (std::size_t k = 0; k < values.size(); ++k) {
    const Token& t = values[k];
    long long a = 0, b = 0;
    if (t.text == "to" && !t.quoted) {
      if (out.empty() || out.back().first != out.back().second || k + 1 == values.size() ||
          !integer(values[k + 1].text, b))
        fail(t.at, "'to' goes between two integers: resid 1 to 10");
      out.back().second = b;
      if (b < out.back().first) fail(t.at, "empty range (a to b includes both ends, a <= b)");
      ++k;
      continue;
    }
    // The separator is the first ':' or the first '-' after a digit ("-3-5": from -3 to 5).
    std::size_t split = t.text.find(':');
    if (split == std::string::npos) {
      split = t.text.find('-', 1);
      if (split != std::string::npos &&
          !std::isdigit(static_cast<unsigned char>(t.text[split - 1])))
        split = std::string::npos;
    }
    if (split == std::string::npos) {
      if (!integer(t.text, a))
        fail(t.at, "expected an integer or a range a-b, found '" + t.text + "'");
      out.emplace_back(a, a);
      continue;
    }
    if (!integer(t.text.substr(0, split), a))
      fail(t.at, "expected an integer, found '" + t.text.substr(0, split) + "'");
    if (!integer(t.text.substr(split + 1), b))
      fail(t.at + split + 1, "expected an integer, found '" + t.text.substr(split + 1) + "'");
    if (b < a) fail(t.at, "empty range " + t.text + " (ranges include both ends, a <= b)");
    out.emplace_back(a, b);
  }
  return out;
}

void Tokens::fail(std::size_t at, const std::string& what) const {
  throw InputError({"", option_, -1}, what + "\n  " + text_ + "\n  " + std::string(at, ' ') + "^");
}

}  // namespace kmol
