#pragma once
// Gaussian density in raw CUDA (no Kokkos in the unit): the same cells and sums as the portable
// engine, with the atoms gathered as float4 records (x, y, z, factor) in cell order and read
// through the read-only cache, and 2-D blocks of x runs so that a block's threads walk the same
// cells at once.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

#include "kernels/density/job.hpp"

namespace kmol::density {

// Copies bytes between host buffers (page-locked staging and the caller's), with the caller's
// threads.
using HostCopy = std::function<void(void* to, const void* from, std::size_t bytes)>;

// Computes the job's slab on `stream` into host memory `out` (slab_points() floats, or binary16
// bits when `half`), returning the launch description.
std::string density_cuda(const DensityJob& job, bool half, void* out, cudaStream_t stream,
                         const HostCopy& host_copy);

}  // namespace kmol::density
