#include "drivers/cli/common_options.hpp"

#include "drivers/library/device_policy.hpp"
#include "drivers/library/map_job.hpp"
#include "kmol/core/precision.hpp"

namespace kmol::cli {

void add_device_option(CLI::App* cmd, std::string& device) {
  cmd->add_option("--device", device, "auto, cpu or gpu")
      ->check(CLI::IsMember({to_string(DevicePolicy::automatic), to_string(DevicePolicy::cpu),
                             to_string(DevicePolicy::gpu)}));
}

void add_threads_option(CLI::App* cmd, int& threads) {
  cmd->add_option("--threads", threads, "Host threads (default: all cores)");
}

void add_precision_option(CLI::App* cmd, std::string& precision) {
  cmd->add_option("--precision", precision, "single or double")
      ->check(CLI::IsMember(
          {std::string(to_string(Precision::single)), std::string(to_string(Precision::double_))}));
}

void add_plane_options(CLI::App* cmd, std::string& axis, double& at) {
  cmd->add_option("--plot-axis", axis, "Normal of the plotted plane: x, y or z")
      ->check(CLI::IsMember({"x", "y", "z"}));
  cmd->add_option("--plot-at", at,
                  "Coordinate of the plotted plane (Angstrom; default: the middle)");
}

void add_force_flag(CLI::App* cmd, bool& force) {
  cmd->add_flag("--force", force, "Run even where the preflight estimates refuse it");
}

void add_lattice_options(CLI::App* cmd, LatticeRequest& lattice) {
  cmd->add_option("--spacing", lattice.spacing, "Grid spacing (Angstrom)");
  cmd->add_option("--padding", lattice.padding,
                  "Automatic lattice: margin around the atoms (Angstrom)");
  cmd->add_option("--origin", lattice.origin, "Grid origin x y z (Angstrom; with --counts)")
      ->expected(3);
  cmd->add_option("--counts", lattice.counts, "Grid points nx ny nz (with --origin)")->expected(3);
}

}  // namespace kmol::cli
