#pragma once
// Potential maps in raw CUDA (units without Kokkos, so each keeps the whole 64 KiB constant bank).
//   all atoms (direct, mdh): atom tiles in __constant__ memory, each thread sums several lattice
//     points of a row (the atom's squared distance to the row's line computed once for them),
//     stores coalesced along the row; compensated sums keep their carries across tiles.
//   cutoff: atoms hashed into small fixed-capacity bins in global memory, one block per region of
//     lattice points (a bin's worth), the neighbourhood of bins as an offset list in __constant__
//     memory; atoms that overflow their bin are summed on the host while the GPU runs.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <functional>
#include <string>

#include "kernels/coulomb/host/coulomb_host.hpp"
#include "kernels/coulomb/implementations.hpp"
#include "kernels/coulomb/job.hpp"
#include "kmol/core/device.hpp"

namespace kmol {

// Computes the job's points (direct or mdh) on `stream` and stores them in job.values.
template <class T>
std::string coulomb_cuda_all_atoms(const CoulombJob<T>& job, cudaStream_t stream);

// The host's cutoff summation for a job of overflow atoms into its own zeroed values.
template <class T>
using HostCutoff = std::function<void(const CoulombJob<T>&)>;

// Computes the cutoff job on `stream`, running `host_cutoff` on the atoms that overflow their bins
// meanwhile, and stores the sum in job.values: every point of the job's z planes, whatever was
// there. `host_threads` copy and fault in host memory.
template <class T>
std::string coulomb_cuda_cutoff(const CoulombJob<T>& job, cudaStream_t stream,
                                const HostCutoff<T>& host_cutoff, int host_threads);

// Cutoff maps hand the atoms that overflow their bins, and the host memory's copies, to the
// device's host threads.
template <>
struct CoulombRunner<CoulombImpl::cuda> {
  template <class T>
  static std::string run(const Device& device, const CoulombJob<T>& job) {
    const auto stream = static_cast<cudaStream_t>(device.cuda_stream);
    if (job.method != CoulombMethod::cutoff) return coulomb_cuda_all_atoms(job, stream);
    const int threads = device.host_threads;
    return coulomb_cuda_cutoff<T>(
        job, stream, [threads](const CoulombJob<T>& overflow) { coulomb_host(overflow, threads); },
        threads);
  }
};

}  // namespace kmol
