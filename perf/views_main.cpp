// kmol_views_bench: the View entry points against host arrays alone (bench_views.cpp), for GPU
// machines. --kmol_smoke runs them on a small frame (the ctest).
#include <benchmark/benchmark.h>

#include <cstring>
#include <string>
#include <vector>

#include "kmol/core/runtime.hpp"
#include "perf/bench_config.hpp"

int main(int argc, char** argv) {
  std::vector<char*> args;
  std::int64_t atoms = kmol::bench::Sizes().views_atoms;
  for (int i = 0; i < argc; ++i) {
    if (std::strcmp(argv[i], "--kmol_smoke") == 0)
      atoms = 20000;
    else
      args.push_back(argv[i]);
  }
  int n = int(args.size());
  kmol::Runtime runtime;
  benchmark::Initialize(&n, args.data());
  benchmark::AddCustomContext("kmol_version", kmol::kmol_version());
  benchmark::AddCustomContext("kokkos_version", kmol::kokkos_version());
  benchmark::AddCustomContext("host_threads", std::to_string(kmol::host_threads()));
  for (const auto& d : kmol::gpu_devices())
    benchmark::AddCustomContext("gpu" + std::to_string(d.id), d.name);
  kmol::bench::register_views_benchmarks(atoms);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
