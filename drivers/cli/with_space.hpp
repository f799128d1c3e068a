#pragma once
// The one meaning of --device for commands that run on one execution space: cpu is the host, gpu
// the GPU (refused where there is none), auto the GPU when there is one and the host otherwise.
#include <fmt/core.h>
#include <fmt/ranges.h>

#include <Kokkos_Core.hpp>

#include <string>

#include "kmol/core/errors.hpp"
#include "kmol/core/runtime.hpp"

namespace kmol::cli {

// Returns f(space) for the space `device` names.
template <class F>
decltype(auto) with_space(const std::string& device, F&& f) {
  if (device != "cpu") {
#ifdef KOKKOS_ENABLE_CUDA
    if (!gpu_devices().empty()) return f(Kokkos::Cuda());
#endif
    if (device == "gpu")
      throw UnsupportedError("--device gpu: no GPU (this build: " +
                             fmt::format("{}", fmt::join(enabled_backends(), ", ")) + ")");
  }
  return f(Kokkos::DefaultHostExecutionSpace());
}

}  // namespace kmol::cli
