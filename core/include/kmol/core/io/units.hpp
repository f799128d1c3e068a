#pragma once
// Length units. kmol works in Angstrom (like VMD, MDAnalysis, PQR and OpenDX); lengths stored or
// typed in other units are converted where they enter.
#include <optional>
#include <string>

namespace kmol::io {

// Angstrom per unit for the names kmol accepts ("Angstrom", "Ang", "A", "nm", "pm"); nothing
// for any other name.
std::optional<double> angstrom_per_unit(const std::string& unit);

// The accepted unit names, for error messages.
std::string accepted_length_units();

// A length typed by a user: "12", "12A", "1.2nm", "300pm" -> Angstrom. `what` names the option
// in the InputError thrown for anything else.
double parse_length(const std::string& text, const std::string& what);

}  // namespace kmol::io
