// Direct Coulomb and mdh maps in raw CUDA, after VMD's direct Coulomb summation kernel.
//
// A tile of atoms (x, y, z, q) fills the 64 KiB __constant__ bank (this unit includes no Kokkos,
// which would reserve half of it). Each block copies it, kStaged atoms at a time, into shared
// memory, where every thread of a warp reads the same atom at once, a broadcast: read straight
// from the bank, the tile is too large for the constant cache once a dozen blocks per SM walk it
// at their own pace, and misses stalled the warps for most of their time (Nsight Compute on an
// H200). A thread owns kPoints lattice points of one row, kThreadsX apart so that a warp's
// stores are coalesced; per atom it computes the squared distance to the row's line once and
// reuses it for all its points. Tiles are launched in turn, each adding to the sums (and carries,
// when compensated) kept in device memory, in pieces of tiles a cancel can stop between.
#include <cuda_runtime.h>

#include <algorithm>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/coulomb/cuda/coulomb_cuda.hpp"
#include "kernels/coulomb/evaluator.hpp"
#include "kernels/coulomb/point_table.hpp"
#include "kernels/cuda_check.hpp"
#include "kernels/cuda_device_mutex.hpp"
#include "kernels/cuda_pieces.hpp"

namespace kmol {
namespace {

using coulomb::Summation;
using coulomb::Term;

constexpr int kThreadsX = 32, kRows = 4, kPoints = 8;  // a block: 4 rows x 256 points
constexpr int kStaged = 256;                           // atoms per shared-memory copy
constexpr std::size_t kConstantBytes = 64 * 1024;

constexpr CudaCheck check{"CUDA potential"};

template <class T>
struct alignas(4 * sizeof(T)) Atom4 {
  T x, y, z, q;
};

union ConstantTile {
  Atom4<float> f[kConstantBytes / sizeof(Atom4<float>)];
  Atom4<double> d[kConstantBytes / sizeof(Atom4<double>)];
};
__constant__ ConstantTile c_atoms;
PerDeviceMutex c_atoms_mutex;  // one bank per device: calls take turns

__device__ __forceinline__ const Atom4<float>& tile_atom(float, int i) { return c_atoms.f[i]; }
__device__ __forceinline__ const Atom4<double>& tile_atom(double, int i) { return c_atoms.d[i]; }

template <int Axis, class T>
__device__ __forceinline__ T component(const Atom4<T>& a) {
  return Axis == 0 ? a.x : Axis == 1 ? a.y : a.z;
}

struct BlockGeometry {
  long long begin[3], size[3];
};

// Blocks an SM must hold at once: with 16, a plain single-precision map of 2 million points in
// rows along x is one full wave of blocks on 132 SMs, where 12 (at the 36 registers the compiler
// chose alone) left a second wave a third full for every atom tile. Rows along y or z need more
// registers for their indexing and would spill inside the loop.
template <class T, Summation S, int Axis>
constexpr int kMinBlocks = sizeof(T) == 4 && (S == Summation::plain) && Axis == 0 ? 16 : 1;

// Rows run along Axis; B1 < B2 are the other two axes (blockIdx.y / threadIdx.y and blockIdx.z).
template <class T, Term K, Summation S, int Axis>
__global__ void __launch_bounds__(kThreadsX* kRows, (kMinBlocks<T, S, Axis>))
    all_atoms_kernel(BlockGeometry g, int n_tile, T h, T kappa, T* __restrict__ sum,
                     T* __restrict__ carry) {
  constexpr int B1 = Axis == 0 ? 1 : 0, B2 = Axis == 2 ? 1 : 2;
  __shared__ Atom4<T> staged[kStaged];
  const long long v = (long long)blockIdx.y * kRows + threadIdx.y, w = blockIdx.z;
  const bool row_exists = v < g.size[B1];  // no early return: the block stages atoms together
  const long long u0 = (long long)blockIdx.x * (kThreadsX * kPoints) + threadIdx.x;
  const T p1 = T(g.begin[B1] + v) * h, p2 = T(g.begin[B2] + w) * h;
  long long local[3];
  local[B1] = v;
  local[B2] = w;
  local[Axis] = 0;
  const long long row = local[0] + g.size[0] * (local[1] + g.size[1] * local[2]);
  const long long stride = Axis == 0 ? 1 : Axis == 1 ? g.size[0] : g.size[0] * g.size[1];
  // The thread's points along the row: pu0 + m * step. Offsets from pu0, not kPoints coordinates,
  // keep the kernel within the 32 registers that 16 blocks per SM allow.
  const T pu0 = T(g.begin[Axis] + u0) * h, step = T(kThreadsX) * h;
  coulomb::Accumulator<T, S> acc[kPoints];
#pragma unroll
  for (int m = 0; m < kPoints; ++m) {
    const long long u = u0 + m * kThreadsX;
    if (row_exists && u < g.size[Axis]) {
      acc[m].sum = sum[row + u * stride];
      if (S == Summation::compensated) acc[m].carry = carry[row + u * stride];
    }
  }
  const int thread = threadIdx.y * kThreadsX + threadIdx.x;
  for (int first = 0; first < n_tile; first += kStaged) {
    const int n_staged = min(kStaged, n_tile - first);
    __syncthreads();  // the previous atoms are summed
    for (int a = thread; a < n_staged; a += kThreadsX * kRows)
      staged[a] = tile_atom(T(), first + a);
    __syncthreads();
    for (int a = 0; a < n_staged; ++a) {
      const Atom4<T> atom = staged[a];
      const T d1 = component<B1>(atom) - p1, d2 = component<B2>(atom) - p2;
      const T across2 = math::fma(d1, d1, d2 * d2);
      const T along0 = component<Axis>(atom) - pu0;
#pragma unroll
      for (int m = 0; m < kPoints; ++m) {
        const T d = math::fma(T(-m), step, along0);
        const T r2 = math::fma(d, d, across2);
        acc[m].add(K == Term::mdh ? coulomb::mdh_term(atom.q, r2, kappa)
                                  : coulomb::direct_term(atom.q, r2));
      }
    }
  }
#pragma unroll
  for (int m = 0; m < kPoints; ++m) {
    const long long u = u0 + m * kThreadsX;
    if (row_exists && u < g.size[Axis]) {
      sum[row + u * stride] = acc[m].sum;
      if (S == Summation::compensated) carry[row + u * stride] = acc[m].carry;
    }
  }
}

// A compensated sum's value is its sum less the carry (Accumulator::value).
template <class T>
__global__ void give_back_carries(T* sum, const T* carry, long long n) {
  const long long p = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (p < n) sum[p] -= carry[p];
}

template <class T, Term K, Summation S>
void launch(const LatticeBlock& b, int n_tile, T h, T kappa, T* sum, T* carry,
            cudaStream_t stream) {
  BlockGeometry g{};
  for (int d = 0; d < 3; ++d) {
    g.begin[d] = b.begin[d];
    g.size[d] = b.size[d];
  }
  const int ax = b.row_axis, b1 = ax == 0 ? 1 : 0, b2 = ax == 2 ? 1 : 2;
  if (b.size[b2] > 65535)
    throw std::runtime_error("CUDA potential: more than 65,535 lattice planes");
  const dim3 threads(kThreadsX, kRows);
  const dim3 blocks(unsigned((b.size[ax] + kThreadsX * kPoints - 1) / (kThreadsX * kPoints)),
                    unsigned((b.size[b1] + kRows - 1) / kRows), unsigned(b.size[b2]));
  if (ax == 0)
    all_atoms_kernel<T, K, S, 0><<<blocks, threads, 0, stream>>>(g, n_tile, h, kappa, sum, carry);
  else if (ax == 1)
    all_atoms_kernel<T, K, S, 1><<<blocks, threads, 0, stream>>>(g, n_tile, h, kappa, sum, carry);
  else
    all_atoms_kernel<T, K, S, 2><<<blocks, threads, 0, stream>>>(g, n_tile, h, kappa, sum, carry);
  check(cudaGetLastError(), "kernel launch");
}

template <class T, Term K, Summation S>
void run_all(const CoulombJob<T>& job, const std::vector<Atom4<T>>& atoms, T* sum, T* carry,
             const coulomb::PointTable& table, cudaStream_t stream) {
  constexpr int per_tile = int(kConstantBytes / sizeof(Atom4<T>));
  // Tiles in pieces a cancel can stop between; each tile's launches cover the whole lattice.
  const auto tiles = [&](std::int64_t first_tile, std::int64_t end_tile) {
    for (std::int64_t first = first_tile * per_tile; first < std::min(job.n, end_tile * per_tile);
         first += per_tile) {
      const int n_tile = int(std::min<std::int64_t>(per_tile, job.n - first));
      // The previous tile's kernels must be done with the bank before it is overwritten (stream
      // order).
      check(cudaMemcpyToSymbolAsync(c_atoms, atoms.data() + first, n_tile * sizeof(Atom4<T>), 0,
                                    cudaMemcpyHostToDevice, stream),
            "copy atom tile");
      for (int b = 0; b < table.count; ++b)
        launch<T, K, S>(job.blocks[b], n_tile, job.spacing, job.kappa, sum + table.first[b],
                        carry ? carry + table.first[b] : nullptr, stream);
    }
  };
  launch_in_pieces_on(stream, (job.n + per_tile - 1) / per_tile, table.points() / kPoints,
                      "the potential map", tiles);
}

}  // namespace

template <class T>
std::string coulomb_cuda_all_atoms(const CoulombJob<T>& job, cudaStream_t stream) {
  const auto table = coulomb::PointTable::of(job);
  std::vector<Atom4<T>> atoms(job.n);
  for (std::int64_t a = 0; a < job.n; ++a)
    atoms[a] = {job.coords[0][a], job.coords[1][a], job.coords[2][a], job.charges[a]};
  const std::size_t bytes = std::size_t(table.points()) * sizeof(T);
  T *sum = nullptr, *carry = nullptr;
  check(cudaMallocAsync(&sum, bytes * (job.compensated ? 2 : 1), stream), "allocate the map");
  if (job.compensated) carry = sum + table.points();
  check(cudaMemsetAsync(sum, 0, bytes * (job.compensated ? 2 : 1), stream), "clear the map");
  try {
    std::lock_guard<std::mutex> lock(c_atoms_mutex.current());
    const bool mdh = job.method == CoulombMethod::mdh;
    coulomb::with_options(mdh, job.compensated, [&](auto k, auto s) {
      run_all<T, decltype(k)::value, decltype(s)::value>(job, atoms, sum, carry, table, stream);
    });
    if (job.compensated) {
      give_back_carries<<<unsigned((table.points() + 255) / 256), 256, 0, stream>>>(sum, carry,
                                                                                    table.points());
      check(cudaGetLastError(), "kernel launch");
    }
    check(cudaStreamSynchronize(stream), "run the kernels");
  } catch (...) {  // a cancel between tiles, or a failed call: the map is freed
    cudaFreeAsync(sum, stream);
    cudaStreamSynchronize(stream);
    throw;
  }
  std::vector<T> flat(std::size_t(table.points()));
  const std::int64_t counts[3] = {job.counts[0], job.counts[1], job.counts[2]};
  const bool whole = table.is_whole(counts);
  T* host = whole ? job.values : flat.data();
  check(cudaMemcpyAsync(host, sum, bytes, cudaMemcpyDeviceToHost, stream), "copy the map back");
  check(cudaFreeAsync(sum, stream), "free the map");
  check(cudaStreamSynchronize(stream), "copy the map back");
  if (!whole)
    for (std::int64_t p = 0; p < table.points(); ++p) {
      std::int64_t ijk[3];
      table.locate(p, ijk);
      job.values[job.index(ijk[0], ijk[1], ijk[2])] = flat[p];
    }
  const int per_tile = int(kConstantBytes / sizeof(Atom4<T>));
  return "cuda: " + std::to_string(per_tile) + "-atom constant tiles, " + std::to_string(kPoints) +
         " points per thread, blocks of " + std::to_string(kRows) + " x " +
         std::to_string(kThreadsX * kPoints);
}

template std::string coulomb_cuda_all_atoms(const CoulombJob<float>&, cudaStream_t);
template std::string coulomb_cuda_all_atoms(const CoulombJob<double>&, cudaStream_t);

}  // namespace kmol
