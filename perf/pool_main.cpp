// kmol_pool_bench: the worker pool's suites alone (bench_worker_pool.cpp), for GPU machines.
// --kmol_smoke runs them on tiny problems (the ctest).
#include <benchmark/benchmark.h>

#include <cstring>
#include <string>
#include <vector>

#include "drivers/library/gpu_runtime.hpp"
#include "kmol/core/runtime.hpp"
#include "perf/bench_config.hpp"

int main(int argc, char** argv) {
  std::vector<char*> args;
  std::int64_t points = 1000000;
  for (int i = 0; i < argc; ++i) {
    if (std::strcmp(argv[i], "--kmol_smoke") == 0)
      points = 2000;
    else
      args.push_back(argv[i]);
  }
  int n = int(args.size());
  kmol::Runtime runtime;
  benchmark::Initialize(&n, args.data());
  benchmark::AddCustomContext("kmol_version", kmol::kmol_version());
  benchmark::AddCustomContext("gpus", std::to_string(kmol::cuda_device_count()));
  for (const auto& d : kmol::gpu_devices())
    benchmark::AddCustomContext("gpu" + std::to_string(d.id), d.name);
  kmol::bench::register_worker_pool_benchmarks(points);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
