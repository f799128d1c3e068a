#pragma once
// The potential-map implementations, one row each (implementation_table.hpp). Adding one takes its
// folder, with its runner CoulombRunner<CoulombImpl::x> (see run_on_device.hpp), and a row here;
// CMake makes the enumerator and the runner lists from them.
#include <string>

#include "kernels/coulomb/selection.hpp"
#include "kernels/implementation_table.hpp"

namespace kmol {

template <auto impl>
struct CoulombRunner;

std::string coulomb_cuda_refusal(const CoulombShape& shape, Platform platform);

// The portable kernels store every point of a whole lattice; the cuda cutoff path every point.
constexpr bool coulomb_kokkos_writes_every_point(const CoulombShape& shape) {
  return !shape.faces_only;
}
constexpr bool coulomb_cuda_writes_every_point(const CoulombShape& shape) {
  return shape.method == CoulombMethod::cutoff;
}

inline constexpr ImplementationRow<CoulombImpl, CoulombShape> coulomb_implementations[] = {
    {CoulombImpl::kokkos, "kokkos", ImplementationKind::portable, nullptr, 0, nullptr,
     "every backend; direct, cutoff (cell list), mdh; float, double",
     "mdh faces on the Cuda space; backends without a specialised kernel",
     row_trait::reads_space_atoms, coulomb_kokkos_writes_every_point},
    {CoulombImpl::host, "host", ImplementationKind::host, nullptr, 1, nullptr,
     "CPU spaces; direct and mdh row by row (vectorised), cutoff atom by atom over the clipped "
     "cylinder of points; float, double",
     "every method on CPU spaces"},
    {CoulombImpl::cuda, "cuda", ImplementationKind::cuda, coulomb_cuda_refusal, 2, nullptr,
     "Cuda space; atom tiles in constant memory (direct, whole-lattice mdh), fixed-capacity bins "
     "with overflow on the CPU (cutoff); float, double",
     "direct, cutoff and whole-lattice mdh on the Cuda space", 0, coulomb_cuda_writes_every_point}};

}  // namespace kmol
