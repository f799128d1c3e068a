#pragma once
// What puts a run on the worker pool (several GPUs, or host workers standing in for them in
// tests): kmol histogram, rdf, histograms and potential. Refusals name the command's options.
#include <vector>

#include "drivers/library/worker_pool.hpp"

namespace kmol {

struct PoolOptions {
  int gpus = -1;            // --gpus N: N GPU workers on raw CUDA (0: every GPU); -1: not given
  int simulated_gpus = 0;   // --simulated-gpus N: host workers standing in for GPUs (tests)
  int inject_failures = 0;  // --inject-failures K: the first device worker fails its first K units

  bool wanted() const { return gpus >= 0 || simulated_gpus > 0; }
};

// The device workers the options ask for (refusing more GPUs than there are), then
// `cpu_workers` CPU workers sharing `cpu_threads` threads.
std::vector<WorkerSpec> pool_workers(const PoolOptions& options, int cpu_workers, int cpu_threads);

}  // namespace kmol
