#include "drivers/cli/pool_options.hpp"

#include <string>

#include "drivers/library/gpu_runtime.hpp"
#include "kmol/core/errors.hpp"

namespace kmol::cli {

void add_pool_options(CLI::App* cmd, PoolOptions& o, const char* unit_name) {
  cmd->add_option("--gpus", o.gpus,
                  std::string("GPUs sharing the ") + unit_name +
                      ", one persistent worker thread each on raw CUDA (0: every GPU)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--simulated-gpus", o.simulated_gpus,
                  "Testing: host workers standing in for GPUs")
      ->check(CLI::NonNegativeNumber)
      ->group("Testing");
  cmd->add_option(
         "--inject-failures", o.inject_failures,
         std::string("Testing: the first GPU (or simulated GPU) worker fails its first K ") +
             unit_name + ", which other workers redo")
      ->check(CLI::NonNegativeNumber)
      ->group("Testing");
}

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

}  // namespace kmol::cli
