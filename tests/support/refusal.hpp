#pragma once
// The message of the error a call is refused with, for tests that check what a refusal says:
// refusal<UnsupportedError>(f) for another kind than InputError; "accepted" when f throws nothing.
// An error of another kind propagates and fails the test. refused_with(f, fragment) asserts the
// message holds the fragment, and shows the message where it does not.
#include <gtest/gtest.h>

#include <string>
#include <utility>

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

template <class Error = InputError, class F>
::testing::AssertionResult refused_with(F&& f, const std::string& fragment) {
  const std::string message = refusal<Error>(std::forward<F>(f));
  if (message.find(fragment) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << "refused with \"" << message << "\", expected \"" << fragment << "\"";
}

}  // namespace kmol::test
