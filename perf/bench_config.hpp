#pragma once
// Problem sizes: representative by default, tiny with --kmol_smoke (the ctest that keeps the
// suites from rotting).
#include <cstdint>

namespace kmol::bench {

struct Sizes {
  bool smoke = false;
  std::int64_t host_points = 20000;      // all-pairs reference problem on CPUs
  std::int64_t gpu_points = 1000000;     // all-pairs reference problem on GPUs
  std::int64_t cells_points = 1000000;   // cell-path frame at 0.1 / A^3
};

Sizes& sizes();
void register_pair_histogram_benchmarks();

}  // namespace kmol::bench
