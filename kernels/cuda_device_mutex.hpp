#pragma once
// A mutex per CUDA device. A __constant__ bank exists once per device, so calls that fill it take
// turns on one device while calls on different devices (the worker pool's GPU threads) run
// together. For raw .cu units only (no Kokkos).
#include <cuda_runtime_api.h>

#include <mutex>

namespace kmol {

class PerDeviceMutex {
 public:
  // The mutex of the calling thread's current device.
  std::mutex& current() {
    int device = 0;
    if (cudaGetDevice(&device) != cudaSuccess) device = 0;
    return mutexes_[unsigned(device) % kDevices];
  }

 private:
  static constexpr unsigned kDevices = 64;
  std::mutex mutexes_[kDevices];
};

}  // namespace kmol
