#include "drivers/library/device_policy.hpp"

#include <fmt/core.h>
#include <fmt/ranges.h>

#include "kmol/core/errors.hpp"
#include "kmol/core/names.hpp"
#include "kmol/core/runtime.hpp"

namespace kmol {
namespace {

constexpr Named<DevicePolicy> device_policy_names[] = {{DevicePolicy::automatic, "auto"},
                                                       {DevicePolicy::cpu, "cpu"},
                                                       {DevicePolicy::gpu, "gpu"},
                                                       {DevicePolicy::all, "all"}};

std::string spelled(const DeviceOption& option, const std::string& value) {
  return option.keyword ? option.name + "='" + value + "'" : option.name + " " + value;
}

bool build_has_gpu() {
  for (const std::string& backend : enabled_backends())
    if (backend == "Cuda") return true;
  return false;
}

}  // namespace

std::string to_string(DevicePolicy policy) { return name_of(device_policy_names, policy); }

DevicePolicy device_policy_from_string(const std::string& name, const DeviceOption& option) {
  for (const Named<DevicePolicy>& p : device_policy_names)
    if (name == p.name && (p.value != DevicePolicy::all || option.all_allowed)) return p.value;
  throw InputError({"", option.name, -1},
                   std::string(option.all_allowed ? "expected 'auto', 'cpu', 'gpu' or 'all'"
                                                  : "expected 'auto', 'cpu' or 'gpu'") +
                       ", not '" + name + "'");
}

DevicePlan plan_devices(DevicePolicy policy, const DeviceOption& option) {
  const bool present = !gpu_devices().empty();
  const bool needs_gpu = policy == DevicePolicy::gpu || policy == DevicePolicy::all;
  if (needs_gpu && !present)
    throw UnsupportedError(spelled(option, to_string(policy)) + ": no GPU (" +
                           (build_has_gpu()
                                ? std::string("this CUDA build finds none on this machine")
                                : fmt::format("this build: {}; a GPU needs the cuda configuration",
                                              fmt::join(enabled_backends(), ", "))) +
                           ")");
  DevicePlan plan;
  plan.gpu = needs_gpu || (policy == DevicePolicy::automatic && present);
  plan.cpu = policy == DevicePolicy::cpu || policy == DevicePolicy::all || !plan.gpu;
  return plan;
}

}  // namespace kmol
