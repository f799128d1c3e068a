#include "drivers/library/pool_options.hpp"

#include "drivers/library/gpu_runtime.hpp"
#include "kmol/core/errors.hpp"

namespace kmol {

std::vector<WorkerSpec> pool_workers(const PoolOptions& o, int cpu_workers, int cpu_threads) {
  std::vector<WorkerSpec> workers;
  if (o.gpus >= 0) workers = machine_workers(cuda_devices(o.gpus), 0, 0);
  if (o.gpus == 0 && workers.empty())
    throw UnsupportedError("--gpus 0: this machine has no GPU usable by this build");
  for (int k = 0; k < o.simulated_gpus; ++k)
    workers.push_back({WorkerKind::simulated_gpu, -1, 1, 0});
  if (o.inject_failures > 0) {
    if (workers.empty())
      throw InputError({"", "--inject-failures", -1}, "needs --gpus or --simulated-gpus");
    workers.front().fail_first_units = o.inject_failures;
  }
  for (const WorkerSpec& cpu : machine_workers({}, cpu_workers, cpu_threads))
    workers.push_back(cpu);
  return workers;
}

}  // namespace kmol
