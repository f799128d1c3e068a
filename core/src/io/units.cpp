#include "kmol/core/io/units.hpp"

#include <cmath>
#include <cstdlib>

#include "kmol/core/errors.hpp"

namespace kmol::io {

std::optional<double> angstrom_per_unit(const std::string& unit) {
  if (unit == "Angstrom" || unit == "angstrom" || unit == "Ang" || unit == "A" || unit == "\u00c5")
    return 1.0;
  if (unit == "nm") return 10.0;
  if (unit == "pm") return 0.01;
  return std::nullopt;
}

std::string accepted_length_units() { return "Angstrom, Ang, A, nm or pm"; }

double parse_length(const std::string& text, const std::string& what) {
  const char* begin = text.c_str();
  char* end = nullptr;
  const double value = std::strtod(begin, &end);
  if (end == begin || !std::isfinite(value))
    throw InputError({"", what, -1}, "'" + text +
                                         "' is not a length (a number, optionally followed by " +
                                         accepted_length_units() + "; default Angstrom)");
  const std::string unit(end);
  if (unit.empty()) return value;
  const auto factor = angstrom_per_unit(unit);
  if (!factor)
    throw InputError({"", what, -1}, "unknown length unit '" + unit + "' in '" + text +
                                         "' (expected " + accepted_length_units() + ")");
  return value * *factor;
}

}  // namespace kmol::io
