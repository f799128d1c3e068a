#pragma once
// The density-map implementations, one row each (implementation_table.hpp): adding one takes its
// folder, with its runner DensityRunner<DensityImpl::x> (see run_on_device.hpp), its enumerator
// and a row here. choose_density_impl (selection.cpp) decides which auto runs.
#include <string>

#include "kernels/density/density.hpp"
#include "kernels/implementation_table.hpp"

namespace kmol {

template <auto impl>
struct DensityRunner;

struct DensityShape {
  bool resident = false;  // atoms already in the execution space's memory (docs/views.md)
};

std::string density_cuda_refusal(const DensityShape& shape, Platform platform);

inline constexpr ImplementationRow<DensityImpl, DensityShape> density_implementations[] = {
    {DensityImpl::kokkos, "kokkos", ImplementationKind::portable, nullptr,
     "every backend; a run of 4 points along x per thread", "CPU spaces"},
    {DensityImpl::cuda, "cuda", ImplementationKind::cuda, density_cuda_refusal,
     "Cuda space; atoms as float4 records in cell order, 2-D blocks of x runs", "the Cuda space"}};

}  // namespace kmol
