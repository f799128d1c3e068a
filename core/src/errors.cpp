#include "kmol/core/errors.hpp"

namespace kmol {
namespace {

std::string describe(const ErrorContext& where, const std::string& what) {
  std::string text;
  if (!where.file.empty()) text += where.file + ": ";
  if (!where.field.empty()) text += where.field + ": ";
  if (where.line >= 0) text += "[" + std::to_string(where.line) + "] ";
  return text + what;
}

}  // namespace

InputError::InputError(const ErrorContext& where, const std::string& what)
    : std::runtime_error(describe(where, what)), where_(where) {}

}  // namespace kmol

namespace kmol {

int exit_code(const std::exception& error) noexcept {
  if (const auto* stop = dynamic_cast<const Interrupted*>(&error)) return 128 + stop->signal();
  if (dynamic_cast<const InputError*>(&error) || dynamic_cast<const UnsupportedError*>(&error))
    return exit_usage;
  return exit_failure;
}

}  // namespace kmol
