#pragma once
// One structure read as a single frame: PDB (.pdb, .ent: ATOM/HETATM coordinates, element
// columns 77-78, the CRYST1 cell), GRO (.gro: nm coordinates and the box line) or PQR (.pqr:
// no element columns, no cell). Coordinates in Angstrom.
#include <string>
#include <vector>

#include "drivers/library/scattering.hpp"
#include "kmol/core/box.hpp"

namespace kmol {

struct StructureFrame {
  std::vector<Vec3<double>> xyz;
  AtomIdentity atoms;
  BoxSpec box = BoxSpec::none();
};

// Whether `path` names a structure file by its extension.
bool is_scattering_structure(const std::string& path);

// Throws InputError naming the file and line for a record that cannot be read, or for none.
StructureFrame read_structure_file(const std::string& path);

}  // namespace kmol
