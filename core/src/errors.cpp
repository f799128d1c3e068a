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
