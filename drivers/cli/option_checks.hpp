#pragma once
// Refusals of options that would otherwise be silently ignored (docs/errors.md): an option that
// only means something beside another, or in another mode, is a usage error naming both.
#include <CLI/CLI.hpp>

#include <initializer_list>
#include <string>

#include "kmol/core/errors.hpp"

namespace kmol::cli {

// True if the user typed `option` on the command line.
bool given(const CLI::App& cmd, const std::string& option);

// Each of `options`, when given, needs `needed` given too.
void needs_option(const CLI::App& cmd, std::initializer_list<const char*> options,
                  const std::string& needed);

// Each of `options` (options that read frames), when given, needs `input` to be a trajectory; a
// damaged or truncated trajectory reads as text too, so the refusal names the file.
void needs_trajectory_input(const CLI::App& cmd, std::initializer_list<const char*> options,
                            const std::string& input);

// Each of `options`, when given, needs the mode `condition` describes (e.g. "--method mdh").
void needs_mode(const CLI::App& cmd, std::initializer_list<const char*> options, bool holds,
                const std::string& condition);

// `option` and `other` exclude each other.
void excludes(const CLI::App& cmd, const std::string& option, const std::string& other);

// Runs f; an InputError naming no file (a check of values read from `file`, such as the atoms a
// lattice is placed around) is rethrown naming it, so that the message says which input is wrong.
template <class F>
decltype(auto) naming_file(const std::string& file, F&& f) {
  try {
    return f();
  } catch (const InputError& e) {
    if (!e.where().file.empty() || file.empty()) throw;
    throw InputError({file, "", -1}, e.what());
  }
}

}  // namespace kmol::cli
