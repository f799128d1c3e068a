#pragma once
// The raw CUDA pair-histogram kernels (device code). A tile of A atoms sits in the 64 KiB
// __constant__ bank, which is why only one unit (pair_histogram_cuda.cu) includes this and none
// includes Kokkos (it reserves half the bank). All threads of a warp read the same A atom at once
// (a broadcast) and pair it with the B atoms each keeps in registers. A block counts into a
// shared-memory window of the flattened [histogram][bin] array with 32-bit counters and adds them
// into 64-bit device totals before any could wrap; or, for windows too wide, straight into the
// device totals.
//
// Counts equal the host's bit for bit: each distance is computed as pair_distance does (the unit
// is compiled with --fmad=false, so nothing is contracted) and binned by bin_of's own edges.
//
// Two binnings (Binning): the fast one (no labels, and a range for which fast_kernel_exact proves
// its shortcuts exact) bins with one edge test and a branch-free square root, selects each count
// instead of branching, and lets a warp skip an A atom none of whose pairs counts; B is put in
// Morton order so that this happens often. The generic one handles labels and any range.
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "kernels/cuda_device_mutex.hpp"
#include "kernels/pair_histogram/cuda/kernel_shape.hpp"
#include "kernels/pair_histogram/fast_binning.hpp"
#include "kernels/pair_histogram/job.hpp"
#include "kernels/pair_histogram/unit_reach.hpp"
#include "kmol/core/counters.hpp"

namespace kmol::pair_cuda {

using fast_binning::fast_bin_plus_magic;
using fast_binning::fast_root;
using fast_binning::magic_bits;
using unit_reach::Bounds;
using unit_reach::Reach;
using unit_reach::Wrap;

// Whether a work unit straddles one set's diagonal, so that only its pairs i < j count.
enum class Diagonal { off, on };
// Whether a window starts at r = 0, so that every r2 passes its lower test.
enum class LowerEdge { zero, tested };

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
  T r2_min{}, r2_max{};  // pairs with r2 in [r2_min, r2_max) count (fast kernel: in the window)
  T r_min{}, r_max{};    // the same as distances (fast kernel: the window's edges)
  T box_extent{};        // longest box edge (0 without a box): scales the bounds' slack
  float small_floor_bound{};  // 2^20 shortest box edge: atoms closer to 0 wrap with small_floor
  PairLabels labels{};        // device copies
  const Packed<T>* b{};       // B, then NaN atoms (never in range) up to whole chunks
  const Bounds* a_bounds{};   // one per sub-tile of the constant tile (fast kernel)
  const float* edges2{};      // square_threshold of every edge (table kernel)
  fast_binning::TableGuess guess{};  // the table kernel's (table_guess_exact)
  std::int64_t b_begin{};            // first B atom visited (one set: first tile atom + 1)
  std::int64_t tile_begin{};         // A index of constant-tile atom 0
  int tile_size{}, sub_tile{}, sub_tiles{}, chunks{};
  bool one_set{};
  std::int64_t window_begin{};  // flattened [histogram][bin] index of shared counter 0
  int window_size{};
  int magic_window_begin{};  // magic_bits + window_begin (fast kernel)
  std::uint64_t* counts{};   // device totals [n_histograms][n_bins]
};
// Adds the block's shared counters into the device totals and clears them.
template <Counters kCounters, class T, class Box>
__device__ void flush(std::uint32_t* counters, const Pass<T, Box>& p) {
  constexpr bool kTable = kCounters == Counters::table;
  __syncthreads();
  for (int s = threadIdx.x; s <= p.window_size; s += blockDim.x) {
    std::uint32_t& counter = counters[kTable ? s + 1 : s];
    if (counter != 0) {
      atomicAdd(reinterpret_cast<unsigned long long*>(p.counts + p.window_begin +
                                                      min(s, p.window_size - 1)),
                static_cast<unsigned long long>(counter));
      counter = 0;
    }
  }
  __syncthreads();
}

// Adds one to the shared counter at 32-bit shared address `counter` (plus `kOffset` bytes),
// unconditionally: ptxas branches around a predicated shared atomic, which costs more than
// counting a pair that does not count into a spare counter.
template <int kOffset = 0>
__device__ __forceinline__ void add_one_shared(std::uint32_t counter) {
  asm volatile("red.shared.add.u32 [%0+%1], 1;" : : "r"(counter), "n"(kOffset));
}

__device__ __forceinline__ float sqrt_approx(float x) {
  float y;
  asm("sqrt.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}

__device__ __forceinline__ float load_shared(std::uint32_t address) {
  float v;
  asm volatile("ld.shared.f32 %0, [%1];" : "=f"(v) : "r"(address));
  return v;
}

// Shared address of the counter of a pair in the window, by fast_bin_plus_magic's arithmetic
// (the table kernel's one-fma guess where table_guess_exact holds; it also covers the exact
// root): `base` is the shared address of counter 0 less 4 magic_window_begin.
template <Counters kCounters, class T, class Box>
__device__ __forceinline__ std::uint32_t arithmetic_counter(const Pass<T, Box>& p,
                                                            std::uint32_t base, T r2) {
  const T r = fast_root(r2);
  T m;
  if constexpr (kCounters == Counters::table)
    m = fast_binning::floor_plus_magic(math::fma(r, T(p.guess.scale), T(p.guess.offset)));
  else
    m = fast_binning::floor_plus_magic(
        math::fma(r - p.range.r_min, p.range.inverse_width, T(-0.5)));
  const T next_edge = math::fma(fast_binning::floor_plus_one(m), p.range.width, p.range.r_min);
  return fast_binning::next_handle_if(base + 4 * std::uint32_t(fast_binning::low_bits(m)), r,
                                      next_edge);
}

// Shared address of the squared edge above the guessed bin (table_guess_exact): `base` is the
// address of edge slot 0 less 4 (magic_window_begin - 1). The pair's counter lies kTableSlots
// slots above the returned address, or above the next one where r2 reaches that edge.
__device__ __forceinline__ std::uint32_t guessed_edge(const fast_binning::TableGuess& guess,
                                                      std::uint32_t base, float r2) {
  return base + 4 * std::uint32_t(guess.bin_plus_magic(sqrt_approx(r2)));
}
__device__ __forceinline__ void count_by_table(std::uint32_t edge_slot, float r2) {
  add_one_shared<kTableSlots * 4>(
      fast_binning::next_handle_if(edge_slot, r2, load_shared(edge_slot)));
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

// Bounds from per-lane least and greatest coordinates, reduced over the warp.
__device__ __forceinline__ Bounds warp_bounds(float* lo, float* hi) {
#pragma unroll
  for (int d = 0; d < 3; ++d)
    for (int offset = kWarp / 2; offset > 0; offset /= 2) {
      lo[d] = fminf(lo[d], __shfl_xor_sync(0xFFFFFFFFu, lo[d], offset));
      hi[d] = fmaxf(hi[d], __shfl_xor_sync(0xFFFFFFFFu, hi[d], offset));
    }
  return unit_reach::from_extremes(lo, hi);
}

__device__ __forceinline__ void widen(float* lo, float* hi, float x, float y, float z) {
  lo[0] = fminf(lo[0], x), lo[1] = fminf(lo[1], y), lo[2] = fminf(lo[2], z);
  hi[0] = fmaxf(hi[0], x), hi[1] = fmaxf(hi[1], y), hi[2] = fmaxf(hi[2], z);
}

// The bounds of the atoms a warp holds (NaN atoms left out), the same in every lane.
template <int kAtoms, class T>
__device__ Bounds bounds_of(const Vec3<T>* b) {
  float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
#pragma unroll
  for (int k = 0; k < kAtoms; ++k) widen(lo, hi, float(b[k].x), float(b[k].y), float(b[k].z));
  return warp_bounds(lo, hi);
}

// The bounds of the sub-tiles of a constant tile, a warp each.
template <class T>
__global__ void sub_tile_bounds(const Packed<T>* a, int tile_size, int sub_tile, Bounds* bounds) {
  const int begin = blockIdx.x * sub_tile, end = min(begin + sub_tile, tile_size);
  float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
  for (int i = begin + int(threadIdx.x); i < end; i += kWarp)
    widen(lo, hi, float(a[i].x), float(a[i].y), float(a[i].z));
  const Bounds tile = warp_bounds(lo, hi);
  if (threadIdx.x == 0) bounds[blockIdx.x] = tile;
}

// The window of a pass as unit_reach.hpp measures units against it.
template <class T, class Box>
__device__ __forceinline__ unit_reach::Window<T> window_of(const Pass<T, Box>& p) {
  return {p.r_min, p.r_max, p.box_extent, p.small_floor_bound};
}

// Whether B atom k of a thread bins by the edge table: where the table is there, every other one
// without a box, so that table pairs (an edge read and a count in shared memory) and arithmetic
// ones (a count, more instructions) keep both shared memory and the issue slots busy; all of them
// in periodic boxes, whose minimum images take issue slots enough (measured on an H200).
template <Counters kCounters, class T, class Box>
__device__ constexpr bool by_table(int k) {
  return kCounters == Counters::table && (!std::is_same_v<Box, NoBox<T>> || k % 2 == 0);
}

// The pairs of sub-tile [a_begin, a_end) against this thread's B atoms. Reach::all: the bounds put
// every pair in the window, so none is tested. Otherwise every pair of an A atom is computed in
// full and only its count is selected; a warp skips the A atom when none of its pairs counts.
template <Diagonal kPairs, Counters kCounters, Wrap kWrap, Reach kUnit, LowerEdge kLower, class T,
          class Box>
__device__ __forceinline__ void count_sub_tile(const Pass<T, Box>& p, const Vec3<T>* b,
                                               const std::int64_t* j, int a_begin, int a_end,
                                               std::uint32_t base, std::uint32_t spare,
                                               const Vec3<T>& shift) {
  constexpr bool kDiagonal = kPairs == Diagonal::on, kAll = kUnit == Reach::all,
                 kFromZero = kLower == LowerEdge::zero;
  constexpr int kAtoms = atoms_per_thread<T, Box>();
  // Bytes from an edge to its counter.
  constexpr int kEdgeToCounter = kCounters == Counters::table ? 4 * kTableSlots : 0;
  const fast_binning::TableGuess guess = p.guess;
#pragma unroll 2
  for (int a = a_begin; a < a_end; ++a) {
    const Vec3<T> at = tile_atom(T(), a);
    T r2[kAtoms];
    bool take[kAtoms], any = false;
#pragma unroll
    for (int k = 0; k < kAtoms; ++k) {
      r2[k] = norm2(unit_reach::image<kWrap>(p.box, b[k] - at, shift));
      take[k] = (kFromZero || r2[k] >= p.r2_min) && r2[k] < p.r2_max;  // false for NaN padding
      if (kDiagonal) take[k] = take[k] && p.tile_begin + a < j[k];
      any = any || take[k];
    }
    if (!kAll && !__any_sync(0xFFFFFFFFu, any)) continue;
#pragma unroll
    for (int k = 0; k < kAtoms; ++k) {
      if (by_table<kCounters, T, Box>(k)) {  // constant once unrolled
        const std::uint32_t edge = guessed_edge(guess, base, float(r2[k]));
        count_by_table(kAll || take[k] ? edge : spare, float(r2[k]));  // spare edges are infinite
      } else {
        const std::uint32_t counter = arithmetic_counter<kCounters>(p, base, r2[k]);
        add_one_shared<kEdgeToCounter>(kAll || take[k] ? counter : spare);
      }
    }
  }
}

// Sub-tile [a_begin, a_end) of the constant tile against blockDim * atoms_per_thread B atoms,
// without labels. A unit whose bounds put every pair in the window counts without range tests;
// one that puts none there is skipped.
template <Diagonal kPairs, Counters kCounters, class T, class Box>
__device__ __forceinline__ void count_unit_fast(const Pass<T, Box>& p, std::uint32_t* window,
                                                int a_begin, int a_end, std::int64_t j_begin,
                                                const Bounds& a_group) {
  constexpr bool kDiagonal = kPairs == Diagonal::on, kTable = kCounters == Counters::table;
  constexpr int kAtoms = atoms_per_thread<T, Box>();
  Vec3<T> b[kAtoms];
  std::int64_t j[kAtoms];
  load_b(p, j_begin, b, j);
  const Bounds b_group = bounds_of<kAtoms>(b);
  const bool padded = __any_sync(0xFFFFFFFFu, isnan(b[kAtoms - 1].x));  // the chunk's last atoms
  const unit_reach::Window<T> w = window_of(p);
  const Reach unit =
      kDiagonal || padded ? Reach::some : unit_reach::reach(p.box, w, a_group, b_group);
  if (unit == Reach::none) return;
  const std::uint32_t first = std::uint32_t(__cvta_generic_to_shared(window));
  const std::uint32_t spare =
      first + 4 * std::uint32_t(p.window_size + kSpareBegin + threadIdx.x % kWarp);
  // Address of counter (edge) 0 less 4 (magic_window_begin - shift): the arithmetic bin or the
  // table's guess, plus magic_bits, times 4 lands on its own.
  const std::uint32_t base = first - 4 * std::uint32_t(p.magic_window_begin - (kTable ? 1 : 0));
  Vec3<T> shift{};
  const auto count = [&](auto wrap) {
    constexpr Wrap kWrap = decltype(wrap)::value;
    if constexpr (!kDiagonal)
      if (unit == Reach::all)
        return count_sub_tile<Diagonal::off, kCounters, kWrap, Reach::all, LowerEdge::tested>(
            p, b, j, a_begin, a_end, base, spare, shift);
    if (p.r2_min == T(0))  // r2 >= 0 always (NaN fails the other test)
      return count_sub_tile<kPairs, kCounters, kWrap, Reach::some, LowerEdge::zero>(
          p, b, j, a_begin, a_end, base, spare, shift);
    count_sub_tile<kPairs, kCounters, kWrap, Reach::some, LowerEdge::tested>(
        p, b, j, a_begin, a_end, base, spare, shift);
  };
  if constexpr (std::is_same_v<Box, OrthorhombicBox<T>>) {
    const Wrap wrap = unit_reach::wrap_for(p.box, w, a_group, b_group, shift);
    if (wrap == Wrap::shift) return count(std::integral_constant<Wrap, Wrap::shift>());
    if (wrap == Wrap::small) return count(std::integral_constant<Wrap, Wrap::small>());
  }
  count(std::integral_constant<Wrap, Wrap::exact>());
}

// Device-memory counts (windows too wide for shared memory), by the arithmetic bins.
template <Diagonal kPairs, class T, class Box>
__device__ __forceinline__ void count_unit_fast_global(const Pass<T, Box>& p, int a_begin,
                                                       int a_end, std::int64_t j_begin) {
  constexpr bool kDiagonal = kPairs == Diagonal::on;
  constexpr int kAtoms = atoms_per_thread<T, Box>();
  Vec3<T> b[kAtoms];
  std::int64_t j[kAtoms];
  load_b(p, j_begin, b, j);
  for (int a = a_begin; a < a_end; ++a) {
    const Vec3<T> at = tile_atom(T(), a);
#pragma unroll
    for (int k = 0; k < kAtoms; ++k) {
      const T r2 = norm2(p.box.minimum_image(b[k] - at));
      bool take = r2 >= p.r2_min && r2 < p.r2_max;
      if (kDiagonal) take = take && p.tile_begin + a < j[k];
      if (take) {
        const int bin = fast_bin_plus_magic(p.range, fast_root(r2)) - magic_bits<T>;
        atomicAdd(reinterpret_cast<unsigned long long*>(p.counts) + min(bin, p.range.n_bins - 1),
                  1ull);
      }
    }
  }
}

// The same with labels and the exact replica of bin_of: pairs of every histogram.
template <Diagonal kPairs, Counters kCounters, class T, class Box>
__device__ __forceinline__ void count_unit_generic(const Pass<T, Box>& p, std::uint32_t* window,
                                                   int a_begin, int a_end, std::int64_t j_begin) {
  constexpr bool kDiagonal = kPairs == Diagonal::on, kShared = kCounters != Counters::device;
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

template <class T, class Box, Binning kBinning, Counters kCounters>
__global__ void __launch_bounds__(kMaxBlock<T>) count_pairs(const Pass<T, Box> p) {
  constexpr bool kGeneric = kBinning == Binning::generic, kShared = kCounters != Counters::device,
                 kTable = kCounters == Counters::table;
  extern __shared__ std::uint32_t window[];
  std::uint32_t* const counters = kTable ? window + kTableSlots : window;
  if constexpr (kShared) {
    for (int s = threadIdx.x; s <= p.window_size + 1; s += blockDim.x) counters[s] = 0;
    if constexpr (kTable) {
      float* const edges2 = reinterpret_cast<float*>(window);
      for (int s = threadIdx.x; s <= p.window_size + kSpareBegin + kWarp; s += blockDim.x)
        edges2[s] = s <= p.window_size ? p.edges2[p.window_begin + s] : INFINITY;
    }
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
        flush<kCounters>(counters, p);
        budget.flushed();
      }
      budget.take(unit_pairs);
    }
    if constexpr (kGeneric) {
      if (diagonal)
        count_unit_generic<Diagonal::on, kCounters>(p, window, a_begin, a_end, j_begin);
      else
        count_unit_generic<Diagonal::off, kCounters>(p, window, a_begin, a_end, j_begin);
    } else if constexpr (kShared) {
      const Bounds a_group = p.a_bounds[u / p.chunks];
      if (diagonal)
        count_unit_fast<Diagonal::on, kCounters>(p, window, a_begin, a_end, j_begin, a_group);
      else
        count_unit_fast<Diagonal::off, kCounters>(p, window, a_begin, a_end, j_begin, a_group);
    } else {
      if (diagonal)
        count_unit_fast_global<Diagonal::on>(p, a_begin, a_end, j_begin);
      else
        count_unit_fast_global<Diagonal::off>(p, a_begin, a_end, j_begin);
    }
  }
  if constexpr (kShared) flush<kCounters>(counters, p);
}

}  // namespace kmol::pair_cuda
