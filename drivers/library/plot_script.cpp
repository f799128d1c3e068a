// Plot scripts run with Debian's python3 (plot_script.hpp).
#include "drivers/library/plot_script.hpp"

#include <fmt/core.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include "drivers/library/atomic_write.hpp"
#include "kmol/core/errors.hpp"

namespace kmol {

void run_plot_script(const std::string& path, const std::string& name,
                     const std::string& source_script, const std::string& data,
                     const std::vector<std::string>& arguments) {
  std::string script = source_script;
  char exe[4096] = {};
  if (readlink("/proc/self/exe", exe, sizeof(exe) - 1) > 0) {
    std::string installed(exe);
    installed = installed.substr(0, installed.rfind('/')) + "/../share/kmol/" + name;
    if (access(installed.c_str(), R_OK) == 0) script = installed;
  }
  try {
    write_atomically(path, [&](const std::string& temporary) {
      std::string command = fmt::format("/usr/bin/python3 '{}' '{}' '{}'", script, data, temporary);
      for (const auto& argument : arguments) command += " '" + argument + "'";
      if (std::system(command.c_str()) != 0)
        throw InputError({path, "--plot", -1},
                         "the plot failed (needs /usr/bin/python3 with Debian's "
                         "python3-matplotlib: scripts/bootstrap installs it)");
    });
  } catch (...) {
    std::remove(data.c_str());
    throw;
  }
  std::remove(data.c_str());
}

}  // namespace kmol
