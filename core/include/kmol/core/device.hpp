#pragma once
// Where work runs: host threads, or a raw CUDA device and stream. The entry points take a Kokkos
// execution space and derive the device from it (device_of); the worker pool builds one per
// worker. Kokkos-free, so raw CUDA units can take it.
#include "kmol/core/platform.hpp"

namespace kmol {

struct Device {
  Platform platform = Platform::host;
  int host_threads = 1;         // OpenMP threads of its host kernels (cuda: of the host work a
                                // GPU call hands off)
  int cuda_device = -1;         // cuda: the device the calling thread is bound to
  void* cuda_stream = nullptr;  // cuda: its cudaStream_t (nullptr: the default stream)

  static Device host(int threads) {
    return {Platform::host, threads < 1 ? 1 : threads, -1, nullptr};
  }
  static Device cuda(int device, void* stream) { return {Platform::cuda, 1, device, stream}; }
};

}  // namespace kmol
