#include <string>

#include "drivers/cli/commands.hpp"

namespace kmol::cli {
namespace {

std::string& recorded() {
  static std::string line;
  return line;
}

// Single quotes where the shell would otherwise split or expand the word.
std::string shell_quoted(const std::string& word) {
  const bool plain = !word.empty() && word.find_first_not_of(
                                          "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                          "0123456789_-+=/.,:@%") == std::string::npos;
  if (plain) return word;
  std::string quoted = "'";
  for (char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

}  // namespace

void record_command_line(int argc, char** argv) {
  std::string line = "kmol";
  for (int i = 1; i < argc; ++i) line += " " + shell_quoted(argv[i]);
  recorded() = line;
}

const std::string& command_line() { return recorded(); }

}  // namespace kmol::cli
