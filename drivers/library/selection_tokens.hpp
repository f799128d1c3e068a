#pragma once
// The words of a selection and the values after a keyword, for the selection parser.
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace kmol {

struct Token {
  std::string text;     // without its quotes
  std::size_t at = 0;   // offset in the selection text
  bool quoted = false;  // '...' or "...": a value, matched literally
};

class Tokens {
 public:
  // Splits at white space and parentheses; quotes keep a value whole. An unclosed quote fails.
  Tokens(const std::string& text, const std::string& option);

  bool done() const { return position_ >= tokens_.size(); }
  const Token& peek() const { return tokens_[position_]; }
  Token next() { return tokens_[position_++]; }
  // The offset of the next token, or the end of the text.
  std::size_t here() const { return done() ? text_.size() : peek().at; }
  // Whether the next token is this unquoted word (or parenthesis).
  bool at_word(const char* word) const;

  // The values after `keyword`, up to the next keyword or parenthesis; at least one.
  std::vector<Token> values(const Token& keyword);
  // Integer values as closed ranges: "5", "1:10", "1-10", "1 to 10", negatives allowed.
  std::vector<std::pair<long long, long long>> ranges(const std::vector<Token>& values) const;

  // InputError naming the option, with the text and a caret under `at`.
  [[noreturn]] void fail(std::size_t at, const std::string& what) const;

 private:
  std::string text_, option_;
  std::vector<Token> tokens_;
  std::size_t position_ = 0;
};

}  // namespace kmol
