#pragma once
// Atom selections, in the spirit of VMD and MDAnalysis:
//   all | none | index 0:99 5 | species 1 | species Na Cl | name CA C* | resname SOL | resid 1:10
//   combined with and, or, not and parentheses ("not name H* and (resname SOL or index 0:9)").
// Ranges a:b include both ends. Names match shell-style patterns (*, ?). `species` takes indices
// or, when the file names its species, names.
#include <cstdint>
#include <string>
#include <vector>

namespace kmol {

// What selections can ask about each atom; empty vectors mean the property is unknown.
struct AtomTable {
  std::int64_t n_atoms = 0;
  std::vector<std::int32_t> species;
  std::vector<std::string> species_names;  // name of species 0, 1, ...
  std::vector<std::string> names, resnames;
  std::vector<std::int32_t> resids;
};

// Indices of the selected atoms in increasing order. Throws InputError naming `option` with the
// text and a caret under the place where parsing failed, or naming the property the file lacks.
std::vector<std::int64_t> select_atoms(const std::string& text, const AtomTable& atoms,
                                       const std::string& option);

// The same, refusing a selection of no atoms (InputError naming `option`).
std::vector<std::int64_t> selected_atoms(const std::string& text, const AtomTable& atoms,
                                         const std::string& option);

}  // namespace kmol
