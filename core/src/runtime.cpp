#include "kmol/core/runtime.hpp"

#include <Kokkos_Core.hpp>

#include "kmol/core/version.hpp"

#ifdef KMOL_HAVE_CUDA
#include "kmol/core/cuda_devices.hpp"
#endif

namespace kmol {

Runtime::Runtime(const RuntimeOptions& options) {
  if (Kokkos::is_initialized()) return;
#if KOKKOS_VERSION >= 30700
  Kokkos::InitializationSettings settings;
  if (options.host_threads > 0) settings.set_num_threads(options.host_threads);
  if (options.device_id >= 0) settings.set_device_id(options.device_id);
#else
  Kokkos::InitArguments settings;
  settings.num_threads = options.host_threads;
  settings.device_id = options.device_id;
#endif
  Kokkos::initialize(settings);
  owner_ = true;
}

Runtime::~Runtime() {
  if (owner_) Kokkos::finalize();
}

std::string kokkos_version() {
  const int v = KOKKOS_VERSION;
  return std::to_string(v / 10000) + "." + std::to_string(v / 100 % 100) + "." +
         std::to_string(v % 100);
}

std::vector<std::string> enabled_backends() {
  std::vector<std::string> names;
#ifdef KOKKOS_ENABLE_SERIAL
  names.emplace_back("Serial");
#endif
#ifdef KOKKOS_ENABLE_OPENMP
  names.emplace_back("OpenMP");
#endif
#ifdef KOKKOS_ENABLE_CUDA
  names.emplace_back("Cuda");
#endif
  return names;
}

int host_threads() { return Kokkos::DefaultHostExecutionSpace().concurrency(); }

std::vector<DeviceInfo> gpu_devices() {
#ifdef KMOL_HAVE_CUDA
  return cuda::devices();
#else
  return {};
#endif
}

std::string kmol_version() { return KMOL_VERSION; }

}  // namespace kmol
