#pragma once
#include <stdexcept>
#include <string>

namespace kmol {

// Where bad input came from: any part may be empty.
struct ErrorContext {
  std::string file;
  std::string field;  // dataset, option or column name
  long line = -1;     // line, frame or atom index, whichever the field counts
};

// Input the user can fix: the message names the file, the field and what was expected.
class InputError : public std::runtime_error {
 public:
  InputError(const ErrorContext& where, const std::string& what);
  const ErrorContext& where() const noexcept { return where_; }

 private:
  ErrorContext where_;
};

// A request that no implementation can satisfy (box too small for the cutoff, say).
class UnsupportedError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace kmol
