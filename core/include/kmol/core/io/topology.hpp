#pragma once
// Atom names and residues from a structure file given with --top, for selections and for
// excluding pairs within one residue or molecule, and charges and masses where the file has them.
// The file's atoms must be the trajectory's, in the same order. The format is told by content.
//   TPR (GROMACS run input, through libgromacs): names, residues, molecules, charges, masses,
//     atom types, elements and the bonds that hold each molecule together.
//   PDB (.pdb, .ent): ATOM/HETATM records (elements and segment ids from columns 77-78 and
//     73-76 where written); molecules end at TER records and chain changes. A file
//     with no TER between its atoms (gmx trjconv writes none between waters) takes molecules
//     from its residues, joined by CONECT bonds between residues, and says so in `note`.
//   GRO (.gro): fixed columns; each residue is a molecule (GRO has no molecule records).
//   PQR (.pqr): read by read_pqr; each residue is a molecule.
#include <cstdint>
#include <string>
#include <vector>

namespace kmol::io {

struct Topology {
  std::vector<std::string> names, resnames, chains;
  std::vector<std::int32_t> resids;  // as written in the file
  std::vector<std::int32_t>
      residues;  // 0-based: a new residue where chain, resid or resname changes
  std::vector<std::int32_t> molecules;  // 0-based
  std::vector<double> charges, masses;  // elementary charges and g/mol, or empty
  std::vector<std::string> types;       // force-field atom types (TPR), or empty
  // Element symbols as the file writes them ("" where it does not), or empty; the library's
  // topology_elements tells the others from atomic numbers, masses and names.
  std::vector<std::string> elements;
  std::vector<std::int32_t> atomic_numbers;  // TPR's (0 where unset), or empty
  std::vector<std::string> segids;           // PDB segment ids, or empty
  // Bonded atom pairs (i, j, i, j, ...): the TPR's chemical bonds, constraints, SETTLE water
  // bonds and virtual sites tied to their first constructing atom; empty for other files.
  std::vector<std::int32_t> bonds;
  std::string note;  // how molecules were told where the file does not say, or empty

  std::size_t size() const { return names.size(); }
};

// Throws InputError naming the file and line, or what the file looks like when it is no topology.
Topology read_topology(const std::string& path);

}  // namespace kmol::io
