#pragma once
// Outputs appear whole or not at all: a reader never sees half a file, and a failed run leaves
// the previous output in place.
#include <functional>
#include <string>

namespace kmol {

// Writes via `write(temporary)` next to `path` and renames; removes the temporary on failure.
void write_atomically(const std::string& path,
                      const std::function<void(const std::string&)>& write);

}  // namespace kmol
