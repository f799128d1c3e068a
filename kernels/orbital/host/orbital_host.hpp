#pragma once
// Orbital maps on CPU spaces, a row of lattice points at a time: the loops over points are
// vectorised, with a polynomial exp2 the compiler can vectorise (libm's is scalar here).
#include <string>

#include "kernels/orbital/implementations.hpp"
#include "kernels/orbital/packing.hpp"
#include "kmol/core/device.hpp"
#include "kmol/core/grid.hpp"

namespace kmol {

// Stores psi at every lattice point in `values` (lattice.index order) using `threads` threads.
template <class T>
std::string orbital_host(const orbital::PackedTables& tables, const Grid& lattice, T* values,
                         int threads);

template <>
struct OrbitalRunner<OrbitalImpl::host> {
  template <class T>
  static std::string run(const Device& device, const orbital::PackedTables& tables,
                         const OrbitalSettings& settings, T* values) {
    return orbital_host(tables, settings.lattice, values, device.host_threads);
  }
};

}  // namespace kmol
