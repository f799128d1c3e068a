// kmol_scattering_bench: one scattering frame (partial histograms and transform) of 100,000 and
// 1,000,000 atoms (--kmol_smoke: 2,000 and 20,000), for GPU machines.
#include "perf/bench_config.hpp"
#include "perf/suite_main.hpp"

int main(int argc, char** argv) {
  return kmol::bench::run_suite(argc, argv, 1000000, 20000,
                                kmol::bench::register_scattering_benchmarks);
}
