#include "kernels/pair_histogram/cuda/morton_order.hpp"

#include <cuda_runtime.h>

#include <cub/device/device_radix_sort.cuh>

#include <algorithm>
#include <cfloat>
#include <climits>
#include <cmath>

#include "kernels/cuda_check.hpp"

namespace kmol::pair_cuda {
namespace {

constexpr CudaCheck check{"CUDA pair histogram"};

unsigned grid_for(std::int64_t n) {
  return unsigned(std::clamp<std::int64_t>(ceil_div(n, 256), 1, 4096));
}

template <class T>
__global__ void pack(const Vec3<T>* in, std::int64_t n, Packed<T>* out, std::int64_t n_out) {
  const T nan = T(NAN);
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < n_out;
       i += std::int64_t(gridDim.x) * blockDim.x)
    out[i] = i < n ? Packed<T>{in[i].x, in[i].y, in[i].z, T(0)} : Packed<T>{nan, nan, nan, nan};
}

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

}  // namespace

template <class T>
void pack_atoms(const Vec3<T>* in, std::int64_t n, Packed<T>* out, std::int64_t n_out,
                cudaStream_t stream) {
  pack<<<grid_for(n_out), 256, 0, stream>>>(in, n, out, n_out);
  check(cudaGetLastError(), "packing atoms");
}

template <class T>
void morton_order(const Packed<T>* atoms, std::int64_t n, std::int64_t n_total, Packed<T>* sorted,
                  MortonScratch& scratch, cudaStream_t stream) {
  const int empty_box[6] = {INT_MAX, INT_MAX, INT_MAX, INT_MIN, INT_MIN, INT_MIN};
  int* box = scratch.box.reserve<int>(6);
  check(cudaMemcpyAsync(box, empty_box, sizeof(empty_box), cudaMemcpyHostToDevice, stream),
        "copy to the device");
  bounding_box<<<grid_for(n), 256, 0, stream>>>(atoms, n, box);
  std::uint32_t* keys = scratch.keys.reserve<std::uint32_t>(2 * std::size_t(n));
  std::uint32_t* order = scratch.order.reserve<std::uint32_t>(2 * std::size_t(n));
  morton_keys<<<grid_for(n), 256, 0, stream>>>(atoms, n, box, keys, order);
  check(cudaGetLastError(), "Morton keys");
  std::size_t temp_bytes = 0;
  check(cub::DeviceRadixSort::SortPairs(nullptr, temp_bytes, keys, keys + n, order, order + n,
                                        int(n), 0, 30, stream),
        "sort size");
  char* temp = scratch.temp.reserve<char>(temp_bytes);
  check(cub::DeviceRadixSort::SortPairs(temp, temp_bytes, keys, keys + n, order, order + n, int(n),
                                        0, 30, stream),
        "sorting atoms");
  gather<<<grid_for(n_total), 256, 0, stream>>>(atoms, order + n, n, n_total, sorted);
  check(cudaGetLastError(), "gathering atoms");
}

template void pack_atoms(const Vec3<float>*, std::int64_t, Packed<float>*, std::int64_t,
                         cudaStream_t);
template void pack_atoms(const Vec3<double>*, std::int64_t, Packed<double>*, std::int64_t,
                         cudaStream_t);
template void morton_order(const Packed<float>*, std::int64_t, std::int64_t, Packed<float>*,
                           MortonScratch&, cudaStream_t);
template void morton_order(const Packed<double>*, std::int64_t, std::int64_t, Packed<double>*,
                           MortonScratch&, cudaStream_t);

}  // namespace kmol::pair_cuda
