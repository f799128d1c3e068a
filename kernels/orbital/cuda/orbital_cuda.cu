#include <cuda_runtime.h>

#include <algorithm>
#include <mutex>
#include <stdexcept>
#include <string>

#include "kernels/cuda_check.hpp"
#include "kernels/cuda_pieces.hpp"
#include "kernels/orbital/cuda/orbital_cuda.hpp"
#include "kernels/orbital/evaluator.hpp"

namespace kmol {
namespace {

constexpr int kThreadsX = 32, kRows = 4, kPoints = 4;  // a block: 4 rows x 128 points
constexpr std::int64_t kConstantBytes = 64 * 1024;

constexpr CudaCheck check{"CUDA orbital"};

__constant__ double
    c_tables[kConstantBytes / sizeof(double)];  // double: 8-byte alignment for the sections
std::mutex c_tables_mutex;                      // one bank per device: calls take turns

struct Geometry {
  long long nx, ny, k0;  // k0: the launch's first plane (blockIdx.z = 0)
};

template <class T, bool Constant>
__global__ void __launch_bounds__(kThreadsX* kRows)
    orbital_kernel(orbital::TableLayout layout, const unsigned char* __restrict__ global,
                   Geometry g, T h, T* __restrict__ out) {
  const unsigned char* base = Constant ? reinterpret_cast<const unsigned char*>(c_tables) : global;
  const orbital::OrbitalTables<T> t = orbital::tables_at<T>(base, layout);
  const long long j = (long long)blockIdx.y * kRows + threadIdx.y, k = g.k0 + blockIdx.z;
  if (j >= g.ny) return;
  const long long i0 = (long long)blockIdx.x * (kThreadsX * kPoints) + threadIdx.x;
  const T py = T(j) * h, pz = T(k) * h;
  T px[kPoints], psi[kPoints];
#pragma unroll
  for (int m = 0; m < kPoints; ++m) {
    px[m] = T(i0 + m * kThreadsX) * h;
    psi[m] = 0;
  }
  for (int a = 0; a < t.atoms; ++a) {
    const T ax = t.xyz[3 * a], dy = py - t.xyz[3 * a + 1], dz = pz - t.xyz[3 * a + 2];
    const T across = math::fma(dy, dy, dz * dz);
    T dx[kPoints], r2[kPoints];
#pragma unroll
    for (int m = 0; m < kPoints; ++m) {
      dx[m] = px[m] - ax;
      r2[m] = math::fma(dx[m], dx[m], across);
    }
    const int s_end = t.atom_shells[a + 1];
    for (int s = t.atom_shells[a]; s < s_end; ++s) {
      T radial[kPoints];
#pragma unroll
      for (int m = 0; m < kPoints; ++m) radial[m] = 0;
      const int p_end = t.shell_prims[s + 1];
      for (int p = t.shell_prims[s]; p < p_end; ++p) {
        const T minus_alpha = -t.alpha[p], d = t.d[p];
#pragma unroll
        for (int m = 0; m < kPoints; ++m)
          radial[m] = math::fma(d, orbital::exp2_(minus_alpha * r2[m]), radial[m]);
      }
      const int l = t.shell_l[s];
      const T* c = t.coef + t.shell_coef[s];
#pragma unroll
      for (int m = 0; m < kPoints; ++m)
        psi[m] = math::fma(radial[m], orbital::angular(l, dx[m], dy, dz, c), psi[m]);
    }
  }
  const long long row = (k * g.ny + j) * g.nx;
#pragma unroll
  for (int m = 0; m < kPoints; ++m) {
    const long long i = i0 + m * kThreadsX;
    if (i < g.nx) out[row + i] = psi[m];
  }
}

}  // namespace

template <class T>
std::string orbital_cuda(const orbital::PackedTables& tables, const Grid& lattice, T* values,
                         std::int64_t constant_limit, cudaStream_t stream) {
  const std::int64_t points = lattice.points();
  if (lattice.counts[2] > 65535)
    throw std::runtime_error("CUDA orbital: more than 65,535 lattice planes");
  const bool constant = tables.layout.bytes <= std::min(constant_limit, kConstantBytes);
  T* out = nullptr;
  unsigned char* global = nullptr;
  check(cudaMallocAsync(&out, std::size_t(points) * sizeof(T), stream), "allocate the map");
  if (!constant) {
    check(cudaMallocAsync(&global, tables.bytes.size(), stream), "allocate the tables");
    check(cudaMemcpyAsync(global, tables.bytes.data(), tables.bytes.size(), cudaMemcpyHostToDevice,
                          stream),
          "copy the tables");
  }
  const dim3 threads(kThreadsX, kRows);
  const unsigned blocks_x =
      unsigned((lattice.counts[0] + kThreadsX * kPoints - 1) / (kThreadsX * kPoints));
  const unsigned blocks_y = unsigned((lattice.counts[1] + kRows - 1) / kRows);
  // Planes in pieces a cancel can stop between; a cancelled call frees what it allocated.
  const auto planes = [&](std::int64_t first, std::int64_t end) {
    const Geometry g{lattice.counts[0], lattice.counts[1], first};
    const dim3 blocks(blocks_x, blocks_y, unsigned(end - first));
    if (constant)
      orbital_kernel<T, true>
          <<<blocks, threads, 0, stream>>>(tables.layout, nullptr, g, T(lattice.spacing[0]), out);
    else
      orbital_kernel<T, false>
          <<<blocks, threads, 0, stream>>>(tables.layout, global, g, T(lattice.spacing[0]), out);
    check(cudaGetLastError(), "kernel launch");
  };
  try {
    std::lock_guard<std::mutex> lock(c_tables_mutex);
    if (constant)
      check(cudaMemcpyToSymbolAsync(c_tables, tables.bytes.data(), tables.bytes.size(), 0,
                                    cudaMemcpyHostToDevice, stream),
            "copy the tables to constant memory");
    launch_in_pieces_on(stream, lattice.counts[2],
                        std::int64_t(blocks_x) * blocks_y * kThreadsX * kRows, "the orbital map",
                        planes);
  } catch (...) {
    cudaFreeAsync(out, stream);
    if (global) cudaFreeAsync(global, stream);
    cudaStreamSynchronize(stream);
    throw;
  }
  check(
      cudaMemcpyAsync(values, out, std::size_t(points) * sizeof(T), cudaMemcpyDeviceToHost, stream),
      "copy the map back");
  check(cudaFreeAsync(out, stream), "free the map");
  if (global) check(cudaFreeAsync(global, stream), "free the tables");
  check(cudaStreamSynchronize(stream), "copy the map back");
  return std::string("cuda: ") +
         (constant ? "tables in constant memory (" : "tables in global memory via L1 (") +
         std::to_string(tables.layout.bytes) + " bytes), " + std::to_string(kPoints) +
         " points per thread, blocks of " + std::to_string(kRows) + " x " +
         std::to_string(kThreadsX * kPoints);
}

template std::string orbital_cuda(const orbital::PackedTables&, const Grid&, float*, std::int64_t,
                                  cudaStream_t);
template std::string orbital_cuda(const orbital::PackedTables&, const Grid&, double*, std::int64_t,
                                  cudaStream_t);

}  // namespace kmol
