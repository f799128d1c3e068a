// kmol_views_bench: the View entry points against host arrays alone (bench_views.cpp), for GPU
// machines. --kmol_smoke runs them on a small frame (the ctest).
#include "perf/bench_config.hpp"
#include "perf/suite_main.hpp"

int main(int argc, char** argv) {
  return kmol::bench::run_suite(argc, argv, kmol::bench::Sizes().views_atoms, 20000,
                                kmol::bench::register_views_benchmarks);
}
