#pragma once
// PQR files: PDB-like ATOM/HETATM records carrying a charge (e) and a radius (Angstrom) per atom.
// Both forms in use are read:
//   - APBS' whitespace form: ATOM serial name residue [chain] resid x y z charge radius
//   - pdb2pqr's fixed columns (PDB columns for name 13-16, residue 18-21, chain 22, resid 23-26,
//     x/y/z 31-54, then charge and radius), which still reads when coordinates run together.
// Other records (REMARK, TER, END, CRYST1, ...) are skipped.
#include <cstdint>
#include <istream>
#include <string>
#include <vector>

#include "kmol/core/vec3.hpp"

namespace kmol::io {

// One entry per ATOM/HETATM record, in file order (structure of arrays).
struct PqrAtoms {
  std::vector<Vec3<double>> positions;  // Angstrom
  std::vector<double> charges;          // e
  std::vector<double> radii;            // Angstrom
  std::vector<std::string> atom_names;
  std::vector<std::string> residue_names;
  std::vector<std::int32_t> residue_ids;
  std::vector<std::string> chains;  // empty string when the record has none

  std::size_t size() const { return positions.size(); }
  double total_charge() const;
};

// The magnitudes a record is read in: beyond them a field is damaged (no atom carries 1000 e or
// is 1000 Angstrom wide, and no structure spans 1e7 Angstrom).
inline constexpr double max_pqr_coordinate = 1e7, max_pqr_charge = 1000, max_pqr_radius = 1000;

// Throws InputError naming the file, the field (e.g. "charge") and the 1-based line number for a
// malformed record, a non-finite number, a negative radius or a value beyond the magnitudes
// above, and when no atom record is found.
PqrAtoms read_pqr(const std::string& path);

// The same from a stream; `source` names it in error messages.
PqrAtoms parse_pqr(std::istream& in, const std::string& source);

}  // namespace kmol::io
