#pragma once
// gaussian_density(): validate, choose an implementation, run it slab by slab.
// Instantiated per execution space in instances_<space>.cpp.
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <type_traits>

#include "kernels/density/density.hpp"
#include "kernels/density/kokkos/density_kokkos.hpp"
#include "kernels/density/kokkos/resident_atoms.hpp"
#include "kernels/density/selection.hpp"
#include "kernels/density/validation.hpp"
#include "kernels/host_copy.hpp"
#include "kmol/core/errors.hpp"
#include "kmol/core/execution_space.hpp"
#ifdef KMOL_HAVE_CUDA
#include "kernels/density/cuda/density_cuda.hpp"
#endif

namespace kmol {

namespace density {

template <class ExecSpace, class Out>
std::string run_slab(const ExecSpace& space, DensityImpl impl, const DensityJob& job,
                     const DeviceAtoms<typename ExecSpace::memory_space>& atoms, Out* host_out) {
  using Memory = typename ExecSpace::memory_space;
  const std::int64_t points = job.slab_points();
  if (impl == DensityImpl::cuda) {
#ifdef KMOL_HAVE_CUDA
    if constexpr (std::is_same_v<ExecSpace, Kokkos::Cuda>) {
      const int threads = Kokkos::DefaultHostExecutionSpace().concurrency();
      return density_cuda(job, sizeof(Out) == 2, host_out, space.cuda_stream(),
                          [threads](void* to, const void* from, std::size_t bytes) {
                            copy_in_parallel(to, from, bytes, threads);
                          });
    }
#endif
    throw UnsupportedError("density: cuda cannot run on this execution space");
  }
  Kokkos::View<Out*, Memory> out(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("kmol::density::map")), points);
  density_kokkos(space, job, atoms, out);
  Kokkos::deep_copy(
      space, Kokkos::View<Out*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(host_out, points), out);
  space.fence();
  return "kokkos: " + std::to_string(points_per_thread) + " points per thread, cells of " +
         std::to_string(job.cut) + " A";
}

}  // namespace density

template <class ExecSpace>
DensityMap gaussian_density(const ExecSpace& space, const DensityInput& input,
                            const DensitySettings& settings) {
  using Memory = typename ExecSpace::memory_space;
  Kokkos::Profiling::pushRegion("kmol::gaussian_density");
  density::DensityJob job = density::prepare_density(input, settings);
  DensityMap map;
  map.grid = settings.grid;
  map.impl_used = choose_density_impl(platform_of<ExecSpace>(), settings.impl, input.resident);
  const auto atoms = input.resident
                         ? density::resident_atoms(space, input, settings, job)
                         : density::upload_atoms<Memory>(job, map.impl_used == DensityImpl::kokkos);
  const bool half = settings.storage == DensityStorage::half;
  const std::int64_t nz = job.counts[2], plane = job.counts[0] * job.counts[1];
  if (half)
    map.half_values.resize(std::size_t(plane * nz));
  else
    map.values.resize(std::size_t(plane * nz));
  const std::int64_t per_slab = density::planes_per_slab(job, settings.memory_budget, half ? 2 : 4);
  map.slabs = 0;
  for (std::int64_t k0 = 0; k0 < nz; k0 += per_slab) {
    density::narrow_to_slab(job, k0, std::min(nz, k0 + per_slab));
    map.launch =
        half ? density::run_slab(space, map.impl_used, job, atoms,
                                 map.half_values.data() + k0 * plane)
             : density::run_slab(space, map.impl_used, job, atoms, map.values.data() + k0 * plane);
    ++map.slabs;
  }
  Kokkos::Profiling::popRegion();
  return map;
}

}  // namespace kmol

#define KMOL_INSTANTIATE_DENSITY(Space)                                                     \
  template kmol::DensityMap kmol::gaussian_density(const Space&, const kmol::DensityInput&, \
                                                   const kmol::DensitySettings&);
