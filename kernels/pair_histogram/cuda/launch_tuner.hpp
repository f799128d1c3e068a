#pragma once
// The launch tuner of the raw CUDA pair-histogram kernels: from the device's limits and the job,
// where a block counts (Counters), how many bins each sweep takes, the block size with the most
// threads resident, and the constant tile and work units. Host code of .cu units (no Kokkos).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "kernels/cuda_check.hpp"
#include "kernels/pair_histogram/cuda/kernel_shape.hpp"
#include "kernels/pair_histogram/fast_binning.hpp"
#include "kernels/pair_histogram/job.hpp"

namespace kmol::pair_cuda {

// Sweeps beyond which one pass counting in device memory is faster. Measured on an H200: a
// sweep of the fast kernel costs about 0.4 of a full pass (the warps skip pairs outside the
// window), one of the generic kernel a full pass, and device-memory counts about 9 passes.
constexpr std::int64_t kMaxSweepsFast = 16, kMaxSweepsGeneric = 4;
constexpr std::int64_t kUnitsPerBlock = 16;  // work units per block and tile: a short tail
constexpr int kMinSubTile = 64;              // A atoms per unit, enough to hide its setup

struct DeviceLimits {
  int multiprocessors = 0;
  std::size_t shared_per_block = 0;  // with opt-in
  std::size_t constant_bytes = 0;
};

inline DeviceLimits query_limits() {
  constexpr CudaCheck check{"CUDA pair histogram"};
  int id = 0, sms = 0, shared = 0, constant = 0;
  check(cudaGetDevice(&id), "cudaGetDevice");
  check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, id), "SM count");
  check(cudaDeviceGetAttribute(&shared, cudaDevAttrMaxSharedMemoryPerBlockOptin, id),
        "shared memory size");
  check(cudaDeviceGetAttribute(&constant, cudaDevAttrTotalConstantMemory, id),
        "constant memory size");
  return {sms, std::size_t(shared), std::size_t(constant)};
}

// The tuner's choice for one job.
struct Launch {
  Counters counters = Counters::shared;
  std::int64_t window = 0;  // flattened bins per sweep
  std::int64_t sweeps = 1;
  int block = 0, blocks_per_sm = 0, grid = 0;
  int atoms_per_thread = 0;    // of B
  int tile = 0, sub_tile = 0;  // A atoms per constant tile and per work unit
  bool shared() const { return counters != Counters::device; }
  bool table() const { return counters == Counters::table; }
};

[[noreturn]] inline void refuse(const std::string& why) {
  throw std::invalid_argument("CUDA pair histogram: forced launch: " + why);
}

template <class T>
bool table_kernel_exact(const HistogramRange<T>& range) {
  if constexpr (sizeof(T) == sizeof(float))
    return fast_binning::table_guess_exact(range);
  else
    return false;
}

// The fast float kernel bins against the edge table where its window fits (all bins in one sweep
// unless a window is forced); otherwise shared windows take as many bins as one block may hold.
// The block size keeps the most threads resident (ties: smaller blocks, so more window copies
// and finer balance); the sub-tile gives every block kUnitsPerBlock units per tile where the
// problem is large enough. Parameters in `forced` replace those choices (a forced window always
// counts in shared memory). kernel_for(counters) is the kernel that would count so.
template <class T, class Box, class KernelFor>
Launch tune(const DeviceLimits& device, Binning binning, const HistogramRange<T>& range,
            std::int64_t flat_bins, std::int64_t tile_atoms, std::int64_t b_atoms,
            const PairHistogramLaunchOverride& forced, KernelFor kernel_for) {
  constexpr CudaCheck check{"CUDA pair histogram"};
  const bool generic = binning == Binning::generic;
  Launch l;
  const std::int64_t max_window =
      std::int64_t(device.shared_per_block / sizeof(std::uint32_t)) - kSpareBegin - kWarp - 1;
  const std::int64_t table_window = std::min<std::int64_t>(kTableSlots - kSpareBegin - kWarp - 1,
                                                           max_window - std::int64_t(kTableSlots));
  if (forced.bins_per_sweep > max_window)
    refuse(std::to_string(forced.bins_per_sweep) + " bins per sweep exceed the " +
           std::to_string(max_window) + " a block's shared memory holds");
  const std::int64_t wanted = forced.bins_per_sweep > 0 ? forced.bins_per_sweep : flat_bins;
  const bool table = !generic && table_kernel_exact(range) && wanted <= table_window;
  l.sweeps = ceil_div(flat_bins, table || forced.bins_per_sweep > 0 ? wanted : max_window);
  const bool shared = table || forced.bins_per_sweep > 0 ||
                      l.sweeps <= (generic ? kMaxSweepsGeneric : kMaxSweepsFast);
  l.counters = table ? Counters::table : shared ? Counters::shared : Counters::device;
  l.window = shared ? ceil_div(flat_bins, l.sweeps) : flat_bins;
  if (!shared) l.sweeps = 1;
  const auto kernel = reinterpret_cast<const void*>(kernel_for(l.counters));
  const std::size_t bytes = shared ? shared_bytes(l.window, table) : 0;
  if (shared) {
    check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes)),
          "opting in to shared memory");
    check(cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                               cudaSharedmemCarveoutMaxShared),
          "shared memory carveout");
  }
  if (forced.block != 0 && (forced.block % kWarp != 0 || forced.block > kMaxBlock<T>))
    refuse("a block of " + std::to_string(forced.block) + " threads is not a multiple of " +
           std::to_string(kWarp) + " up to " + std::to_string(kMaxBlock<T>));
  const int first_block = forced.block != 0 ? forced.block : 128;
  const int last_block = forced.block != 0 ? forced.block : kMaxBlock<T>;
  for (int block = first_block; block <= last_block; block *= 2) {
    int blocks = 0;
    check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, block, bytes),
          "occupancy query");
    if (blocks * block > l.blocks_per_sm * l.block) {
      l.block = block;
      l.blocks_per_sm = blocks;
    }
  }
  if (l.blocks_per_sm == 0) throw std::runtime_error("CUDA pair histogram: no block fits an SM");
  l.grid = device.multiprocessors * l.blocks_per_sm;
  const std::int64_t capacity =
      std::int64_t(std::min(kConstantBytes, device.constant_bytes) / sizeof(Packed<T>));
  if (forced.tile > capacity)
    refuse("a tile of " + std::to_string(forced.tile) + " atoms exceeds the " +
           std::to_string(capacity) + " constant memory holds");
  l.tile = int(std::min(forced.tile != 0 ? forced.tile : capacity, tile_atoms));
  l.atoms_per_thread = atoms_per_thread<T, Box>();
  const std::int64_t chunks = ceil_div(b_atoms, std::int64_t(l.block) * l.atoms_per_thread);
  const std::int64_t sub_tiles = ceil_div(kUnitsPerBlock * l.grid, chunks);
  l.sub_tile = int(std::min<std::int64_t>(
      std::max<std::int64_t>(ceil_div(l.tile, sub_tiles), kMinSubTile), l.tile));
  // Periodic units sort best with small bounds; without a box the bounds usually hold every pair.
  if (!generic && !std::is_same_v<Box, NoBox<T>>) l.sub_tile = std::min(l.sub_tile, kMinSubTile);
  return l;
}

inline std::string describe(const Launch& l, const DeviceLimits& device, const char* kernel,
                            const char* type, BoxKind box) {
  std::string s = std::string("cuda ") + kernel + " kernel, " + type + ", box " + to_string(box) +
                  ": block " + std::to_string(l.block) + " x " +
                  std::to_string(l.atoms_per_thread) + " B atoms/thread, grid " +
                  std::to_string(l.grid) + " (" + std::to_string(device.multiprocessors) +
                  " SMs x " + std::to_string(l.blocks_per_sm) + "), constant tile " +
                  std::to_string(l.tile) + " A atoms, sub-tile " + std::to_string(l.sub_tile);
  if (l.shared())
    return s + ", shared-memory counts" + (l.table() ? " with the squared-edge table, " : ", ") +
           std::to_string(l.window) + " bins per sweep x " + std::to_string(l.sweeps);
  return s + ", device-memory counts (64-bit atomics) over " + std::to_string(l.window) + " bins";
}

}  // namespace kmol::pair_cuda
