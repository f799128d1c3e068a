#include <gtest/gtest.h>

#include <cstdio>

#include "kmol/core/runtime.hpp"
#include "support/test_sizes.hpp"

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  if (!kmol::test::parse_sizes_flag(argc, argv)) {
    std::fprintf(stderr, "kmol_tests: --kmol_sizes takes full or sanitizer\n");
    return 2;
  }
  kmol::Runtime runtime;
  return RUN_ALL_TESTS();
}
