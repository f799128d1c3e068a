#include "drivers/cli/plane_plot.hpp"

#include <fmt/core.h>
#include <fmt/os.h>

#include <cstdio>
#include <cstdlib>

#include "kmol/core/errors.hpp"
#include "kmol/core/stop.hpp"

namespace kmol::cli {

void add_plane_options(CLI::App* cmd, std::string& axis, double& at) {
  cmd->add_option("--plot-axis", axis, "Normal of the plotted plane: x, y or z")
      ->check(CLI::IsMember({"x", "y", "z"}));
  cmd->add_option("--plot-at", at,
                  "Coordinate of the plotted plane (Angstrom; default: the middle)");
}

void plot_plane(const PlanePlot& plot, const Grid& l,
                const std::function<double(std::int64_t, std::int64_t, std::int64_t)>& value) {
  const int axis = plot.axis == "x" ? 0 : plot.axis == "y" ? 1 : 2;
  const int u = axis == 0 ? 1 : 0, v = axis == 2 ? 1 : 2;
  const double origin[3] = {l.origin.x, l.origin.y, l.origin.z};
  std::int64_t at = l.counts[axis] / 2;
  if (std::isfinite(plot.at)) at = std::llround((plot.at - origin[axis]) / l.spacing[axis]);
  if (at < 0 || at >= l.counts[axis])
    throw InputError({"", "--plot-at", -1},
                     fmt::format("{} A lies outside the lattice along {}", plot.at, plot.axis));
  TemporaryFile values(plot.path + ".values"), image(plot.path, "--plot", ".png");
  {
    auto f = fmt::output_file(values.temporary());
    for (std::int64_t b = 0; b < l.counts[v]; ++b) {
      for (std::int64_t a = 0; a < l.counts[u]; ++a) {
        std::int64_t ijk[3];
        ijk[axis] = at;
        ijk[u] = a;
        ijk[v] = b;
        f.print("{:.6e} ", value(ijk[0], ijk[1], ijk[2]));
      }
      f.print("\n");
    }
  }
  const char* names = "xyz";
  const char* script_env = std::getenv("KMOL_PLOT_SCRIPT");
  const std::string script = script_env ? script_env : KMOL_PLOT_SCRIPT;
  const std::string quantity =
      plot.quantity.empty() ? "" : fmt::format(" --quantity '{}'", plot.quantity);
  const std::string command = fmt::format(
      "/usr/bin/python3 '{}' '{}' '{}' --title '{}, {} = {:.2f} A' --xlabel '{} (A)' --ylabel '{} "
      "(A)' "
      "--units '{}'{} --extent {} {} {} {}",
      script, values.temporary(), image.temporary(), plot.title, names[axis],
      origin[axis] + double(at) * l.spacing[axis], names[u], names[v], plot.units, quantity,
      origin[u] - 0.5 * l.spacing[u], origin[u] + (double(l.counts[u]) - 0.5) * l.spacing[u],
      origin[v] - 0.5 * l.spacing[v],
      origin[v] + (double(l.counts[v]) - 0.5) * l.spacing[v]);  // pixels centre on points
  const int status = std::system(command.c_str());
  values.discard();
  if (status != 0)
    throw InputError({plot.path, "--plot", -1},
                     "drawing the plane failed (needs /usr/bin/python3 with python3-matplotlib)");
  image.commit();
}

}  // namespace kmol::cli
