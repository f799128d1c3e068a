#pragma once
// A team histogram's 32-bit counters addressed by 32-bit handles, so that a GPU thread finds a
// pair's counter with 32-bit integer arithmetic and counts it with one shared-memory reduction.
// On CUDA devices a handle is the counter's shared-memory address (converted from the generic
// scratch pointer once per team, not once per count); elsewhere it is a byte offset, so the same
// code runs on every backend. The raw CUDA kernel addresses its counters the same way.
#include <cstdint>

#include "kernels/pair_histogram/fast_binning.hpp"

namespace kmol {

class TeamCounterHandles {
 public:
  KMOL_INLINE explicit TeamCounterHandles(std::uint32_t* first) : first_(first) {
#ifdef __CUDA_ARCH__
    origin_ = std::uint32_t(__cvta_generic_to_shared(first));
#endif
  }
  KMOL_INLINE std::uint32_t of(std::uint32_t index) const { return origin_ + 4 * index; }

  // Unconditional: a thread whose pair does not count adds to a spare counter instead, which
  // costs less than the branch a predicated shared reduction compiles to.
  KMOL_INLINE void add_one(std::uint32_t handle) const {
#ifdef __CUDA_ARCH__
    asm volatile("red.shared.add.u32 [%0], 1;" : : "r"(handle));
#else
    __atomic_fetch_add(first_ + (handle - origin_) / 4, 1u, __ATOMIC_RELAXED);
#endif
  }

 private:
  std::uint32_t* first_;
  std::uint32_t origin_ = 0;
};

// The handle of bin fast_bin_plus_magic(range, fast_root(r2)) - magic_bits (fast_binning.hpp),
// step for step, given `magic_base`: the handle of the window's first counter less
// 4 (magic_bits + the window's first bin), wrapping modulo 2^32; the options are fast_binning's.
template <fast_binning::Offset O = fast_binning::Offset::from_r_min,
          fast_binning::Roots R = fast_binning::Roots::clamped, class T>
KMOL_INLINE std::uint32_t fast_counter(const HistogramRange<T>& range, std::uint32_t magic_base,
                                       T r2) {
  const T r = fast_binning::fast_root<R>(r2);
  const T offset = O == fast_binning::Offset::from_zero ? r : r - range.r_min;
  const T m = fast_binning::floor_plus_magic(math::fma(offset, range.inverse_width, T(-0.5)));
  const T next_edge = math::fma(fast_binning::floor_plus_one(m), range.width, range.r_min);
  return fast_binning::next_handle_if(magic_base + 4 * std::uint32_t(fast_binning::low_bits(m)), r,
                                      next_edge);
}

}  // namespace kmol
