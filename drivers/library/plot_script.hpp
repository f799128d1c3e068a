#pragma once
// Plots through a Python script shipped with kmol (Debian's matplotlib): the installed copy
// beside the executable (../share/kmol/NAME) if there is one, else the source tree's.
#include <string>
#include <vector>

namespace kmol {

// Runs /usr/bin/python3 SCRIPT DATA OUT ARGS... writing `path` atomically; `data` (a temporary
// file the caller wrote) is removed in any case. InputError naming `path` and --plot if it fails.
void run_plot_script(const std::string& path, const std::string& name,
                     const std::string& source_script, const std::string& data,
                     const std::vector<std::string>& arguments);

}  // namespace kmol
