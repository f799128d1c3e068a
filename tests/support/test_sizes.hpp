#pragma once
// Problem sizes of the tests that need large ones to reach what they check (counts beyond 2^32,
// sets above the Morton-order threshold, a thousand MD steps). compute-sanitizer runs kernels
// 100-1,000 times slower, so `kmol_tests --kmol_sizes=sanitizer` runs those tests through the
// same kernels and code paths at sizes the tools finish in minutes; each test says what it keeps.
#include <string_view>

namespace kmol::test {

enum class Sizes { full, sanitizer };

inline Sizes& sizes() {
  static Sizes chosen = Sizes::full;
  return chosen;
}

template <class T>
T sized(T full, T under_sanitizer) {
  return sizes() == Sizes::sanitizer ? under_sanitizer : full;
}

// Takes `--kmol_sizes=full|sanitizer` out of the arguments gtest left; false on a bad value.
inline bool parse_sizes_flag(int& argc, char** argv) {
  constexpr std::string_view flag = "--kmol_sizes=";
  int kept = 1;
  bool ok = true;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg.substr(0, flag.size()) != flag) {
      argv[kept++] = argv[i];
      continue;
    }
    const std::string_view value = arg.substr(flag.size());
    if (value == "full")
      sizes() = Sizes::full;
    else if (value == "sanitizer")
      sizes() = Sizes::sanitizer;
    else
      ok = false;
  }
  argc = kept;
  return ok;
}

}  // namespace kmol::test
