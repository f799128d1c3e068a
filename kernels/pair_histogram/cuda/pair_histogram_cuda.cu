// Pair-distance histograms in raw CUDA, after VMD and CADISHI.
//
// A tile of A atoms sits in the 64 KiB __constant__ bank, which is why this unit must not include
// Kokkos (it reserves half the bank). All threads of a warp read the same A atom at once (a
// broadcast) and pair it with the B atoms each keeps in registers. A block counts into a
// shared-memory window of the flattened [histogram][bin] array with 32-bit counters and adds them
// into 64-bit device totals before any could wrap. Histograms wider than shared memory are swept
// window by window; where that would take too many sweeps, one pass adds straight into the
// device totals instead.
//
// Counts equal the host's bit for bit: each distance is computed as pair_distance does (the unit
// is compiled with --fmad=false, so nothing is contracted) and binned by bin_of's own edges.
//
// Two kernels. The fast one (no labels, and a range for which fast_kernel_exact proves its
// shortcuts exact) bins with one edge test and a branch-free square root, selects each count
// instead of branching, and lets a warp skip an A atom none of whose pairs counts; B is put in
// Morton order so that this happens often. The generic one handles labels and any range.
#include "kernels/cuda_device_mutex.hpp"
#include "kernels/pair_histogram/cuda/pair_histogram_cuda.hpp"
#include "kernels/pair_histogram/cuda/pair_histogram_cuda_region.hpp"

#include <cuda_runtime.h>

#include <cub/device/device_radix_sort.cuh>

#include <algorithm>
#include <cfloat>
#include <climits>
#include <cmath>
#include <cstdint>
#include <limits>
#include <mutex>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "kernels/pair_histogram/fast_binning.hpp"
#include "kmol/core/counters.hpp"

namespace kmol {
namespace {

using fast_binning::fast_bin_plus_magic;
using fast_binning::fast_kernel_exact;
using fast_binning::fast_root;
using fast_binning::magic_bits;
using fast_binning::square_threshold;

constexpr int kWarp = 32;
constexpr std::size_t kConstantBytes = 64 * 1024;  // the __constant__ bank the unit may fill
// Sweeps beyond which one pass counting in device memory is faster. Measured on an H200: a
// sweep of the fast kernel costs about 0.4 of a full pass (the warps skip pairs outside the
// window), one of the generic kernel a full pass, and device-memory counts about 9 passes.
constexpr std::int64_t kMaxSweepsFast = 16, kMaxSweepsGeneric = 4;
constexpr std::int64_t kUnitsPerBlock = 16;   // work units per block and tile: a short tail
constexpr int kMinSubTile = 64;               // A atoms per unit, enough to hide its setup
constexpr std::int64_t kMinSorted = 1 << 16;  // fewer B atoms are not worth sorting

void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess)
    throw std::runtime_error(std::string("CUDA pair histogram: ") + what + ": " +
                             cudaGetErrorString(status));
}

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

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

union ConstantTile {
  Packed<float> f[kConstantBytes / sizeof(Packed<float>)];
  Packed<double> d[kConstantBytes / sizeof(Packed<double>)];
};
__constant__ ConstantTile c_tile;

// c_tile is one per device: calls take turns.
PerDeviceMutex c_tile_mutex;

__device__ __forceinline__ Vec3<float> tile_atom(float, int i) {
  return {c_tile.f[i].x, c_tile.f[i].y, c_tile.f[i].z};
}
__device__ __forceinline__ Vec3<double> tile_atom(double, int i) {
  return {c_tile.d[i].x, c_tile.d[i].y, c_tile.d[i].z};
}

// bin_of converts between int and float, which runs at a quarter of the FMA rate. These do the
// same exactly with additions: a sum of unit spacing rounded toward zero truncates 0 <= x < 2^23
// (2^52), and a whole number below that is read back from the significand.
__device__ __forceinline__ float truncate_small(float x) { return __fadd_rz(x, 0x1p23f) - 0x1p23f; }
__device__ __forceinline__ double truncate_small(double x) { return __dadd_rz(x, 0x1p52) - 0x1p52; }
__device__ __forceinline__ int small_int(float k) {
  return __float_as_int(k + 0x1p23f) - 0x4B000000;
}
__device__ __forceinline__ int small_int(double k) { return __double2loint(k + 0x1p52); }

// range.bin_of(r) for r in [r_min, r_max), step for step: the same guess, the same edges
// fma(k, width, r_min), the same corrections. In range the guess is >= 0 and k never drops below
// 0 (edge 0 is r_min itself), so those two clamps are left out; fmin clamps as bin_of's
// conditionals do (the guess is never NaN here, nor is k). The generic kernel bins with it.
template <class T>
__device__ __forceinline__ int bin_in_range(const HistogramRange<T>& range, T r) {
  const T top = T(range.n_bins - 1);
  T k = truncate_small(fmin((r - range.r_min) * range.inverse_width, top));
  k -= r < math::fma(k, range.width, range.r_min) ? T(1) : T(0);
  k += r >= math::fma(k + T(1), range.width, range.r_min) ? T(1) : T(0);
  return small_int(fmin(k, top));
}

// One kernel launch: a constant tile of A against B, one window of the counts.
template <class T, class Box>
struct Pass {
  Box box;
  HistogramRange<T> range;
  T r2_min{}, r2_max{};    // pairs with r2 in [r2_min, r2_max) count (fast kernel: in the window)
  PairLabels labels{};     // device copies
  const Packed<T>* b{};    // B, then NaN atoms (never in range) up to whole chunks
  std::int64_t b_begin{};  // first B atom visited (one set: first tile atom + 1)
  std::int64_t tile_begin{};  // A index of constant-tile atom 0
  int tile_size{}, sub_tile{}, sub_tiles{}, chunks{};
  bool one_set{};
  std::int64_t window_begin{};  // flattened [histogram][bin] index of shared counter 0
  int window_size{};
  int magic_window_begin{};  // magic_bits + window_begin (fast kernel)
  std::uint64_t* counts{};   // device totals [n_histograms][n_bins]
};

// Shared memory of a block: the window's counters, one for the fast kernel's k = n_bins (bin_of
// clamps it to the last bin), then one spare counter per lane, each on its own bank (never read,
// so free to wrap).
std::size_t shared_bytes(std::int64_t window) {
  return std::size_t(window + 1 + kWarp) * sizeof(std::uint32_t);
}

// Adds the block's shared counters into the device totals and clears them.
template <class T, class Box>
__device__ void flush(std::uint32_t* window, const Pass<T, Box>& p) {
  __syncthreads();
  for (int s = threadIdx.x; s <= p.window_size; s += blockDim.x) {
    const std::uint32_t n = window[s];
    if (n != 0) {
      atomicAdd(reinterpret_cast<unsigned long long*>(p.counts + p.window_begin +
                                                      min(s, p.window_size - 1)),
                static_cast<unsigned long long>(n));
      window[s] = 0;
    }
  }
  __syncthreads();
}

// Adds one to the shared counter at 32-bit shared address `counter`, unconditionally: ptxas
// branches around a predicated shared atomic, which costs more than counting a pair that does
// not count into a spare counter.
__device__ __forceinline__ void add_one_shared(std::uint32_t counter) {
  asm volatile("red.shared.add.u32 [%0], 1;" : : "r"(counter));
}

// The unit's B atoms of this thread: lane l of warp w holds atoms j_begin + w 32K + 32k + l, so
// each load is coalesced and a warp's atoms are consecutive (close together in Morton order).
template <class T, class Box>
__device__ __forceinline__ void load_b(const Pass<T, Box>& p, std::int64_t j_begin, Vec3<T>* b,
                                       std::int64_t* j) {
  constexpr int kAtoms = atoms_per_thread<T, Box>();
  const std::int64_t first = j_begin + threadIdx.x / kWarp * (kWarp * kAtoms) + threadIdx.x % kWarp;
#pragma unroll
  for (int k = 0; k < kAtoms; ++k) {
    j[k] = first + k * kWarp;
    const Packed<T> q = p.b[j[k]];
    b[k] = {q.x, q.y, q.z};
  }
}

// Sub-tile [a_begin, a_end) of the constant tile against blockDim * atoms_per_thread B atoms,
// without labels. Every pair of an A atom is computed in full and only its count is selected;
// a warp skips the A atom when none of its pairs counts.
template <bool kDiagonal, bool kShared, class T, class Box>
__device__ __forceinline__ void count_unit_fast(const Pass<T, Box>& p, std::uint32_t* window,
                                                int a_begin, int a_end, std::int64_t j_begin) {
  constexpr int kAtoms = atoms_per_thread<T, Box>();
  Vec3<T> b[kAtoms];
  std::int64_t j[kAtoms];
  load_b(p, j_begin, b, j);
  const std::uint32_t first = std::uint32_t(__cvta_generic_to_shared(window));
  const std::uint32_t spare = first + 4 * (p.window_size + 1 + threadIdx.x % kWarp);
#pragma unroll 2
  for (int a = a_begin; a < a_end; ++a) {
    const Vec3<T> at = tile_atom(T(), a);
    T r2[kAtoms];
    bool take[kAtoms], any = false;
#pragma unroll
    for (int k = 0; k < kAtoms; ++k) {
      r2[k] = norm2(p.box.minimum_image(b[k] - at));
      take[k] = r2[k] >= p.r2_min && r2[k] < p.r2_max;  // false for the NaN padding
      if (kDiagonal) take[k] = take[k] && p.tile_begin + a < j[k];
      any = any || take[k];
    }
    if (!__any_sync(0xFFFFFFFFu, any)) continue;
#pragma unroll
    for (int k = 0; k < kAtoms; ++k) {
      const int bin = fast_bin_plus_magic(p.range, fast_root(r2[k]));
      if constexpr (kShared) {
        add_one_shared(take[k] ? first + 4 * std::uint32_t(bin - p.magic_window_begin) : spare);
      } else if (take[k]) {
        atomicAdd(reinterpret_cast<unsigned long long*>(p.counts) +
                      min(bin - magic_bits<T>, p.range.n_bins - 1),
                  1ull);
      }
    }
  }
}

// The same with labels and the exact replica of bin_of: pairs of every histogram.
template <bool kDiagonal, bool kShared, class T, class Box>
__device__ __forceinline__ void count_unit_generic(const Pass<T, Box>& p, std::uint32_t* window,
                                                   int a_begin, int a_end, std::int64_t j_begin) {
  constexpr int kAtoms = atoms_per_thread<T, Box>();
  Vec3<T> b[kAtoms];
  std::int64_t j[kAtoms];
  load_b(p, j_begin, b, j);
  for (int a = a_begin; a < a_end; ++a) {
    const Vec3<T> at = tile_atom(T(), a);
    const std::int64_t i = p.tile_begin + a;
#pragma unroll
    for (int k = 0; k < kAtoms; ++k) {
      const T r2 = norm2(p.box.minimum_image(b[k] - at));
      // Labels are read only after this, never for the NaN padding.
      if (!(r2 >= p.r2_min && r2 < p.r2_max) || (kDiagonal && !(i < j[k]))) continue;
      const std::int32_t h = p.labels.histogram_of(i, j[k]);
      if (h < 0) continue;
      const std::int64_t flat =
          std::int64_t(h) * p.range.n_bins + bin_in_range(p.range, math::sqrt(r2));
      if constexpr (kShared) {
        const std::uint64_t s = std::uint64_t(flat - p.window_begin);  // wraps below the window
        if (s < std::uint64_t(p.window_size)) atomicAdd(window + s, 1u);
      } else {
        atomicAdd(reinterpret_cast<unsigned long long*>(p.counts) + flat, 1ull);
      }
    }
  }
}

// Double needs more registers than 1024 threads per block would leave it.
template <class T>
constexpr int kMaxBlock = sizeof(T) == sizeof(float) ? 1024 : 512;

template <class T, class Box, bool kGeneric, bool kShared>
__global__ void __launch_bounds__(kMaxBlock<T>) count_pairs(const Pass<T, Box> p) {
  extern __shared__ std::uint32_t window[];
  if constexpr (kShared) {
    for (int s = threadIdx.x; s <= p.window_size; s += blockDim.x) window[s] = 0;
    __syncthreads();
  }
  const int chunk = blockDim.x * atoms_per_thread<T, Box>();
  // A counter grows by at most one per pair the block examines.
  const std::uint64_t unit_pairs = std::uint64_t(chunk) * std::uint64_t(p.sub_tile);
  FlushBudget budget;
  for (int u = blockIdx.x; u < p.chunks * p.sub_tiles; u += gridDim.x) {
    // Sub-tile major: the blocks running together read the same few KiB of constants.
    const int a_begin = u / p.chunks * p.sub_tile;
    const int a_end = min(a_begin + p.sub_tile, p.tile_size);
    const std::int64_t j_begin = p.b_begin + std::int64_t(u % p.chunks) * chunk;
    bool diagonal = false;
    if (p.one_set) {  // pairs i < j only
      if (j_begin + chunk - 1 <= p.tile_begin + a_begin) continue;
      diagonal = j_begin <= p.tile_begin + a_end - 1;
    }
    if constexpr (kShared) {
      if (budget.needs_flush_before(unit_pairs)) {
        flush(window, p);
        budget.flushed();
      }
      budget.take(unit_pairs);
    }
    if constexpr (kGeneric) {
      if (diagonal)
        count_unit_generic<true, kShared>(p, window, a_begin, a_end, j_begin);
      else
        count_unit_generic<false, kShared>(p, window, a_begin, a_end, j_begin);
    } else {
      if (diagonal)
        count_unit_fast<true, kShared>(p, window, a_begin, a_end, j_begin);
      else
        count_unit_fast<false, kShared>(p, window, a_begin, a_end, j_begin);
    }
  }
  if constexpr (kShared) flush(window, p);
}

template <class T>
__global__ void pack_atoms(const Vec3<T>* in, std::int64_t n, Packed<T>* out, std::int64_t n_out) {
  const T nan = T(NAN);
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < n_out;
       i += std::int64_t(gridDim.x) * blockDim.x)
    out[i] = i < n ? Packed<T>{in[i].x, in[i].y, in[i].z, T(0)} : Packed<T>{nan, nan, nan, nan};
}

// Morton order of B. Only the order of pairs changes, never a pair's arithmetic.

// Floats as ints of the same order, for atomicMin and atomicMax.
__device__ __forceinline__ int ordered(float x) {
  const int i = __float_as_int(x);
  return i >= 0 ? i : i ^ 0x7FFFFFFF;
}
__device__ __forceinline__ float from_ordered(int i) {
  return __int_as_float(i >= 0 ? i : i ^ 0x7FFFFFFF);
}

// Bounding box of atoms [0, n) into box[0..2] (least) and box[3..5] (greatest), as ordered().
template <class T>
__global__ void bounding_box(const Packed<T>* atoms, std::int64_t n, int* box) {
  float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < n;
       i += std::int64_t(gridDim.x) * blockDim.x) {
    const float c[3] = {float(atoms[i].x), float(atoms[i].y), float(atoms[i].z)};
    for (int d = 0; d < 3; ++d) {
      lo[d] = fminf(lo[d], c[d]);
      hi[d] = fmaxf(hi[d], c[d]);
    }
  }
  for (int d = 0; d < 3; ++d) {
    for (int offset = kWarp / 2; offset > 0; offset /= 2) {
      lo[d] = fminf(lo[d], __shfl_xor_sync(0xFFFFFFFFu, lo[d], offset));
      hi[d] = fmaxf(hi[d], __shfl_xor_sync(0xFFFFFFFFu, hi[d], offset));
    }
    if (threadIdx.x % kWarp == 0) {
      atomicMin(box + d, ordered(lo[d]));
      atomicMax(box + 3 + d, ordered(hi[d]));
    }
  }
}

// Bits 0..9 of v to bits 0, 3, .., 27.
__device__ __forceinline__ std::uint32_t spread_bits(std::uint32_t v) {
  v &= 0x3FFu;
  v = (v | v << 16) & 0x030000FFu;
  v = (v | v << 8) & 0x0300F00Fu;
  v = (v | v << 4) & 0x030C30C3u;
  return (v | v << 2) & 0x09249249u;
}

// Each atom's cell of a 1024^3 grid over the box, its bits interleaved, and its index.
template <class T>
__global__ void morton_keys(const Packed<T>* atoms, std::int64_t n, const int* box,
                            std::uint32_t* keys, std::uint32_t* order) {
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < n;
       i += std::int64_t(gridDim.x) * blockDim.x) {
    const float c[3] = {float(atoms[i].x), float(atoms[i].y), float(atoms[i].z)};
    std::uint32_t key = 0;
    for (int d = 0; d < 3; ++d) {
      const float lo = from_ordered(box[d]), extent = from_ordered(box[3 + d]) - lo;
      const float cell = fminf(fmaxf((c[d] - lo) * (1024 / fmaxf(extent, FLT_MIN)), 0), 1023);
      key |= spread_bits(std::uint32_t(cell)) << d;
    }
    keys[i] = key;
    order[i] = std::uint32_t(i);
  }
}

template <class T>
__global__ void gather(const Packed<T>* in, const std::uint32_t* order, std::int64_t n,
                       std::int64_t n_total, Packed<T>* out) {
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < n_total;
       i += std::int64_t(gridDim.x) * blockDim.x)
    out[i] = in[i < n ? order[i] : i];
}

unsigned grid_for(std::int64_t n) {
  return unsigned(std::clamp<std::int64_t>(ceil_div(n, 256), 1, 4096));
}

// Device memory freed in stream order.
template <class U>
class DeviceArray {
 public:
  DeviceArray(std::int64_t n, cudaStream_t stream) : stream_(stream) {
    if (n > 0)
      check(cudaMallocAsync(reinterpret_cast<void**>(&data_), std::size_t(n) * sizeof(U), stream),
            "cudaMallocAsync");
  }
  DeviceArray(DeviceArray&& other) noexcept : data_(other.data_), stream_(other.stream_) {
    other.data_ = nullptr;
  }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  DeviceArray& operator=(DeviceArray&&) = delete;
  ~DeviceArray() {
    if (data_ != nullptr) cudaFreeAsync(data_, stream_);
  }
  U* get() const { return data_; }

 private:
  U* data_ = nullptr;
  cudaStream_t stream_;
};

template <class U>
DeviceArray<U> upload(const U* host, std::int64_t n, cudaStream_t stream) {
  DeviceArray<U> device(host != nullptr ? n : 0, stream);
  if (device.get() != nullptr)
    check(cudaMemcpyAsync(device.get(), host, std::size_t(n) * sizeof(U), cudaMemcpyHostToDevice,
                          stream),
          "copy to the device");
  return device;
}

// Atoms copied and padded into Packed form, with `padding` NaN atoms after them.
template <class T>
DeviceArray<Packed<T>> upload_packed(const Vec3<T>* host, std::int64_t n, std::int64_t padding,
                                     cudaStream_t stream) {
  const DeviceArray<Vec3<T>> raw = upload(host, n, stream);
  DeviceArray<Packed<T>> packed(n + padding, stream);
  pack_atoms<<<grid_for(n + padding), 256, 0, stream>>>(raw.get(), n, packed.get(), n + padding);
  check(cudaGetLastError(), "packing atoms");
  return packed;
}

// The first n atoms in Morton order (the padding after them kept): a warp's B atoms then lie
// close together, so for most A atoms either none or several of its pairs count.
template <class T>
DeviceArray<Packed<T>> morton_sorted(const DeviceArray<Packed<T>>& atoms, std::int64_t n,
                                     std::int64_t n_total, cudaStream_t stream) {
  const int empty_box[6] = {INT_MAX, INT_MAX, INT_MAX, INT_MIN, INT_MIN, INT_MIN};
  DeviceArray<int> box(6, stream);
  check(cudaMemcpyAsync(box.get(), empty_box, sizeof(empty_box), cudaMemcpyHostToDevice, stream),
        "copy to the device");
  bounding_box<<<grid_for(n), 256, 0, stream>>>(atoms.get(), n, box.get());
  DeviceArray<std::uint32_t> keys(2 * n, stream), order(2 * n, stream);
  morton_keys<<<grid_for(n), 256, 0, stream>>>(atoms.get(), n, box.get(), keys.get(), order.get());
  check(cudaGetLastError(), "Morton keys");
  std::size_t temp_bytes = 0;
  check(cub::DeviceRadixSort::SortPairs(nullptr, temp_bytes, keys.get(), keys.get() + n,
                                        order.get(), order.get() + n, int(n), 0, 30, stream),
        "sort size");
  const DeviceArray<char> temp(std::int64_t(temp_bytes), stream);
  check(cub::DeviceRadixSort::SortPairs(temp.get(), temp_bytes, keys.get(), keys.get() + n,
                                        order.get(), order.get() + n, int(n), 0, 30, stream),
        "sorting atoms");
  DeviceArray<Packed<T>> sorted(n_total, stream);
  gather<<<grid_for(n_total), 256, 0, stream>>>(atoms.get(), order.get() + n, n, n_total,
                                                sorted.get());
  check(cudaGetLastError(), "gathering atoms");
  return sorted;
}

struct Device {
  int multiprocessors = 0;
  std::size_t shared_per_block = 0;  // with opt-in
  std::size_t constant_bytes = 0;
};

Device query_device() {
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
  bool shared = true;       // shared-memory windows; else 64-bit atomics in device memory
  std::int64_t window = 0;  // flattened bins per sweep
  std::int64_t sweeps = 1;
  int block = 0, blocks_per_sm = 0, grid = 0;
  int atoms_per_thread = 0;    // of B
  int tile = 0, sub_tile = 0;  // A atoms per constant tile and per work unit
};

void refuse(const std::string& why) {
  throw std::invalid_argument("CUDA pair histogram: forced launch: " + why);
}

// Shared windows take as many bins as one block may hold; the block size keeps the most threads
// resident (ties: smaller blocks, so more window copies and finer balance); the sub-tile gives
// every block kUnitsPerBlock units per tile where the problem is large enough. Parameters in
// `forced` replace those choices (a forced window always counts in shared memory).
template <class T, class Box, bool kGeneric>
Launch tune(const Device& device, std::int64_t flat_bins, std::int64_t tile_atoms,
            std::int64_t b_atoms, const PairHistogramLaunchOverride& forced) {
  Launch l;
  const std::int64_t max_window =
      std::int64_t(device.shared_per_block / sizeof(std::uint32_t)) - 1 - kWarp;
  if (forced.bins_per_sweep > max_window)
    refuse(std::to_string(forced.bins_per_sweep) + " bins per sweep exceed the " +
           std::to_string(max_window) + " a block's shared memory holds");
  l.sweeps = ceil_div(flat_bins, forced.bins_per_sweep > 0 ? forced.bins_per_sweep : max_window);
  l.shared = forced.bins_per_sweep > 0 || l.sweeps <= (kGeneric ? kMaxSweepsGeneric : kMaxSweepsFast);
  l.window = l.shared ? ceil_div(flat_bins, l.sweeps) : flat_bins;
  if (!l.shared) l.sweeps = 1;
  const void* kernel = l.shared
                           ? reinterpret_cast<const void*>(&count_pairs<T, Box, kGeneric, true>)
                           : reinterpret_cast<const void*>(&count_pairs<T, Box, kGeneric, false>);
  const std::size_t bytes = l.shared ? shared_bytes(l.window) : 0;
  if (l.shared) {
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
  return l;
}

std::string describe(const Launch& l, const Device& device, const char* kernel, const char* type,
                     BoxKind box) {
  std::string s = std::string("cuda ") + kernel + " kernel, " + type + ", box " + to_string(box) +
                  ": block " + std::to_string(l.block) + " x " +
                  std::to_string(l.atoms_per_thread) + " B atoms/thread, grid " +
                  std::to_string(l.grid) + " (" + std::to_string(device.multiprocessors) +
                  " SMs x " + std::to_string(l.blocks_per_sm) + "), constant tile " +
                  std::to_string(l.tile) + " A atoms, sub-tile " + std::to_string(l.sub_tile);
  if (l.shared)
    return s + ", shared-memory counts, " + std::to_string(l.window) + " bins per sweep x " +
           std::to_string(l.sweeps);
  return s + ", device-memory counts (64-bit atomics) over " + std::to_string(l.window) + " bins";
}

// Counts the bins of the flattened region [region_begin, region_end) (others may count too).
template <class T, class Box, bool kGeneric>
std::string run(const PairHistogramJob<T>& job, const Box& box, cudaStream_t stream,
                std::int64_t region_begin, std::int64_t region_end) {
  const Device device = query_device();
  const std::int64_t all_bins = std::int64_t(job.n_histograms) * job.range.n_bins;
  const std::int64_t flat_bins = region_end - region_begin;
  const std::int64_t n_b = job.one_set ? job.n_a : job.n_b;
  // One set: a tile meets on average half of the set.
  const Launch l =
      tune<T, Box, kGeneric>(device, flat_bins, job.n_a, job.one_set ? n_b / 2 + 1 : n_b,
                             job.launch);
  const std::int64_t chunk = std::int64_t(l.block) * l.atoms_per_thread;

  // One set in a box keeps its order: the minimum image of b - a and of a - b can differ in
  // length right at half a box, so a pair's two atoms must not trade places.
  const bool sort = !kGeneric && n_b >= kMinSorted && n_b <= INT_MAX &&
                    (!job.one_set || job.box.kind == BoxKind::none);
  DeviceArray<Packed<T>> unsorted = upload_packed(job.one_set ? job.a : job.b, n_b, chunk, stream);
  const DeviceArray<Packed<T>> b =
      sort ? morton_sorted(unsorted, n_b, n_b + chunk, stream) : std::move(unsorted);
  const DeviceArray<Packed<T>> a_own =
      job.one_set ? DeviceArray<Packed<T>>(0, stream) : upload_packed(job.a, job.n_a, 0, stream);
  const Packed<T>* a = job.one_set ? b.get() : a_own.get();

  const PairLabels& host_labels = job.labels;
  const std::int64_t species_pairs =
      std::int64_t(host_labels.n_species) * (host_labels.n_species + 1) / 2;
  const auto species = upload(host_labels.species, job.n_a, stream);
  const auto enabled = upload(host_labels.enabled, species_pairs, stream);
  const auto molecule_a = upload(host_labels.molecule_a, job.n_a, stream);
  const auto molecule_b = upload(job.one_set ? nullptr : host_labels.molecule_b, n_b, stream);

  DeviceArray<std::uint64_t> counts(all_bins, stream);
  check(cudaMemsetAsync(counts.get(), 0, std::size_t(all_bins) * sizeof(std::uint64_t), stream),
        "clearing counts");

  Pass<T, Box> p{box, job.range};
  p.labels = host_labels;
  p.labels.species = species.get();
  p.labels.enabled = enabled.get();
  p.labels.molecule_a = molecule_a.get();
  p.labels.molecule_b = job.one_set ? molecule_a.get() : molecule_b.get();
  p.b = b.get();
  p.sub_tile = l.sub_tile;
  p.one_set = job.one_set;
  p.counts = counts.get();
  const auto kernel =
      l.shared ? &count_pairs<T, Box, kGeneric, true> : &count_pairs<T, Box, kGeneric, false>;
  for (p.tile_begin = 0; p.tile_begin < job.n_a; p.tile_begin += l.tile) {
    p.b_begin = job.one_set ? p.tile_begin + 1 : 0;
    if (p.b_begin >= n_b) break;
    p.tile_size = int(std::min<std::int64_t>(l.tile, job.n_a - p.tile_begin));
    check(cudaMemcpyToSymbolAsync(c_tile, a + p.tile_begin, p.tile_size * sizeof(Packed<T>), 0,
                                  cudaMemcpyDeviceToDevice, stream),
          "copy to constant memory");
    p.chunks = int(ceil_div(n_b - p.b_begin, chunk));
    p.sub_tiles = int(ceil_div(p.tile_size, l.sub_tile));
    const int grid = int(std::min<std::int64_t>(l.grid, std::int64_t(p.chunks) * p.sub_tiles));
    for (std::int64_t s = 0; s < l.sweeps; ++s) {
      p.window_begin = region_begin + s * l.window;
      p.window_size = int(std::min(l.window, region_end - p.window_begin));
      p.magic_window_begin = magic_bits<T> + int(p.window_begin);
      // The fast kernel's bins are the ones its edges define (fast_kernel_exact): bin >= k
      // exactly when r >= edge(k), so its window is a range of r2 too. The generic kernel
      // checks the window bin by bin.
      const std::int64_t first = kGeneric ? 0 : p.window_begin;
      const std::int64_t last = kGeneric ? job.range.n_bins : p.window_begin + p.window_size;
      p.r2_min = square_threshold(job.range.edge(std::int32_t(first)));
      p.r2_max = square_threshold(job.range.edge(std::int32_t(last)));
      const std::size_t bytes = l.shared ? shared_bytes(p.window_size) : 0;
      kernel<<<grid, l.block, bytes, stream>>>(p);
      check(cudaGetLastError(), "kernel launch");
    }
  }

  std::vector<std::uint64_t> totals(static_cast<std::size_t>(all_bins));
  check(cudaMemcpyAsync(totals.data(), counts.get(), totals.size() * sizeof(std::uint64_t),
                        cudaMemcpyDeviceToHost, stream),
        "copy of the counts");
  check(cudaStreamSynchronize(stream), "counting");
  for (std::size_t k = 0; k < totals.size(); ++k) job.counts[k] += totals[k];
  const char* name = !kGeneric              ? "fast"
                     : job.labels.trivial() ? "generic (range too odd for the fast one)"
                                            : "generic (labels)";
  return describe(l, device, name, sizeof(T) == 4 ? "float" : "double", job.box.kind) +
         (sort ? ", B in Morton order" : "");
}

}  // namespace

template <class T>
std::string pair_histogram_cuda(const PairHistogramJob<T>& job, cudaStream_t stream) {
  return pair_histogram_cuda_region(job, stream, 0, std::int64_t(job.n_histograms) * job.range.n_bins);
}

template <class T>
std::string pair_histogram_cuda_region(const PairHistogramJob<T>& job, cudaStream_t stream,
                                       std::int64_t region_begin, std::int64_t region_end) {
  if (region_begin < 0 || region_end <= region_begin ||
      region_end > std::int64_t(job.n_histograms) * job.range.n_bins)
    throw std::invalid_argument("CUDA pair histogram: empty or out-of-range region of bins");
  if (job.labels.species != nullptr && !job.one_set)
    throw std::invalid_argument("CUDA pair histogram: species labels need one set");
  if (job.labels.molecule_a != nullptr && !job.one_set && job.labels.molecule_b == nullptr)
    throw std::invalid_argument("CUDA pair histogram: exclusions of two sets need molecule_b");
  if (job.pair_count() <= 0) return "cuda: no pairs";
  const std::lock_guard<std::mutex> lock(c_tile_mutex.current());
  return visit_box<T>(job.box, [&](const auto& box) {
    using Box = std::decay_t<decltype(box)>;
    return job.labels.trivial() && fast_kernel_exact(job.range)
               ? run<T, Box, false>(job, box, stream, region_begin, region_end)
               : run<T, Box, true>(job, box, stream, region_begin, region_end);
  });
}

template std::string pair_histogram_cuda<float>(const PairHistogramJob<float>&, cudaStream_t);
template std::string pair_histogram_cuda<double>(const PairHistogramJob<double>&, cudaStream_t);
template std::string pair_histogram_cuda_region<float>(const PairHistogramJob<float>&, cudaStream_t,
                                                       std::int64_t, std::int64_t);
template std::string pair_histogram_cuda_region<double>(const PairHistogramJob<double>&, cudaStream_t,
                                                        std::int64_t, std::int64_t);

}  // namespace kmol
