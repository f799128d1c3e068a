#pragma once
// Bins as counter slots, for CPU kernels that increment one counter for every pair they examine
// rather than branch on whether it counts: a pair in [r_min, r_max) gets its bin; any other pair
// one of spare_slots counters just past the bins, which are never read, taken in turn so that runs
// of dropped pairs do not queue on one counter.
#include <cstdint>
#include <cstring>

#include "kernels/pair_histogram/binning.hpp"
#include "kernels/pair_histogram/fast_binning.hpp"

namespace kmol {

inline constexpr std::int32_t spare_slots = 8;

// The binning rule on squared distances: range.bin_of of the correctly rounded root, or, where
// fast_binning proves it the same (fast), its single edge test after a range test on r^2.
template <class T>
struct SlotRule {
  HistogramRange<T> range;
  bool fast = false;
  T r2_low = 0, r2_high = 0;  // squared thresholds of r_min and r_max where fast

  static SlotRule make(const HistogramRange<T>& range) {
    const bool fast = fast_binning::fast_kernel_exact(range);
    return {range, fast, fast ? fast_binning::square_threshold(range.r_min) : T(0),
            fast ? fast_binning::square_threshold(range.r_max) : T(0)};
  }

  // Where fast: whether a pair of squared distance r2 counts, and its bin from a correctly
  // rounded root of it (devices take fast_binning::fast_root).
  KMOL_INLINE bool counts_fast(T r2) const { return r2 >= r2_low && r2 < r2_high; }
  KMOL_INLINE std::int32_t fast_bin(T root) const {
    return math::min(fast_binning::fast_bin_plus_magic(range, root) - fast_binning::magic_bits<T>,
                     range.n_bins - 1);
  }

  // slots[t] for the pair of squared distance squared[t]; a negative square never counts. Spare
  // slots start at `spare`.
  KMOL_INLINE void fill(const T* __restrict squared, std::int32_t* __restrict slots, std::int32_t n,
                        std::int32_t spare) const {
    const SlotRule rule = *this;  // a local copy, so that the loops vectorise
    if (fast)
      for (std::int32_t t = 0; t < n; ++t) {
        // Half bin_of's operations, same bins; computed for every pair, so that no branch is left.
        const T r2 = squared[t];
        const std::int32_t bin = rule.fast_bin(math::sqrt(r2));
        slots[t] = rule.counts_fast(r2) ? bin : spare_slot(spare, t);
      }
    else
      for (std::int32_t t = 0; t < n; ++t) {
        // The rule itself: a negative square has a NaN root, which bin_of drops. As unsigned,
        // bin_of's -1 exceeds every slot, so a pair out of range gets the spare one.
        const std::int32_t bin = rule.range.bin_of(math::sqrt(squared[t]));
        slots[t] = std::int32_t(math::min(std::uint32_t(bin), std::uint32_t(spare_slot(spare, t))));
      }
  }

 private:
  KMOL_INLINE static std::int32_t spare_slot(std::int32_t spare, std::int32_t t) {
    return spare + (t & (spare_slots - 1));
  }
};

// Adds one to counts[slots[t]] for t < n. Reads two slots per load: the loop is bound by memory
// operations, and this saves a quarter of them.
template <class Count>
void add_slots(const std::int32_t* __restrict slots, std::int32_t n, Count* __restrict counts) {
  std::int32_t t = 0;
#ifndef __CUDACC__  // nvcc, which compiles CPU kernels in CUDA builds, rejects GCC's pragma
#pragma GCC unroll 4
#endif
  for (; t + 1 < n; t += 2) {
    std::uint64_t two;
    std::memcpy(&two, slots + t, sizeof two);
    ++counts[std::uint32_t(two)];
    ++counts[two >> 32];
  }
  if (t < n) ++counts[slots[t]];
}

}  // namespace kmol
