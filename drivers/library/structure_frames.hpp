#pragma once
// The frames of a text structure file, as kmol reads them:
//   PDB (.pdb, .ent): ATOM/HETATM records, every MODEL a frame (one frame without MODEL records),
//     CRYST1 the box; elements from columns 77-78, else from the atom name's alignment.
//   GRO (.gro): every frame of the file (gmx trjconv writes several), nm converted to Angstrom,
//     the last line the box; time and step from the title's "t=" and "step=" where it has them.
//   PQR (.pqr): one frame, with the file's radii (read_pqr).
//   XYZ (.xyz): every frame (a count line, a comment line, "name x y z" lines), no box.
// Elements from PDB's element columns, else from the atom names (PDB: by their alignment; GRO,
// PQR: two-letter elements only for single-atom residues named after them, so that CA in a
// protein is a carbon; XYZ: the names are symbols). Masses and radii by element (NaN, and the
// fallback radius, for an element kmol does not tabulate).
#include <cstdint>
#include <string>
#include <vector>

#include "kmol/core/box.hpp"
#include "kmol/core/vec3.hpp"

namespace kmol {

struct StructureFrames {
  std::string format;                                // "PDB", "GRO", "PQR", "XYZ"
  std::vector<std::string> names;                    // atom names, trimmed
  std::vector<std::vector<Vec3<double>>> positions;  // [frame][atom], Angstrom
  std::vector<BoxSpec> boxes;                        // per frame; kind none without one
  std::vector<double> times;                         // per frame, as the file gives it (0: none)
  std::vector<std::int64_t> steps;                   // per frame (the frame's number: none)
  std::vector<std::string> elements;                 // symbols; "" where none is told
  std::vector<float> masses;                         // g/mol by element
  std::vector<float> radii;  // PQR's own radii; by element elsewhere (`fallback` if unknown)
  std::string masses_from;   // where the masses come from, for messages

  std::int64_t frames() const { return std::int64_t(positions.size()); }
  std::size_t atoms() const { return names.size(); }
};

// Whether `path` names a structure format of this list (by its extension).
bool is_structure_file(const std::string& path);

// Throws InputError naming the file, field and line; `fallback_radius` for elements without one.
StructureFrames read_structure_frames(const std::string& path, double fallback_radius = 1.5);

}  // namespace kmol
