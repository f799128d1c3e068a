#include "perf/suite_main.hpp"

#include <benchmark/benchmark.h>

#include <cstring>
#include <string>
#include <vector>

#include "kmol/core/runtime.hpp"

namespace kmol::bench {

int run_suite(int argc, char** argv, std::int64_t size, std::int64_t smoke_size,
              void (*register_suite)(std::int64_t)) {
  std::vector<char*> args;
  for (int i = 0; i < argc; ++i) {
    if (std::strcmp(argv[i], "--kmol_smoke") == 0)
      size = smoke_size;
    else
      args.push_back(argv[i]);
  }
  int n = int(args.size());
  Runtime runtime;
  benchmark::Initialize(&n, args.data());
  benchmark::AddCustomContext("kmol_version", kmol_version());
  benchmark::AddCustomContext("kokkos_version", kokkos_version());
  benchmark::AddCustomContext("host_threads", std::to_string(host_threads()));
  const auto gpus = gpu_devices();
  benchmark::AddCustomContext("gpus", std::to_string(gpus.size()));
  for (const auto& d : gpus) benchmark::AddCustomContext("gpu" + std::to_string(d.id), d.name);
  register_suite(size);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

}  // namespace kmol::bench
