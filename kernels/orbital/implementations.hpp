#pragma once
// The orbital-map implementations, one row each (implementation_table.hpp). Adding one takes its
// folder, with its runner OrbitalRunner<OrbitalImpl::x> (see run_on_device.hpp), and a row here;
// CMake makes the enumerator and the runner lists from them. Auto takes each platform's
// specialised kernel (docs/orbital.md has the measured rates).
#include "kernels/implementation_table.hpp"
#include "kernels/orbital/orbital.hpp"

namespace kmol {

template <auto impl>
struct OrbitalRunner;

inline constexpr ImplementationRow<OrbitalImpl, AnyShape> orbital_implementations[] = {
    {OrbitalImpl::kokkos, "kokkos", ImplementationKind::portable, nullptr, 0, nullptr,
     "every backend; float, double; one point per thread", "backends without a specialised kernel"},
    {OrbitalImpl::host, "host", ImplementationKind::host, nullptr, 1, nullptr,
     "CPU spaces; rows of points vectorised (polynomial exp2); float, double", "CPU spaces"},
    {OrbitalImpl::cuda, "cuda", ImplementationKind::cuda, nullptr, 1, nullptr,
     "Cuda space; basis and coefficients in __constant__ memory up to 4 KiB, else read through the "
     "L1 cache; float, double",
     "the Cuda space"}};

}  // namespace kmol
