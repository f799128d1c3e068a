#pragma once
// Residue names that `protein` and `water` select, as GROMACS' residuetypes.dat classes them.
#include <string>

namespace kmol {

// Amino acids with the protonation and terminal variants of the AMBER, CHARMM, GROMOS and OPLS
// force fields, and the usual caps (ACE, NME, NH2).
bool is_protein_residue(const std::string& resname);

// Water models' residue names (SOL, WAT, HOH, TIP3, SPC, ...).
bool is_water_residue(const std::string& resname);

}  // namespace kmol
