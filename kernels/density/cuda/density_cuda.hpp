#pragma once
// Gaussian density in raw CUDA (no Kokkos in the unit): the same cells and sums as the portable
// engine, with the atoms gathered as float4 records (x, y, z, factor) in cell order and read
// through the read-only cache, and 2-D blocks of x runs so that a block's threads walk the same
// cells at once.
#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>

#include "kernels/density/job.hpp"

namespace kmol::density {

// Computes the job's slab on `stream` into host memory `out` (slab_points() floats, or binary16
// bits when `half`), returning the launch description.
std::string density_cuda(const DensityJob& job, bool half, void* out, cudaStream_t stream);

}  // namespace kmol::density
