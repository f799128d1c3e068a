#pragma once
// What the raw CUDA pair-histogram kernels and their launch tuner agree on: atoms packed to four
// coordinates, B atoms per thread, the shared-memory layout of a block's window and the largest
// block. For .cu units only (no Kokkos).
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "kmol/core/box.hpp"

namespace kmol::pair_cuda {

constexpr int kWarp = 32;
constexpr std::size_t kConstantBytes = 64 * 1024;  // the __constant__ bank a unit may fill

// Which kernel bins the pairs: the fast one (no labels, and a range for which fast_kernel_exact
// proves its shortcuts exact) or the generic one (labels, any range).
enum class Binning { fast, generic };
// Where a block counts: a window in shared memory; the same binned against a table of squared
// edges kept in shared memory (the fast float kernel); or device memory, with 64-bit atomics.
enum class Counters { shared, table, device };

inline std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

// B atoms each thread holds in registers: eight amortise the constant loads and the warp vote
// best, while the register-hungry triclinic and double arithmetic run faster with four.
template <class T, class Box>
__host__ __device__ constexpr int atoms_per_thread() {
  return sizeof(T) == sizeof(float) && !std::is_same_v<Box, TriclinicBox<T>> ? 8 : 4;
}

// An atom padded to four coordinates, so that it loads in 64-bit (constant) or 128-bit words.
template <class T>
struct alignas(4 * sizeof(T)) Packed {
  T x, y, z, w;
};

// Float shared memory before the table kernel's counters: the window's squared edges (and the
// spare lanes' infinite ones) sit below this, the counters at the same index above it, so that
// a counter's address is its edge's plus a constant the shared atomic encodes.
constexpr int kTableSlots = 12288;

// Shared memory of a block: the window's counters, each at index bin - window_begin + shift, with
// shift 0, or 1 in the table kernel (whose guesses start a bin before the window); one more for
// the arithmetic bins' k = n_bins (bin_of clamps it to the last bin); then one spare counter per
// lane from index window + 2, each on its own bank (never read, so free to wrap), and one for a
// spare lane's infinite r2 that reaches its infinite edge. The table kernel keeps the squared
// edges (the spare lanes' infinite) below its counters, at the same indices.
constexpr int kSpareBegin = 2;  // window_size + this: lane 0's spare counter

inline std::size_t shared_bytes(std::int64_t window, bool table) {
  const std::size_t counters =
      std::size_t(window + kSpareBegin + kWarp + 1) * sizeof(std::uint32_t);
  return table ? kTableSlots * sizeof(float) + counters : counters;
}

// Double needs more registers than 1024 threads per block would leave it.
template <class T>
constexpr int kMaxBlock = sizeof(T) == sizeof(float) ? 1024 : 512;

}  // namespace kmol::pair_cuda
