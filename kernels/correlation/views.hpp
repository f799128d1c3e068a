#pragma once
// Cross-correlation of two maps a Kokkos application already holds in Views, in any memory space
// the execution space reads (device memory on GPUs): read where they are, with the same result as
// the host-array entry point.
//
//   Kokkos::View<float*, Kokkos::CudaSpace> simulated = ..., reference = ...;   // grid.points()
//   kmol::Correlation c = kmol::cross_correlation(Kokkos::Cuda(), grid, simulated, reference, {});
#include <Kokkos_Core.hpp>

#include <type_traits>

#include "kernels/correlation/correlation.hpp"
#include "kernels/views.hpp"

namespace kmol {

template <class ExecSpace, class A, class B,
          std::enable_if_t<Kokkos::is_view<A>::value && Kokkos::is_view<B>::value, int> = 0>
Correlation cross_correlation(const ExecSpace& space, const Grid& grid, const A& simulated,
                              const B& reference, const CorrelationSettings& settings) {
  const float* simulated_values = views_detail::values<ExecSpace, float>(
      simulated, grid.points(), "simulated map", "values (the grid's)");
  const float* reference_values = views_detail::values<ExecSpace, float>(
      reference, grid.points(), "reference map", "values (the grid's)");
  return cross_correlation(space, grid, simulated_values, reference_values, settings, true);
}

}  // namespace kmol
