#include "drivers/cli/option_checks.hpp"

#include "kmol/core/errors.hpp"

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

void excludes(const CLI::App& cmd, const std::string& option, const std::string& other) {
  if (given(cmd, option) && given(cmd, other))
    throw UsageError({"", option, -1}, "cannot be combined with " + other);
}

}  // namespace kmol::cli
