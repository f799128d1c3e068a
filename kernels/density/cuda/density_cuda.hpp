#pragma once
// Gaussian density in raw CUDA (no Kokkos in the unit): the same cells and sums as the portable
// engine, with the atoms gathered as float4 records (x, y, z, factor) in cell order and read
// through the read-only cache, and 2-D blocks of x runs so that a block's threads walk the same
// cells at once.
#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>

#include "kernels/density/implementations.hpp"
#include "kernels/density/job.hpp"
#include "kmol/core/device.hpp"

namespace kmol::density {

// Computes the job's slab on `stream` into host memory `out` (slab_points() floats, or binary16
// bits when `half`), returning the launch description; host copies and the first touch of `out`
// take `host_threads` threads.
std::string density_cuda(const DensityJob& job, bool half, void* out, cudaStream_t stream,
                         int host_threads);

}  // namespace kmol::density

namespace kmol {

// A slab straight into host memory (the atoms a portable run would upload are not needed); the
// copy out of staging uses the device's host threads.
template <>
struct DensityRunner<DensityImpl::cuda> {
  template <class Atoms, class Out>
  static std::string run(const Device& device, const density::DensityJob& job, const Atoms&,
                         Out* host_out) {
    return density::density_cuda(job, sizeof(Out) == 2, host_out,
                                 static_cast<cudaStream_t>(device.cuda_stream),
                                 device.host_threads);
  }
};

}  // namespace kmol
