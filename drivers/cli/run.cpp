#include "drivers/cli/run.hpp"

#include <cstdio>
#include <map>
#include <new>
#include <string>

#include "drivers/cli/commands.hpp"
#include "drivers/library/cluster.hpp"
#include "kmol/core/errors.hpp"
#include "kmol/core/runtime.hpp"

namespace kmol::cli {
namespace {

// "kmol: error: ..." on stderr, naming the rank under MPI.
void report(const char* what) {
  const std::string rank = Cluster::describe();
  std::fprintf(stderr, "kmol: error: %s%s\n", what,
               rank.empty() ? "" : (" (" + rank + ")").c_str());
}

}  // namespace

int run(int argc, char** argv) {
  CLI::App app{"kmol: performance-portable kernels for molecular modeling"};
  app.set_version_flag("--version", kmol_version());
  app.require_subcommand(1);
  // Subcommands inherit this: --help shows every option's default.
  app.option_defaults()->always_capture_default();
  std::map<CLI::App*, Action> actions;
  for (auto add :
       {add_info_command, add_histogram_command, add_rand48_command, add_potential_command,
        add_md_command, add_rdf_command, add_histograms_command, add_example_trajectory_command,
        add_surf_command, add_cc_command, add_orbital_command, add_scattering_command}) {
    const std::size_t before = app.get_subcommands({}).size();
    auto action = add(app);
    actions[app.get_subcommands({})[before]] = action;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version exit 0; every other parse error is a usage error (docs/errors.md).
    const int code = app.exit(e);
    return code == 0 ? 0 : exit_usage;
  }
  try {
    for (auto& [sub, action] : actions)
      if (sub->parsed()) return action();
  } catch (const std::bad_alloc&) {
    // An allocation the preflight checks did not foresee (a damaged file's sizes, a memory limit):
    // said in kmol's words, a failed run.
    report(
        "out of memory: the run needs more memory than this process may use; check the "
        "input's atom count and box, and the sizes asked for (--bins, --spacing, --atoms)");
    return Cluster::fail(exit_failure);
  } catch (const std::exception& e) {
    report(e.what());
    return Cluster::fail(exit_code(e));
  }
  return 0;
}

}  // namespace kmol::cli
