#pragma once
// Numbers quoted in messages.
#include <cstdio>
#include <string>

namespace kmol {

// `x` to `digits` significant digits ("9.1e+26"): a count or length quoted in a message.
inline std::string significant(double x, int digits = 3) {
  char text[32];
  std::snprintf(text, sizeof text, "%.*g", digits, x);
  return text;
}

}  // namespace kmol
