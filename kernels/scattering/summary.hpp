#pragma once
// What `kmol info` says of scattering: its routes, each portable Kokkos code on every backend.
#include "kernels/registry.hpp"

namespace kmol {

AlgorithmSummary scattering_summary();

}  // namespace kmol
