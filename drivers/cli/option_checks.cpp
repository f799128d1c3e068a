#include "drivers/cli/option_checks.hpp"

#include "kmol/core/errors.hpp"
#include "kmol/core/io/trajectory_reader.hpp"

namespace kmol::cli {

bool given(const CLI::App& cmd, const std::string& option) { return cmd.count(option) > 0; }

void needs_option(const CLI::App& cmd, std::initializer_list<const char*> options,
                  const std::string& needed) {
  for (const char* option : options)
    if (given(cmd, option) && !given(cmd, needed))
      throw UsageError({"", option, -1}, "applies only with " + needed);
}

void needs_mode(const CLI::App& cmd, std::initializer_list<const char*> options, bool holds,
                const std::string& condition) {
  for (const char* option : options)
    if (given(cmd, option) && !holds)
      throw UsageError({"", option, -1}, "applies only with " + condition);
}

void needs_trajectory_input(const CLI::App& cmd, std::initializer_list<const char*> options,
                            const std::string& input) {
  for (const char* option : options)
    if (given(cmd, option) && !input.empty() && io::sniff_file(input) == io::FileKind::text)
      throw UsageError({input, option, -1},
                       "applies only with a trajectory input, and this file reads as a text "
                       "structure (a damaged or truncated trajectory?)");
}

void excludes(const CLI::App& cmd, const std::string& option, const std::string& other) {
  if (given(cmd, option) && given(cmd, other))
    throw UsageError({"", option, -1}, "cannot be combined with " + other);
}

}  // namespace kmol::cli
