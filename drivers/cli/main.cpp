#include <cstdlib>

#include "drivers/cli/run.hpp"
#include "drivers/library/cluster.hpp"
#include "kmol/core/stop.hpp"

int main(int argc, char** argv) {
  kmol::Cluster cluster(argc, argv);  // MPI, when run under mpirun
  kmol::install_stop_handlers(argc, argv);
  // Kokkos warns at start-up when OMP_PROC_BIND is unset. libgomp has read its environment before
  // main, so these only silence that warning: threads are bound where the user's environment asks.
  setenv("OMP_PROC_BIND", "spread", 0);
  setenv("OMP_PLACES", "threads", 0);
  // Every GPU kernel loaded when the runtime starts, unless the user chose otherwise: loaded on
  // first use instead, each module costs 3-4 ms inside the first call that needs it, while
  // loading all of them adds nothing measurable to the runtime's start (docs/study.md, "Scale
  // curve").
  setenv("CUDA_MODULE_LOADING", "EAGER", 0);
  return kmol::cli::run(argc, argv);
}
