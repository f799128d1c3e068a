#pragma once
// Orbital maps in raw CUDA (a unit without Kokkos, so it keeps the whole 64 KiB constant bank),
// after VMD's molecular orbital kernels: the packed basis and coefficients in __constant__
// memory when they fit (every thread of a warp reads the same primitive at once, a broadcast),
// otherwise read from global memory through the L1 cache; each thread computes several points
// of a row, sharing every table load among them.
#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>

#include "kernels/orbital/implementations.hpp"
#include "kernels/orbital/packing.hpp"
#include "kmol/core/device.hpp"
#include "kmol/core/grid.hpp"

namespace kmol {

// Stores psi at every lattice point in `values` (host, lattice.index order). Tables larger than
// `constant_limit` bytes (or than the bank) are read from global memory.
template <class T>
std::string orbital_cuda(const orbital::PackedTables& tables, const Grid& lattice, T* values,
                         std::int64_t constant_limit, cudaStream_t stream);

template <>
struct OrbitalRunner<OrbitalImpl::cuda> {
  template <class T>
  static std::string run(const Device& device, const orbital::PackedTables& tables,
                         const OrbitalSettings& settings, T* values) {
    return orbital_cuda(tables, settings.lattice, values, settings.constant_bytes_limit,
                        static_cast<cudaStream_t>(device.cuda_stream));
  }
};

}  // namespace kmol
