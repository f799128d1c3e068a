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

// Adds one to a 32-bit counter in team scratch, shared by the team's threads. On CUDA devices the
// compiler cannot tell that a scratch pointer is shared memory and would emit a generic atomic,
// several times slower than the shared-memory reduction used here.
KMOL_INLINE void add_one_to_team_counter(std::uint32_t* counter) {
#ifdef __CUDA_ARCH__
  asm volatile("red.shared.add.u32 [%0], 1;"
               :
               : "r"(std::uint32_t(__cvta_generic_to_shared(counter))));
#else
  __atomic_fetch_add(counter, 1u, __ATOMIC_RELAXED);
#endif
}

}  // namespace kmol
