#include <gtest/gtest.h>

#include "kmol/core/runtime.hpp"

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  kmol::Runtime runtime;
  return RUN_ALL_TESTS();
}
