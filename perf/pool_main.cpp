// kmol_pool_bench: the worker pool's suites alone (bench_worker_pool.cpp), for GPU machines.
// --kmol_smoke runs them on tiny problems (the ctest).
#include "perf/bench_config.hpp"
#include "perf/suite_main.hpp"

int main(int argc, char** argv) {
  return kmol::bench::run_suite(argc, argv, 1000000, 2000,
                                kmol::bench::register_worker_pool_benchmarks);
}
