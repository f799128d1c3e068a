#pragma once
// CUDA device queries through the runtime API (compiled in a raw .cu unit, not through Kokkos).
#include <vector>

#include "kmol/core/runtime.hpp"

namespace kmol::cuda {

std::vector<DeviceInfo> devices();

}  // namespace kmol::cuda
