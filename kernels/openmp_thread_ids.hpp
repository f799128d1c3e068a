#pragma once
// Kokkos 3.4 numbers the threads of its OpenMP pool once, at initialisation, in a thread-local id
// by which a duplicated ScatterView and a UniqueToken pick each thread's private copy. libgomp
// ends the threads that a smaller team leaves idle and starts new ones for the next larger team,
// and a new thread reads id 0: several threads then add into one copy at once and lose counts. A
// dispatch that relies on the ids numbers the pool's threads again first (one short parallel
// region), so that any OpenMP team run before it, in kmol or in the caller, cannot split them.
#include <Kokkos_Core.hpp>

#include <type_traits>

#ifdef KOKKOS_ENABLE_OPENMP
#include <omp.h>
#endif

namespace kmol {

template <class ExecSpace>
void renumber_openmp_threads(const ExecSpace&) {
#ifdef KOKKOS_ENABLE_OPENMP
  if constexpr (std::is_same_v<ExecSpace, Kokkos::OpenMP>) {
    if (Kokkos::OpenMP::in_parallel()) return;  // inside a region the team is the caller's
#pragma omp parallel num_threads(Kokkos::OpenMP::impl_thread_pool_size())
    Kokkos::Impl::t_openmp_hardware_id = omp_get_thread_num();
  }
#endif
}

}  // namespace kmol
