#pragma once
// Atoms packed for the raw CUDA pair-histogram kernels, and Morton order: sorting atoms along a
// space-filling curve puts a warp's atoms close together, so for most partners either none or
// several of their pairs count. Only the order of pairs changes, never a pair's arithmetic.
#include <cuda_runtime_api.h>

#include <cstdint>

#include "kernels/cuda_staging.hpp"
#include "kernels/pair_histogram/cuda/kernel_shape.hpp"
#include "kmol/core/vec3.hpp"

namespace kmol::pair_cuda {

// Device buffers the sort works in, kept between calls.
struct MortonScratch {
  cuda_staging::DeviceBuffer box, keys, order, temp;
};

// out[0, n) = in[0, n) packed, out[n, n_out) NaN atoms (never in range).
template <class T>
void pack_atoms(const Vec3<T>* in, std::int64_t n, Packed<T>* out, std::int64_t n_out,
                cudaStream_t stream);

// sorted[0, n) = atoms[0, n) in Morton order; sorted[n, n_total) = atoms[n, n_total).
template <class T>
void morton_order(const Packed<T>* atoms, std::int64_t n, std::int64_t n_total, Packed<T>* sorted,
                  MortonScratch& scratch, cudaStream_t stream);

}  // namespace kmol::pair_cuda
