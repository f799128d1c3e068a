#pragma once
// The density-map implementations, one row each (implementation_table.hpp). Adding one takes its
// folder, with its runner DensityRunner<DensityImpl::x> (see run_on_device.hpp), and a row here;
// CMake makes the enumerator and the runner lists from them. Auto takes the raw kernel on the Cuda
// space: it keeps the atoms as float4 records and reads them through the read-only cache.
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
    {DensityImpl::kokkos, "kokkos", ImplementationKind::portable, nullptr, 0, nullptr,
     "every backend; a run of 4 points along x per thread", "CPU spaces",
     row_trait::reads_space_atoms, always<DensityShape>},
    {DensityImpl::cuda, "cuda", ImplementationKind::cuda, density_cuda_refusal, 1, nullptr,
     "Cuda space; atoms as float4 records in cell order, 2-D blocks of x runs", "the Cuda space", 0,
     always<DensityShape>}};

}  // namespace kmol
