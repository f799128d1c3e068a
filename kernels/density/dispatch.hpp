#pragma once
// gaussian_density(): validate, choose an implementation, run it slab by slab.
// Instantiated per execution space in instances_<space>.cpp.
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstddef>
#include <type_traits>

#include "kernels/density/density.hpp"
#include "kernels/density/implementations.hpp"
#include "kernels/density/kokkos/density_kokkos.hpp"
#include "kernels/density/kokkos/resident_atoms.hpp"
#include "kernels/density/runners.hpp"
#include "kernels/density/selection.hpp"
#include "kernels/density/validation.hpp"
#include "kernels/kept_arrays.hpp"
#include "kernels/run_implementation.hpp"
#include "kmol/core/cancel.hpp"
#include "kmol/core/execution_space.hpp"
#ifdef KOKKOS_ENABLE_CUDA
#include <cuda_runtime_api.h>
#endif

namespace kmol {
namespace density {

// The settings' memory budget, or the automatic one (density.hpp).
template <class ExecSpace>
double memory_budget(const DensitySettings& settings) {
  if (settings.memory_budget > 0) return settings.memory_budget;
#ifdef KOKKOS_ENABLE_CUDA
  if constexpr (std::is_same_v<typename ExecSpace::memory_space, Kokkos::CudaSpace>) {
    std::size_t free = 0, total = 0;
    if (cudaMemGetInfo(&free, &total) == cudaSuccess) return 0.75 * double(free);
  }
#endif
  return 4e9;
}

}  // namespace density

template <class ExecSpace>
DensityMap gaussian_density(const ExecSpace& space, const DensityInput& input,
                            const DensitySettings& settings) {
  Kokkos::Profiling::pushRegion("kmol::gaussian_density");
  density::DensityJob job = density::prepare_density(input, settings);
  DensityMap map;
  map.grid = settings.grid;
  map.impl_used = choose_density_impl(platform_of<ExecSpace>(), settings.impl, input.resident);
  const auto& row = implementation_row(density_implementations, map.impl_used);
  typename KeptArrays<ExecSpace>::Lease kept;  // the uploaded atoms, for the whole call
  const auto atoms = input.resident ? density::resident_atoms(space, input, settings, job)
                                    : density::upload_atoms(space, *kept, job,
                                                            row.has(row_trait::reads_space_atoms));
  const bool half = settings.storage == DensityStorage::half;
  const std::int64_t nz = job.counts[2], plane = job.counts[0] * job.counts[1];
  // A map its row stores whole is left unzeroed: zeroing it first would be one more pass of the
  // host over the whole map.
  const std::size_t size = std::size_t(plane * nz);
  const bool whole = row.writes_all_of(DensityShape{input.resident});
  if (half)
    whole ? map.half_values.resize(size) : map.half_values.assign(size, 0);
  else
    whole ? map.values.resize(size) : map.values.assign(size, 0.0f);
  const std::int64_t per_slab =
      density::planes_per_slab(job, density::memory_budget<ExecSpace>(settings), half ? 2 : 4);
  map.slabs = 0;
  for (std::int64_t k0 = 0; k0 < nz; k0 += per_slab) {
    density::narrow_to_slab(job, k0, std::min(nz, k0 + per_slab));
    map.launch =
        half ? run_implementation<DensityRunner, density_implementations>(
                   "density", map.impl_used, space, job, atoms, map.half_values.data() + k0 * plane)
             : run_implementation<DensityRunner, density_implementations>(
                   "density", map.impl_used, space, job, atoms, map.values.data() + k0 * plane);
    ++map.slabs;
  }
  throw_if_cancelled("the density map");  // an implementation that stopped early left it partial
  Kokkos::Profiling::popRegion();
  return map;
}

}  // namespace kmol

#define KMOL_INSTANTIATE_DENSITY(Space)                                                     \
  template kmol::DensityMap kmol::gaussian_density(const Space&, const kmol::DensityInput&, \
                                                   const kmol::DensitySettings&);
