#pragma once
// Element symbols of atoms whose file does not name them, for `element` in selections.
#include <string>

namespace kmol::io {

// The symbol of atomic number z ("O" for 8), or "" beyond the table.
std::string element_of_number(int z);

// The standard atomic weight of an element symbol, any case ("CL", "Cl"), or NaN.
double mass_of_element(const std::string& symbol);

// The element whose standard atomic weight (IUPAC 2013, g/mol) lies nearest `mass`, within 0.1,, or
// "" (united atoms such as CH3 at 15.035 and virtual sites of mass 0 have none).
std::string element_of_mass(double mass);

// The element an atom name suggests, as molecular files mean it: a two-letter element where the
// name is an ion's (letters only and the residue's name, as NA in NA or CL in CL), otherwise the
// first letter after leading digits ("1HB" and "HB1" give H, "CA" in ALA gives C).
std::string element_of_name(const std::string& name, const std::string& resname);

}  // namespace kmol::io
