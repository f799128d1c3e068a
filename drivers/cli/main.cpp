#include <cstdio>
#include <cstdlib>
#include <string>

#include "drivers/cli/run.hpp"
#include "drivers/library/cluster.hpp"
#include "kmol/core/runtime_notes.hpp"
#include "kmol/core/stop.hpp"

int main(int argc, char** argv) {
  kmol::Cluster cluster(argc, argv);  // MPI, when run under mpirun
  kmol::install_stop_handlers(argc, argv);
  kmol::set_runtime_notes([](const std::string& note) {
    std::fprintf(stderr, "kmol: note: %s (--threads N, or OMP_NUM_THREADS, to choose)\n",
                 note.c_str());
  });
  // Every GPU kernel loaded when the runtime starts, unless the user chose otherwise: loaded on
  // first use instead, each module costs 3-4 ms inside the first call that needs it, while
  // loading all of them adds nothing measurable to the runtime's start (docs/study.md, "Scale
  // curve").
  setenv("CUDA_MODULE_LOADING", "EAGER", 0);
  return kmol::cli::run(argc, argv);
}
