#pragma once
// The one meaning of a device choice, for the command, the Python module and the C API: auto runs
// on the GPU when this build has one and the machine shows one, and on the host otherwise (the CPU
// fallback); cpu the host; gpu the GPU, refused where there is none; all the GPU and CPU workers
// side by side (work on one execution space takes it as gpu).
#include <Kokkos_Core.hpp>

#include <string>

namespace kmol {

enum class DevicePolicy { automatic, cpu, gpu, all };

// How a front end spells the option in its messages: "--device gpu", or as a keyword,
// "device='gpu'".
struct DeviceOption {
  std::string name = "--device";
  bool keyword = false;
  bool all_allowed = true;  // whether "all" is one of its values
};

std::string to_string(DevicePolicy policy);  // "auto", "cpu", "gpu" or "all"
// InputError naming the option for a name that is not one of its values.
DevicePolicy device_policy_from_string(const std::string& name, const DeviceOption& option = {});

// Where a run goes: Kokkos's GPU, host workers, or both.
struct DevicePlan {
  bool gpu = false, cpu = false;
};

// UnsupportedError for gpu or all where no GPU can run: the build has no GPU backend, or the
// machine shows none.
DevicePlan plan_devices(DevicePolicy policy, const DeviceOption& option = {});

// Returns f(space) for the one execution space the policy names: the GPU when the plan has one,
// else the host.
template <class F>
decltype(auto) with_space(DevicePolicy policy, F&& f, const DeviceOption& option = {}) {
  const DevicePlan plan = plan_devices(policy, option);
#ifdef KOKKOS_ENABLE_CUDA
  if (plan.gpu) return f(Kokkos::Cuda());
#endif
  (void)plan;
  return f(Kokkos::DefaultHostExecutionSpace());
}

template <class F>
decltype(auto) with_space(const std::string& device, F&& f, const DeviceOption& option = {}) {
  return with_space(device_policy_from_string(device, option), std::forward<F>(f), option);
}

}  // namespace kmol
