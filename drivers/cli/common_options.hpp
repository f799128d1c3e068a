#pragma once
// The options every computing command spells alike, registered once so that their values and help
// cannot drift apart between commands: --device (the device policy's values), --threads,
// --precision, the plotted plane, the map lattice and --force.
#include <CLI/CLI.hpp>

#include <string>

namespace kmol {
struct LatticeRequest;
}

namespace kmol::cli {

// --device: auto, cpu or gpu (the one-space runs of the device policy).
void add_device_option(CLI::App* command, std::string& device);
// --threads: host threads, -1 for every core.
void add_threads_option(CLI::App* command, int& threads);
// --precision: single or double.
void add_precision_option(CLI::App* command, std::string& precision);
// --plot-axis and --plot-at: the plane a command's --plot draws.
void add_plane_options(CLI::App* command, std::string& axis, double& at);
// --force: run past the preflight's refusals.
void add_force_flag(CLI::App* command, bool& force);
// --spacing, --padding, --origin and --counts of a map's lattice (map_lattice checks them).
void add_lattice_options(CLI::App* command, LatticeRequest& lattice);

}  // namespace kmol::cli
