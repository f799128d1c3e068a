#include <gtest/gtest.h>

#include "kmol/core/counters.hpp"

TEST(FlushBudget, AsksForAFlushBeforeA32BitCountCouldWrap) {
  kmol::FlushBudget budget;
  budget.take(0xFFFFFFF0ull);
  EXPECT_FALSE(budget.needs_flush_before(0xF));
  EXPECT_TRUE(budget.needs_flush_before(0x10));
  budget.flushed();
  EXPECT_FALSE(budget.needs_flush_before(0xFFFFFFFFull));
  EXPECT_TRUE(budget.needs_flush_before(0x100000000ull));
}
