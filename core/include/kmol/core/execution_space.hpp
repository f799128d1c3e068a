#pragma once
// What a Kokkos execution space means for kmol: the platform its implementations are chosen for,
// and the device it stands for. Defined once here; every dispatcher, test and benchmark asks these.
#include <Kokkos_Core.hpp>

#include <type_traits>

#include "kmol/core/device.hpp"

namespace kmol {

// Host spaces (Serial, OpenMP) work on host memory; the others are devices.
template <class ExecSpace>
inline constexpr bool runs_on_host =
    std::is_same_v<typename ExecSpace::memory_space, Kokkos::HostSpace>;

template <class ExecSpace>
constexpr Platform platform_of() {
  return runs_on_host<ExecSpace> ? Platform::host : Platform::cuda;
}

template <class ExecSpace>
Device device_of(const ExecSpace& space) {
  if constexpr (runs_on_host<ExecSpace>) {
    return Device::host(space.concurrency());
  } else {
#ifdef KOKKOS_ENABLE_CUDA
    if constexpr (std::is_same_v<ExecSpace, Kokkos::Cuda>) {
      Device device = Device::cuda(space.cuda_device(), space.cuda_stream());
      device.host_threads = Kokkos::DefaultHostExecutionSpace().concurrency();  // all of them
      return device;
    }
#endif
    return Device{Platform::cuda, 1, -1, nullptr};
  }
}

}  // namespace kmol
