#pragma once
// The potential-map implementations, one row each (implementation_table.hpp): adding one takes
// its folder, with its runner CoulombRunner<CoulombImpl::x> (see run_on_device.hpp), its
// enumerator and a row here. choose_coulomb_impl (selection.cpp) decides which auto runs.
#include <string>

#include "kernels/coulomb/selection.hpp"
#include "kernels/implementation_table.hpp"

namespace kmol {

template <auto impl>
struct CoulombRunner;

std::string coulomb_cuda_refusal(const CoulombShape& shape, Platform platform);

inline constexpr ImplementationRow<CoulombImpl, CoulombShape> coulomb_implementations[] = {
    {CoulombImpl::kokkos, "kokkos", ImplementationKind::portable, nullptr,
     "every backend; direct, cutoff (cell list), mdh; float, double",
     "mdh faces on the Cuda space; backends without a specialised kernel"},
    {CoulombImpl::host, "host", ImplementationKind::host, nullptr,
     "CPU spaces; direct and mdh row by row (vectorised), cutoff atom by atom over the clipped "
     "cylinder of points; float, double",
     "every method on CPU spaces"},
    {CoulombImpl::cuda, "cuda", ImplementationKind::cuda, coulomb_cuda_refusal,
     "Cuda space; atom tiles in constant memory (direct, mdh), fixed-capacity bins with overflow "
     "on the CPU (cutoff); float, double",
     "direct, cutoff and whole-lattice mdh on the Cuda space"}};

}  // namespace kmol
