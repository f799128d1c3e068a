#pragma once
// The device memory of one raw CUDA pair-histogram call, leased from cuda_staging's pool: buffers
// grow on demand and are kept for the next call, so a trajectory's frames pay no allocations.
// Concurrent callers (the worker pool's devices) lease workspaces of their own.
#include <cuda_runtime_api.h>

#include <cstdint>

#include "kernels/cuda_check.hpp"
#include "kernels/cuda_staging.hpp"
#include "kernels/pair_histogram/cuda/kernel_shape.hpp"
#include "kernels/pair_histogram/cuda/morton_order.hpp"

namespace kmol::pair_cuda {

struct PairHistogramWorkspace {
  cuda_staging::DeviceBuffer raw_a, raw_b;        // coordinates as the job gives them
  cuda_staging::DeviceBuffer a, b;                // packed, B padded to whole chunks
  cuda_staging::DeviceBuffer sorted_a, sorted_b;  // in Morton order
  cuda_staging::DeviceBuffer bounds, edges2, counts;
  cuda_staging::DeviceBuffer species, enabled, molecule_a, molecule_b;
  MortonScratch morton;
};

// host[0, n) copied into `buffer`; nullptr for a null host pointer (an absent label).
template <class U>
const U* upload(cuda_staging::DeviceBuffer& buffer, const U* host, std::int64_t n,
                cudaStream_t stream) {
  if (host == nullptr || n <= 0) return nullptr;
  U* device = buffer.reserve<U>(std::size_t(n));
  constexpr CudaCheck check{"CUDA pair histogram"};
  check(cudaMemcpyAsync(device, host, std::size_t(n) * sizeof(U), cudaMemcpyHostToDevice, stream),
        "copy to the device");
  return device;
}

// host[0, n) packed into `packed`, with `padding` NaN atoms after them.
template <class T>
Packed<T>* upload_packed(cuda_staging::DeviceBuffer& raw, cuda_staging::DeviceBuffer& packed,
                         const Vec3<T>* host, std::int64_t n, std::int64_t padding,
                         cudaStream_t stream) {
  const Vec3<T>* device = upload(raw, host, n, stream);
  Packed<T>* out = packed.reserve<Packed<T>>(std::size_t(n + padding));
  pack_atoms(device, n, out, n + padding, stream);
  return out;
}

}  // namespace kmol::pair_cuda
