#pragma once
// Each subcommand registers its options on the CLI11 app and returns the action to run.
#include <CLI/CLI.hpp>

#include <functional>
#include <string>

namespace kmol::cli {

using Action = std::function<int()>;

Action add_info_command(CLI::App& app);
Action add_histogram_command(CLI::App& app);
Action add_rand48_command(CLI::App& app);
Action add_potential_command(CLI::App& app);
Action add_md_command(CLI::App& app);
Action add_rdf_command(CLI::App& app);
Action add_histograms_command(CLI::App& app);
Action add_example_trajectory_command(CLI::App& app);
Action add_surf_command(CLI::App& app);
Action add_cc_command(CLI::App& app);
Action add_orbital_command(CLI::App& app);
Action add_scattering_command(CLI::App& app);

}  // namespace kmol::cli
