#pragma once
// coulomb_potential(): validate, choose an implementation, run it.
// Instantiated per execution space in instances_<space>.cpp.
#include <Kokkos_Core.hpp>

#include <type_traits>

#include "kernels/coulomb/coulomb.hpp"
#include "kernels/coulomb/host/coulomb_host.hpp"
#include "kernels/coulomb/kokkos/coulomb_kokkos.hpp"
#include "kernels/coulomb/selection.hpp"
#include "kernels/coulomb/units.hpp"
#include "kernels/coulomb/validation.hpp"
#include "kernels/host_copy.hpp"
#include "kmol/core/errors.hpp"
#include "kmol/core/execution_space.hpp"
#ifdef KMOL_HAVE_CUDA
#include "kernels/coulomb/cuda/coulomb_cuda.hpp"
#endif

namespace kmol {

template <class ExecSpace, class T>
std::string run_coulomb(const ExecSpace& space, CoulombImpl impl, const CoulombJob<T>& job) {
  switch (impl) {
    case CoulombImpl::host:
      if constexpr (platform_of<ExecSpace>() == Platform::host)
        return coulomb_host(job, space.concurrency());
      break;
    case CoulombImpl::cuda:
#ifdef KMOL_HAVE_CUDA
      if constexpr (std::is_same_v<ExecSpace, Kokkos::Cuda>) {
        if (job.method != CoulombMethod::cutoff)
          return coulomb_cuda_all_atoms(job, space.cuda_stream());
        const int threads = Kokkos::DefaultHostExecutionSpace().concurrency();
        return coulomb_cuda_cutoff<T>(
            job, space.cuda_stream(),
            [threads](const CoulombJob<T>& overflow) { coulomb_host(overflow, threads); },
            [threads](T* to, const T* from, std::size_t n) {
              copy_in_parallel(to, from, n * sizeof(T), threads);
            });
      }
#endif
      break;
    case CoulombImpl::kokkos:
      return coulomb_kokkos(space, job);
    case CoulombImpl::automatic:
      break;
  }
  throw UnsupportedError("potential: " + to_string(impl) + " cannot run on this execution space");
}

template <class ExecSpace, class T>
PotentialMap<T> coulomb_potential(const ExecSpace& space, const CoulombInput<T>& input,
                                  const CoulombSettings& settings) {
  Kokkos::Profiling::pushRegion("kmol::coulomb_potential");
  CoulombJob<T> job = prepare_coulomb(input, settings);
  PotentialMap<T> map;
  map.lattice = settings.lattice;
  map.units = settings.units;
  const CoulombShape shape{
      settings.method, input.n, job.points(), settings.faces_only, settings.lattice.spacing[0],
      settings.cutoff};
  map.impl_used = choose_coulomb_impl(shape, platform_of<ExecSpace>(), settings.impl);
  // The CUDA cutoff path stores every point; zeroing the map for it would be a pass over tens of
  // MB.
  if (map.impl_used == CoulombImpl::cuda && settings.method == CoulombMethod::cutoff)
    map.values.resize(std::size_t(settings.lattice.points()));
  else
    map.values.assign(std::size_t(settings.lattice.points()), T(0));
  job.values = map.values.data();
  map.launch = run_coulomb(space, map.impl_used, job);
  space.fence();
  Kokkos::Profiling::popRegion();
  return map;
}

}  // namespace kmol

#define KMOL_INSTANTIATE_COULOMB(Space)                                              \
  template kmol::PotentialMap<float> kmol::coulomb_potential(                        \
      const Space&, const kmol::CoulombInput<float>&, const kmol::CoulombSettings&); \
  template kmol::PotentialMap<double> kmol::coulomb_potential(                       \
      const Space&, const kmol::CoulombInput<double>&, const kmol::CoulombSettings&);
