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

  // slots[t] for the pair of squared distance squared[t]; a negative square never counts. Spare
  // slots start at `spare`.
  KMOL_INLINE void fill(const T* __restrict squared, std::int32_t* __restrict slots, std::int32_t n,
            std::int32_t spare) const {
    if (fast)
      fill_with_one_edge_test(squared, slots, n, spare);
    else
      fill_with_bin_of(squared, slots, n, spare);
  }

 private:
  // The rule itself: a negative square has a NaN root, which bin_of drops.
  KMOL_INLINE void fill_with_bin_of(const T* __restrict squared, std::int32_t* __restrict slots,
                                    std::int32_t n, std::int32_t spare) const {
    const HistogramRange<T> bins = range;  // a local copy, so that the loop vectorises
    for (std::int32_t t = 0; t < n; ++t) {
      const std::int32_t bin = bins.bin_of(math::sqrt(squared[t]));
      // As unsigned, bin_of's -1 exceeds every slot, so a pair out of range gets the spare one.
      slots[t] = std::int32_t(
          math::min(std::uint32_t(bin), std::uint32_t(spare + (t & (spare_slots - 1)))));
    }
  }

  // Half bin_of's operations, same bins.
  KMOL_INLINE void fill_with_one_edge_test(const T* __restrict squared, std::int32_t* __restrict slots,
                                                       std::int32_t n, std::int32_t spare) const {
    const HistogramRange<T> bins = range;
    const T low = r2_low, high = r2_high;
    const std::int32_t last = bins.n_bins - 1;
    for (std::int32_t t = 0; t < n; ++t) {
      const T r2 = squared[t];
      const std::int32_t bin =
          fast_binning::fast_bin_plus_magic(bins, math::sqrt(r2)) - fast_binning::magic_bits<T>;
      slots[t] = r2 >= low && r2 < high ? math::min(bin, last) : spare + (t & (spare_slots - 1));
    }
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
