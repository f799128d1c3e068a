#pragma once
// Problem sizes: representative by default, tiny with --kmol_smoke (the ctest that keeps the
// suites from rotting). Benchmark names, counters and labels follow docs/study.md, so that
// perf/study picks every suite up.
#include <cstdint>
#include <vector>

namespace kmol::bench {

struct Sizes {
  bool smoke = false;
  std::int64_t host_points = 20000;      // all-pairs reference problem on CPUs
  std::int64_t gpu_points = 1000000;     // all-pairs reference problem on GPUs
  std::int64_t cells_points = 1000000;   // cell-path frame at 0.1 / A^3
  std::int64_t rand48_host = 100000000;  // numbers per call on CPUs
  std::int64_t rand48_gpu = 1 << 30;     // numbers per call on GPUs
  std::int64_t md_host_atoms = 32000;    // LAMMPS' LJ benchmark size
  std::vector<std::int64_t> md_gpu_atoms = {1000000, 4000000};
  std::int64_t md_all_pairs_host_atoms = 4000;
  std::int64_t md_all_pairs_gpu_atoms = 100000;
  std::int64_t sweep_points = 250000;  // tuning sweeps of the CUDA launch parameters
  std::int64_t views_atoms = 1000000;  // the frame of bench_views.cpp
};

Sizes& sizes();
void register_pair_histogram_benchmarks();
void register_rand48_benchmarks();
void register_md_benchmarks();
void register_coulomb_benchmarks();
void register_density_benchmarks();
void register_orbital_benchmarks();
void register_scale_benchmarks(std::int64_t atoms);             // --kmol_scale=N: only these
void register_worker_pool_benchmarks(std::int64_t gpu_points);  // bench_worker_pool.cpp
void register_views_benchmarks(std::int64_t atoms);             // bench_views.cpp
void register_scattering_benchmarks(std::int64_t atoms);        // bench_scattering.cpp

}  // namespace kmol::bench
