#pragma once
// Atom selections, in the spirit of VMD, MDAnalysis and gmx select:
//   all | none | index 0:99 5 | species 1 | species Na Cl | name CA C* | name "O5'" |
//   resname SOL | resid 1-10 12 | resid 1:10 | resid 1 to 10 | resnum ... | type opls_116 |
//   element O | chain A | segid PROT | protein | water | around 3.5 resname SOL
//   combined with and, or, not and parentheses ("not name H* and (resname SOL or index 0:9)").
// Ranges a:b, a-b and "a to b" include both ends. Unquoted names match shell-style patterns (*,
// ?); quoted ones ('...' or "...") match literally and are never keywords. `species` takes indices
// or, when the file names its species, names. `around R sel` (Angstrom) selects the atoms within
// R of `sel`, minimum image, leaving out `sel`'s own atoms (MDAnalysis' meaning); it binds like
// `not`, so `around 3 (resname SOL and name OW)` needs its parentheses. A selection with `around`
// depends on the positions: it is evaluated for each frame.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "kmol/core/box.hpp"
#include "kmol/core/vec3.hpp"

namespace kmol {

// What selections can ask about each atom; empty vectors mean the property is unknown.
struct AtomTable {
  std::int64_t n_atoms = 0;
  std::vector<std::int32_t> species;
  std::vector<std::string> species_names;  // name of species 0, 1, ...
  std::vector<std::string> names, resnames;
  std::vector<std::int32_t> resids;
  std::vector<std::string> types, elements, chains, segids;
};

// One frame's positions (Angstrom, every atom of the table) and box, for `around`.
struct SelectionFrame {
  const Vec3<double>* positions = nullptr;
  BoxSpec box;  // kind none: plain distances
};

using SelectionMask = std::vector<char>;
struct SelectionNode;

// A parsed selection. Parsing checks every keyword, value and property against the table, so a
// mistake is refused before any frame is read.
class Selection {
 public:
  // Throws InputError naming `option`, with the text and a caret under the place where parsing
  // failed, or naming the property the files lack. `atoms` must outlive the selection.
  Selection(const std::string& text, const AtomTable& atoms, const std::string& option);

  const std::string& text() const { return text_; }
  // Whether the atoms depend on the frame (`around`).
  bool per_frame() const;
  // The selected atoms in increasing order: of a static selection (InputError for one that needs
  // positions), or of one frame.
  std::vector<std::int64_t> atoms() const;
  std::vector<std::int64_t> atoms(const SelectionFrame& frame) const;

 private:
  std::string text_, option_;
  const AtomTable* table_ = nullptr;
  std::shared_ptr<const SelectionNode> root_;
};

// The atoms of a static selection, in increasing order (Selection(...).atoms()).
std::vector<std::int64_t> select_atoms(const std::string& text, const AtomTable& atoms,
                                       const std::string& option);

// The same, refusing a selection of no atoms (InputError naming `option`).
std::vector<std::int64_t> selected_atoms(const std::string& text, const AtomTable& atoms,
                                         const std::string& option);

// What a selection that selects nothing could have asked for: the distinct atom names, residue
// names, types and species names of the table (the most common first, at most `most` of each).
std::string labels_that_exist(const AtomTable& atoms, std::size_t most = 24);

}  // namespace kmol
