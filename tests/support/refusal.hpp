#pragma once
// The message of the error a call is refused with, for tests that check what a refusal says:
// refusal<UnsupportedError>(f) for another kind than InputError; "accepted" when f throws nothing.
// An error of another kind propagates and fails the test.
#include <string>

#include "kmol/core/errors.hpp"

namespace kmol::test {

template <class Error = InputError, class F>
std::string refusal(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "accepted";
}

}  // namespace kmol::test
