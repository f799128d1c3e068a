#include <cuda_runtime.h>

#include "kmol/core/cuda_devices.hpp"

namespace kmol::cuda {

std::vector<DeviceInfo> devices() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();  // no driver or no device: report none
    return {};
  }
  std::vector<DeviceInfo> out;
  for (int id = 0; id < count; ++id) {
    cudaDeviceProp p{};
    if (cudaGetDeviceProperties(&p, id) != cudaSuccess) continue;
    DeviceInfo d;
    d.id = id;
    d.name = p.name;
    d.compute_major = p.major;
    d.compute_minor = p.minor;
    d.multiprocessors = p.multiProcessorCount;
    d.memory_bytes = p.totalGlobalMem;
    d.shared_memory_per_block_optin = p.sharedMemPerBlockOptin;
    d.constant_memory_bytes = p.totalConstMem;
    d.clock_khz = p.clockRate;
    out.push_back(d);
  }
  return out;
}

}  // namespace kmol::cuda
