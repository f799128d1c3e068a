#pragma once
// Elements of atoms told by their names, with the radii and masses kmol tabulates for them: what
// every front end uses where a file gives no radius or mass of its own.
#include <string>
#include <vector>

#include "kmol/core/io/topology.hpp"

namespace kmol {

// Bondi's van der Waals radius of an element symbol (H 1.20, C 1.70, N 1.55, O 1.52, ...);
// `fallback` for elements not in the table.
double element_radius(const std::string& element, double fallback);

// IUPAC's conventional standard atomic weight of an element symbol (H 1.008, C 12.011, N 14.007,
// O 15.999, ...), NaN for elements not in the table.
double element_mass(const std::string& element);

// The element of a PDB/PQR atom name: letters of the name, two-letter symbols only where the
// name is right-aligned as PDB writes them for such elements (column 13).
std::string element_of_name(const std::string& name);

// The element of a name from a topology, where names are stored without PDB's column alignment:
// two-letter elements only for single-atom residues named after them (GROMACS' NA, CL, CA, ZN
// ions), so that CA in a protein stays a carbon.
std::string element_of_trimmed_name(const std::string& name, const std::string& resname);

// The element of every atom of a topology (element_of_trimmed_name of its names and residues).
std::vector<std::string> topology_elements(const io::Topology& top);

// Per-atom masses (g/mol) of a topology: its own (TPR), else by the elements of its atom names
// (NaN for an unknown element); `from` says which, for messages.
std::vector<float> topology_masses(const io::Topology& top, const std::string& path,
                                   std::string& from);

}  // namespace kmol
