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
#include "kernels/cuda_check.hpp"
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

constexpr CudaCheck check{"CUDA pair histogram"};

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

// The bounding box of a group of atoms as centre and half extents (float: it only sorts work
// units, with slack for rounding).
struct Bounds {
  float centre[3], half[3];
};

// Float shared memory before the table kernel's counters: the window's squared edges (and the
// spare lanes' infinite ones) sit below this, the counters at the same index above it, so that
// a counter's address is its edge's plus a constant the shared atomic encodes.
constexpr int kTableSlots = 12288;

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

// Shared memory of a block: the window's counters, each at index bin - window_begin + shift, with
// shift 0, or 1 in the table kernel (whose guesses start a bin before the window); one more for
// the arithmetic bins' k = n_bins (bin_of clamps it to the last bin); then one spare counter per
// lane from index window + 2, each on its own bank (never read, so free to wrap), and one for a
// spare lane's infinite r2 that reaches its infinite edge. The table kernel keeps the squared
// edges (the spare lanes' infinite) below its counters, at the same indices.
constexpr int kSpareBegin = 2;  // window_size + this: lane 0's spare counter

std::size_t shared_bytes(std::int64_t window, bool table) {
  const std::size_t counters =
      std::size_t(window + kSpareBegin + kWarp + 1) * sizeof(std::uint32_t);
  return table ? kTableSlots * sizeof(float) + counters : counters;
}

// Adds the block's shared counters into the device totals and clears them.
template <bool kTable, class T, class Box>
__device__ void flush(std::uint32_t* counters, const Pass<T, Box>& p) {
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
template <bool kTable, class T, class Box>
__device__ __forceinline__ std::uint32_t arithmetic_counter(const Pass<T, Box>& p,
                                                            std::uint32_t base, T r2) {
  const T r = fast_root(r2);
  T m;
  if constexpr (kTable)
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
  Bounds bounds;
#pragma unroll
  for (int d = 0; d < 3; ++d) {
    for (int offset = kWarp / 2; offset > 0; offset /= 2) {
      lo[d] = fminf(lo[d], __shfl_xor_sync(0xFFFFFFFFu, lo[d], offset));
      hi[d] = fmaxf(hi[d], __shfl_xor_sync(0xFFFFFFFFu, hi[d], offset));
    }
    bounds.centre[d] = 0.5f * (lo[d] + hi[d]);
    bounds.half[d] = 0.5f * (hi[d] - lo[d]);
  }
  return bounds;
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

// Which pairs of two groups of atoms can count: none, all, or some (check each). On each axis a
// pair's minimum-image distance lies within the sum of the half extents of the distance between
// the centres (the torus distance is 1-Lipschitz); the slack (2^-12 of every length involved)
// covers rounding many times over. Triclinic minimum images are exact only within the inscribed
// radius, so those units are always checked.
enum class Reach { none, all, some };

// Bounds |x|, |y|, |z| of every atom in the group.
__device__ __forceinline__ float extent(const Bounds& g) {
  float e = 0;
  for (int d = 0; d < 3; ++d) e = fmaxf(e, fabsf(g.centre[d]) + g.half[d]);
  return e;
}

// 2^-12 of every length the pairs of two groups involve.
template <class T, class Box>
__device__ __forceinline__ T slack(const Pass<T, Box>& p, const Bounds& a, const Bounds& b) {
  T lengths = p.r_max + p.box_extent;
  for (int d = 0; d < 3; ++d)
    lengths += fabs(T(a.centre[d])) + fabs(T(b.centre[d])) + T(a.half[d]) + T(b.half[d]);
  return T(0x1p-12) * lengths;
}

template <class T, class Box>
__device__ __forceinline__ Reach reach(const Pass<T, Box>& p, const Bounds& a, const Bounds& b) {
  if constexpr (std::is_same_v<Box, TriclinicBox<T>>) {
    return Reach::some;
  } else {
    const T margin = slack(p, a, b);
    const Vec3<T> c = p.box.minimum_image(Vec3<T>{T(b.centre[0]) - T(a.centre[0]),
                                                  T(b.centre[1]) - T(a.centre[1]),
                                                  T(b.centre[2]) - T(a.centre[2])});
    const T centres[3] = {fabs(c.x), fabs(c.y), fabs(c.z)};
    T nearest2 = 0, farthest2 = 0;
    for (int d = 0; d < 3; ++d) {
      const T spread = T(a.half[d]) + T(b.half[d]) + margin;
      const T near = fmax(centres[d] - spread, T(0)), far = centres[d] + spread;
      nearest2 += near * near;
      farthest2 += far * far;
    }
    const T nearest = math::sqrt(nearest2), farthest = math::sqrt(farthest2);
    if (nearest >= p.r_max || farthest < p.r_min) return Reach::none;
    if (farthest < p.r_max && (p.r_min <= 0 || nearest >= p.r_min)) return Reach::all;
    return Reach::some;
  }
}

// floor(x) for |x| < 2^22 (float; 2^51 double) by a rounding-mode addition: math::floor runs on
// the quarter-rate conversion unit.
template <class T>
__device__ __forceinline__ T small_floor(T x) {
  return fast_binning::floor_plus_magic(x) -
         (sizeof(T) == sizeof(float) ? T(0x1.8p23) : T(0x1.8p52));
}

// How a unit takes minimum images in an orthorhombic box: as box.minimum_image does; with
// small_floor (the unit's bounds keep |d| below small_floor_bound); or, where the bounds show that
// every pair's floor(fma(d, 1/L, 1/2)) is the same on each axis, with that shift (the wrap's own
// last step).
enum class Wrap { exact, small, shift };

// box.minimum_image(d), the same value.
template <Wrap kWrap, class T, class Box>
__device__ __forceinline__ Vec3<T> image(const Box& box, Vec3<T> d, const Vec3<T>& shift) {
  if constexpr (kWrap == Wrap::exact || !std::is_same_v<Box, OrthorhombicBox<T>>) {
    return box.minimum_image(d);
  } else if constexpr (kWrap == Wrap::small) {
    const auto wrap = [](T x, T l, T inv) {
      return math::fma(-small_floor(math::fma(x, inv, T(0.5))), l, x);
    };
    return {wrap(d.x, box.length.x, box.inverse.x), wrap(d.y, box.length.y, box.inverse.y),
            wrap(d.z, box.length.z, box.inverse.z)};
  } else {
    return {math::fma(-shift.x, box.length.x, d.x), math::fma(-shift.y, box.length.y, d.y),
            math::fma(-shift.z, box.length.z, d.z)};
  }
}

// The shift of every pair of two groups on one axis, or NaN where pairs may differ: the wrap's
// floor at both ends of the range of b - a (widened by the slack; fma and floor are monotone).
template <class T>
__device__ __forceinline__ T common_shift(T centres, T spread, T inverse) {
  const T low = math::floor(math::fma(centres - spread, inverse, T(0.5)));
  const T high = math::floor(math::fma(centres + spread, inverse, T(0.5)));
  return low == high ? low : T(NAN);
}

// Whether B atom k of a thread bins by the edge table: where the table is there, every other one
// without a box, so that table pairs (an edge read and a count in shared memory) and arithmetic
// ones (a count, more instructions) keep both shared memory and the issue slots busy; all of them
// in periodic boxes, whose minimum images take issue slots enough (measured on an H200).
template <bool kTable, class T, class Box>
__device__ constexpr bool by_table(int k) {
  return kTable && (!std::is_same_v<Box, NoBox<T>> || k % 2 == 0);
}

// The pairs of sub-tile [a_begin, a_end) against this thread's B atoms. kAll: the bounds put every
// pair in the window, so none is tested. Otherwise every pair of an A atom is computed in full
// and only its count is selected; a warp skips the A atom when none of its pairs counts.
template <bool kDiagonal, bool kTable, Wrap kWrap, bool kAll, bool kFromZero, class T, class Box>
__device__ __forceinline__ void count_sub_tile(const Pass<T, Box>& p, const Vec3<T>* b,
                                               const std::int64_t* j, int a_begin, int a_end,
                                               std::uint32_t base, std::uint32_t spare,
                                               const Vec3<T>& shift) {
  constexpr int kAtoms = atoms_per_thread<T, Box>();
  constexpr int kCounters = kTable ? 4 * kTableSlots : 0;  // bytes from an edge to its counter
  const fast_binning::TableGuess guess = p.guess;
#pragma unroll 2
  for (int a = a_begin; a < a_end; ++a) {
    const Vec3<T> at = tile_atom(T(), a);
    T r2[kAtoms];
    bool take[kAtoms], any = false;
#pragma unroll
    for (int k = 0; k < kAtoms; ++k) {
      r2[k] = norm2(image<kWrap>(p.box, b[k] - at, shift));
      take[k] = (kFromZero || r2[k] >= p.r2_min) && r2[k] < p.r2_max;  // false for NaN padding
      if (kDiagonal) take[k] = take[k] && p.tile_begin + a < j[k];
      any = any || take[k];
    }
    if (!kAll && !__any_sync(0xFFFFFFFFu, any)) continue;
#pragma unroll
    for (int k = 0; k < kAtoms; ++k) {
      if (by_table<kTable, T, Box>(k)) {  // constant once unrolled
        const std::uint32_t edge = guessed_edge(guess, base, float(r2[k]));
        count_by_table(kAll || take[k] ? edge : spare, float(r2[k]));  // spare edges are infinite
      } else {
        const std::uint32_t counter = arithmetic_counter<kTable>(p, base, r2[k]);
        add_one_shared<kCounters>(kAll || take[k] ? counter : spare);
      }
    }
  }
}

// Sub-tile [a_begin, a_end) of the constant tile against blockDim * atoms_per_thread B atoms,
// without labels. A unit whose bounds put every pair in the window counts without range tests;
// one that puts none there is skipped.
template <bool kDiagonal, bool kTable, class T, class Box>
__device__ __forceinline__ void count_unit_fast(const Pass<T, Box>& p, std::uint32_t* window,
                                                int a_begin, int a_end, std::int64_t j_begin,
                                                const Bounds& a_group) {
  constexpr int kAtoms = atoms_per_thread<T, Box>();
  Vec3<T> b[kAtoms];
  std::int64_t j[kAtoms];
  load_b(p, j_begin, b, j);
  const Bounds b_group = bounds_of<kAtoms>(b);
  const bool padded = __any_sync(0xFFFFFFFFu, isnan(b[kAtoms - 1].x));  // the chunk's last atoms
  const Reach unit = kDiagonal || padded ? Reach::some : reach(p, a_group, b_group);
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
        return count_sub_tile<false, kTable, kWrap, true, false>(p, b, j, a_begin, a_end, base,
                                                                 spare, shift);
    if (p.r2_min == T(0))  // r2 >= 0 always (NaN fails the other test)
      return count_sub_tile<kDiagonal, kTable, kWrap, false, true>(p, b, j, a_begin, a_end, base,
                                                                   spare, shift);
    count_sub_tile<kDiagonal, kTable, kWrap, false, false>(p, b, j, a_begin, a_end, base, spare,
                                                           shift);
  };
  if constexpr (std::is_same_v<Box, OrthorhombicBox<T>>) {
    const T margin = slack(p, a_group, b_group);
    const T inverse[3] = {p.box.inverse.x, p.box.inverse.y, p.box.inverse.z};
    T n[3];
    for (int d = 0; d < 3; ++d)
      n[d] = common_shift(T(b_group.centre[d]) - T(a_group.centre[d]),
                          T(a_group.half[d]) + T(b_group.half[d]) + margin, inverse[d]);
    shift = {n[0], n[1], n[2]};
    if (!isnan(shift.x) && !isnan(shift.y) && !isnan(shift.z))
      return count(std::integral_constant<Wrap, Wrap::shift>());
    if (extent(a_group) + extent(b_group) < p.small_floor_bound)
      return count(std::integral_constant<Wrap, Wrap::small>());
  }
  count(std::integral_constant<Wrap, Wrap::exact>());
}

// Device-memory counts (windows too wide for shared memory), by the arithmetic bins.
template <bool kDiagonal, class T, class Box>
__device__ __forceinline__ void count_unit_fast_global(const Pass<T, Box>& p, int a_begin,
                                                       int a_end, std::int64_t j_begin) {
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

template <class T, class Box, bool kGeneric, bool kShared, bool kTable>
__global__ void __launch_bounds__(kMaxBlock<T>) count_pairs(const Pass<T, Box> p) {
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
        flush<kTable>(counters, p);
        budget.flushed();
      }
      budget.take(unit_pairs);
    }
    if constexpr (kGeneric) {
      if (diagonal)
        count_unit_generic<true, kShared>(p, window, a_begin, a_end, j_begin);
      else
        count_unit_generic<false, kShared>(p, window, a_begin, a_end, j_begin);
    } else if constexpr (kShared) {
      const Bounds a_group = p.a_bounds[u / p.chunks];
      if (diagonal)
        count_unit_fast<true, kTable>(p, window, a_begin, a_end, j_begin, a_group);
      else
        count_unit_fast<false, kTable>(p, window, a_begin, a_end, j_begin, a_group);
    } else {
      if (diagonal)
        count_unit_fast_global<true>(p, a_begin, a_end, j_begin);
      else
        count_unit_fast_global<false>(p, a_begin, a_end, j_begin);
    }
  }
  if constexpr (kShared) flush<kTable>(counters, p);
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
  bool table = false;       // fast kernel binning against squared edges held in shared memory
  std::int64_t window = 0;  // flattened bins per sweep
  std::int64_t sweeps = 1;
  int block = 0, blocks_per_sm = 0, grid = 0;
  int atoms_per_thread = 0;    // of B
  int tile = 0, sub_tile = 0;  // A atoms per constant tile and per work unit
};

// The longest edge of a periodic box (0 for none), a length scale for the bounds' slack.
double longest_edge(const BoxSpec& box) {
  double longest = 0;
  if (box.kind != BoxKind::none)
    for (const Vec3<double>& e : box.edges) longest = std::max(longest, std::sqrt(norm2(e)));
  return longest;
}

void refuse(const std::string& why) {
  throw std::invalid_argument("CUDA pair histogram: forced launch: " + why);
}

template <class T>
bool table_kernel_exact(const HistogramRange<T>& range) {
  if constexpr (sizeof(T) == sizeof(float))
    return fast_binning::table_guess_exact(range);
  else
    return false;
}

template <class T, class Box, bool kGeneric>
using Kernel = void (*)(Pass<T, Box>);

template <class T, class Box, bool kGeneric>
Kernel<T, Box, kGeneric> kernel_for(const Launch& l) {
  if constexpr (!kGeneric && sizeof(T) == sizeof(float))
    if (l.table) return &count_pairs<T, Box, false, true, true>;
  return l.shared ? &count_pairs<T, Box, kGeneric, true, false>
                  : &count_pairs<T, Box, kGeneric, false, false>;
}

// The fast float kernel bins against the edge table where its window fits (all bins in one sweep
// unless a window is forced); otherwise shared windows take as many bins as one block may hold.
// The block size keeps the most threads resident (ties: smaller blocks, so more window copies
// and finer balance); the sub-tile gives every block kUnitsPerBlock units per tile where the
// problem is large enough. Parameters in `forced` replace those choices (a forced window always
// counts in shared memory).
template <class T, class Box, bool kGeneric>
Launch tune(const Device& device, const HistogramRange<T>& range, std::int64_t flat_bins,
            std::int64_t tile_atoms, std::int64_t b_atoms,
            const PairHistogramLaunchOverride& forced) {
  Launch l;
  const std::int64_t max_window =
      std::int64_t(device.shared_per_block / sizeof(std::uint32_t)) - kSpareBegin - kWarp - 1;
  const std::int64_t table_window = std::min<std::int64_t>(kTableSlots - kSpareBegin - kWarp - 1,
                                                           max_window - std::int64_t(kTableSlots));
  if (forced.bins_per_sweep > max_window)
    refuse(std::to_string(forced.bins_per_sweep) + " bins per sweep exceed the " +
           std::to_string(max_window) + " a block's shared memory holds");
  const std::int64_t wanted = forced.bins_per_sweep > 0 ? forced.bins_per_sweep : flat_bins;
  l.table = !kGeneric && table_kernel_exact(range) && wanted <= table_window;
  l.sweeps = ceil_div(flat_bins, l.table || forced.bins_per_sweep > 0 ? wanted : max_window);
  l.shared = l.table || forced.bins_per_sweep > 0 ||
             l.sweeps <= (kGeneric ? kMaxSweepsGeneric : kMaxSweepsFast);
  l.window = l.shared ? ceil_div(flat_bins, l.sweeps) : flat_bins;
  if (!l.shared) l.sweeps = 1;
  const auto kernel = reinterpret_cast<const void*>(kernel_for<T, Box, kGeneric>(l));
  const std::size_t bytes = l.shared ? shared_bytes(l.window, l.table) : 0;
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
  // Periodic units sort best with small bounds; without a box the bounds usually hold every pair.
  if (!kGeneric && !std::is_same_v<Box, NoBox<T>>) l.sub_tile = std::min(l.sub_tile, kMinSubTile);
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
    return s + ", shared-memory counts" + (l.table ? " with the squared-edge table, " : ", ") +
           std::to_string(l.window) + " bins per sweep x " + std::to_string(l.sweeps);
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
  const Launch l = tune<T, Box, kGeneric>(device, job.range, flat_bins, job.n_a,
                                          job.one_set ? n_b / 2 + 1 : n_b, job.launch);
  const std::int64_t chunk = std::int64_t(l.block) * l.atoms_per_thread;

  // One set in a box keeps its order: the minimum image of b - a and of a - b can differ in
  // length right at half a box, so a pair's two atoms must not trade places.
  const bool sort = !kGeneric && n_b >= kMinSorted && n_b <= INT_MAX &&
                    (!job.one_set || job.box.kind == BoxKind::none);
  DeviceArray<Packed<T>> unsorted = upload_packed(job.one_set ? job.a : job.b, n_b, chunk, stream);
  const DeviceArray<Packed<T>> b =
      sort ? morton_sorted(unsorted, n_b, n_b + chunk, stream) : std::move(unsorted);
  // Two sets: A in Morton order too, so that a sub-tile's atoms lie close together and whole
  // units are found to count entirely or not at all (reach).
  const bool sort_a = sort && !job.one_set && job.n_a >= kMinSorted && job.n_a <= INT_MAX;
  DeviceArray<Packed<T>> a_given =
      job.one_set ? DeviceArray<Packed<T>>(0, stream) : upload_packed(job.a, job.n_a, 0, stream);
  const DeviceArray<Packed<T>> a_own =
      sort_a ? morton_sorted(a_given, job.n_a, job.n_a, stream) : std::move(a_given);
  const Packed<T>* a = job.one_set ? b.get() : a_own.get();
  const DeviceArray<Bounds> a_bounds(kGeneric ? 0 : ceil_div(l.tile, l.sub_tile), stream);
  std::vector<float> host_edges2;
  if constexpr (sizeof(T) == sizeof(float))
    if (l.table) host_edges2 = fast_binning::edge_thresholds(job.range);
  const auto edges2 = upload(host_edges2.empty() ? nullptr : host_edges2.data(),
                             std::int64_t(host_edges2.size()), stream);

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
  p.a_bounds = a_bounds.get();
  p.edges2 = edges2.get();
  p.box_extent = T(longest_edge(job.box));
  if (job.box.kind == BoxKind::orthorhombic)
    p.small_floor_bound =
        float(0x1p20 * std::min({job.box.edges[0].x, job.box.edges[1].y, job.box.edges[2].z}));
  if constexpr (sizeof(T) == sizeof(float)) p.guess = fast_binning::TableGuess(job.range);
  p.sub_tile = l.sub_tile;
  p.one_set = job.one_set;
  p.counts = counts.get();
  const auto kernel = kernel_for<T, Box, kGeneric>(l);
  for (p.tile_begin = 0; p.tile_begin < job.n_a; p.tile_begin += l.tile) {
    p.b_begin = job.one_set ? p.tile_begin + 1 : 0;
    if (p.b_begin >= n_b) break;
    p.tile_size = int(std::min<std::int64_t>(l.tile, job.n_a - p.tile_begin));
    check(cudaMemcpyToSymbolAsync(c_tile, a + p.tile_begin, p.tile_size * sizeof(Packed<T>), 0,
                                  cudaMemcpyDeviceToDevice, stream),
          "copy to constant memory");
    p.chunks = int(ceil_div(n_b - p.b_begin, chunk));
    p.sub_tiles = int(ceil_div(p.tile_size, l.sub_tile));
    if (!kGeneric) {
      sub_tile_bounds<<<p.sub_tiles, kWarp, 0, stream>>>(a + p.tile_begin, p.tile_size, l.sub_tile,
                                                         a_bounds.get());
      check(cudaGetLastError(), "sub-tile bounds");
    }
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
      p.r_min = job.range.edge(std::int32_t(first));
      p.r_max = job.range.edge(std::int32_t(last));
      p.r2_min = square_threshold(p.r_min);
      p.r2_max = square_threshold(p.r_max);
      const std::size_t bytes = l.shared ? shared_bytes(p.window_size, l.table) : 0;
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
  return pair_histogram_cuda_region(job, stream, 0,
                                    std::int64_t(job.n_histograms) * job.range.n_bins);
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
template std::string pair_histogram_cuda_region<double>(const PairHistogramJob<double>&,
                                                        cudaStream_t, std::int64_t, std::int64_t);

}  // namespace kmol
