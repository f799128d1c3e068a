// Google Benchmark driver: records the machine in the JSON context, runs every registered suite.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "kmol/core/runtime.hpp"
#include "perf/bench_config.hpp"
#ifdef KMOL_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

namespace {

// The first value of a /proc/cpuinfo field ("model name", "cpu family", "model").
std::string cpuinfo(const std::string& field) {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);)
    if (line.rfind(field, 0) == 0 && line.find_first_not_of(" \t", field.size()) == line.find(':'))
      return line.substr(line.find(':') + 2);
  return "unknown";
}

void record_machine(int argc, char** argv) {
  using benchmark::AddCustomContext;
  std::string command;
  for (int i = 0; i < argc; ++i) command += (i ? " " : "") + std::string(argv[i]);
  AddCustomContext("command", command);  // the study report quotes it
  AddCustomContext("kmol_version", kmol::kmol_version());
  AddCustomContext("kokkos_version", kmol::kokkos_version());
  std::string backends;
  for (const auto& b : kmol::enabled_backends()) backends += (backends.empty() ? "" : ",") + b;
  AddCustomContext("kokkos_backends", backends);
  AddCustomContext("cpu_model", cpuinfo("model name"));
  AddCustomContext("cpu_family_model",
                   cpuinfo("cpu family") + "/" + cpuinfo("model"));  // the microarchitecture
  // AMX marks the Intel Xeons of Sapphire Rapids and later, whatever model a hypervisor reports.
  const std::string flags = " " + cpuinfo("flags") + " ";
  AddCustomContext("cpu_amx", flags.find(" amx_tile ") != std::string::npos ? "yes" : "no");
  AddCustomContext("host_threads", std::to_string(kmol::host_threads()));
  AddCustomContext("compiler", __VERSION__);
  for (const auto& d : kmol::gpu_devices())
    AddCustomContext("gpu" + std::to_string(d.id),
                     d.name + ", cc " + std::to_string(d.compute_major) + "." +
                         std::to_string(d.compute_minor) + ", " +
                         std::to_string(d.multiprocessors) + " SMs, " +
                         std::to_string(d.clock_khz / 1000) + " MHz");
#ifdef KMOL_HAVE_CUDA
  int driver = 0, runtime = 0;
  if (cudaDriverGetVersion(&driver) == cudaSuccess &&
      cudaRuntimeGetVersion(&runtime) == cudaSuccess) {
    const auto version = [](int v) {
      return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);
    };
    AddCustomContext("cuda_driver_api", version(driver));
    AddCustomContext("cuda_runtime", version(runtime));
  }
#endif
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<char*> args;
  std::int64_t scale_atoms = 0;
  for (int i = 0; i < argc; ++i) {
    if (std::strncmp(argv[i], "--kmol_scale=", 13) == 0) {
      scale_atoms = std::atoll(argv[i] + 13);
    } else if (std::strcmp(argv[i], "--kmol_smoke") == 0) {
      auto& s = kmol::bench::sizes();
      s.smoke = true;
      s.host_points = 300;
      s.gpu_points = 2000;
      s.cells_points = 20000;
      s.rand48_host = s.rand48_gpu = 100000;
      s.md_host_atoms = s.md_all_pairs_host_atoms = s.md_all_pairs_gpu_atoms = 2048;
      s.md_gpu_atoms = {4000};
      s.sweep_points = 2000;
      s.views_atoms = 20000;
    } else {
      args.push_back(argv[i]);
    }
  }
  int n = int(args.size());
  kmol::Runtime runtime;
  benchmark::Initialize(&n, args.data());
  record_machine(argc, argv);
  if (scale_atoms >
      0) {  // the scale curve's sizes run alone, one per process (perf/scale_curve.sh)
    kmol::bench::register_scale_benchmarks(scale_atoms);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
  }
  kmol::bench::register_pair_histogram_benchmarks();
  kmol::bench::register_rand48_benchmarks();
  kmol::bench::register_md_benchmarks();
  kmol::bench::register_coulomb_benchmarks();
  kmol::bench::register_density_benchmarks();
  kmol::bench::register_orbital_benchmarks();
  kmol::bench::register_worker_pool_benchmarks(kmol::bench::sizes().gpu_points);
  kmol::bench::register_views_benchmarks(kmol::bench::sizes().views_atoms);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
