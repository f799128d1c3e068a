#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>

#include "drivers/cli/commands.hpp"
#include "drivers/library/cluster.hpp"
#include "kmol/core/errors.hpp"
#include "kmol/core/runtime.hpp"
#include "kmol/core/runtime_notes.hpp"
#include "kmol/core/stop.hpp"

namespace {

// "kmol: error: ..." on stderr, naming the rank under MPI.
void report(const char* what) {
  const std::string rank = kmol::Cluster::describe();
  std::fprintf(stderr, "kmol: error: %s%s\n", what,
               rank.empty() ? "" : (" (" + rank + ")").c_str());
}

}  // namespace

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
  CLI::App app{"kmol: performance-portable kernels for molecular modeling"};
  app.set_version_flag("--version", kmol::kmol_version());
  app.require_subcommand(1);
  // Subcommands inherit this: --help shows every option's default.
  app.option_defaults()->always_capture_default();
  std::map<CLI::App*, kmol::cli::Action> actions;
  for (auto add : {kmol::cli::add_info_command, kmol::cli::add_histogram_command,
                   kmol::cli::add_rand48_command, kmol::cli::add_potential_command,
                   kmol::cli::add_md_command, kmol::cli::add_rdf_command,
                   kmol::cli::add_histograms_command, kmol::cli::add_example_trajectory_command,
                   kmol::cli::add_surf_command, kmol::cli::add_cc_command,
                   kmol::cli::add_orbital_command, kmol::cli::add_scattering_command}) {
    const std::size_t before = app.get_subcommands({}).size();
    auto action = add(app);
    actions[app.get_subcommands({})[before]] = action;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version exit 0; every other parse error is a usage error (docs/errors.md).
    const int code = app.exit(e);
    return code == 0 ? 0 : kmol::exit_usage;
  }
  try {
    for (auto& [sub, action] : actions)
      if (sub->parsed()) return action();
  } catch (const std::exception& e) {
    report(e.what());
    return kmol::Cluster::fail(kmol::exit_code(e));
  }
  return 0;
}
