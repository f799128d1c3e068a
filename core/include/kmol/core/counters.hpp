#pragma once
// Overflow-safe counting: fast 32-bit private counts (thread- or block-private histograms) that
// are flushed into exact 64-bit totals before any of them can wrap. A private count can grow by at
// most one per increment taken since the last flush, so tracking increments is enough.
#include <cstdint>

#include "kmol/core/portability.hpp"

namespace kmol {

inline constexpr std::uint64_t private_count_capacity = 0xFFFFFFFFull;

class FlushBudget {
 public:
  KMOL_INLINE explicit FlushBudget(std::uint64_t capacity = private_count_capacity)
      : capacity_(capacity) {}

  // True when `increments` more could wrap a private count: flush before taking them.
  KMOL_INLINE bool needs_flush_before(std::uint64_t increments) const {
    return used_ + increments > capacity_;
  }
  KMOL_INLINE void take(std::uint64_t increments) { used_ += increments; }
  KMOL_INLINE void flushed() { used_ = 0; }
  KMOL_INLINE std::uint64_t capacity() const { return capacity_; }

 private:
  std::uint64_t capacity_;
  std::uint64_t used_ = 0;
};

}  // namespace kmol
