#pragma once
// Positions of a selection's sites, as gmx names them (-seltype, -selrpos): its atoms, or the
// centre of mass or geometry of each residue's or molecule's selected atoms (gmx's default for a
// whole selection, its `part_` positions: `resname SOL` with mol_com gives each water's centre of
// mass, `name OW` with mol_com each oxygen). Molecules are made whole across the periodic
// boundaries first:
//   - with bonds (a TPR's chemical bonds, constraints, SETTLEs and virtual sites), each atom is
//     placed at the minimum image of the bond that reaches it from the molecule's first atom;
//     a molecule whose bonds do not join all its atoms, or whose bonds close a ring across the
//     boundary (a molecule bonded to its own image), cannot be made whole and is refused;
//   - without bonds (PDB, GRO, PQR topologies), each atom at the minimum image from the previous
//     atom of its molecule (the file's order; molecules are residues there), refused when the
//     molecule then spans more than the largest sphere inside the box.
// A centre sits near its molecule's first atom as the file places it.
#include <cstdint>
#include <string>
#include <vector>

#include "kmol/core/box.hpp"
#include "kmol/core/io/topology.hpp"
#include "kmol/core/names.hpp"
#include "kmol/core/vec3.hpp"

namespace kmol {

enum class SitePosition { atom, res_com, res_cog, mol_com, mol_cog };

inline constexpr Named<SitePosition> site_position_names[] = {{SitePosition::atom, "atom"},
                                                              {SitePosition::res_com, "res_com"},
                                                              {SitePosition::res_cog, "res_cog"},
                                                              {SitePosition::mol_com, "mol_com"},
                                                              {SitePosition::mol_cog, "mol_cog"}};

// Whether the position's centres are of residues (res_com, res_cog) rather than molecules.
inline bool of_residues(SitePosition p) {
  return p == SitePosition::res_com || p == SitePosition::res_cog;
}

// `text` as a position (InputError naming `option`, listing the names).
SitePosition site_position_named(const std::string& text, const std::string& option);

// How to compute the sites of a selection from a frame's atoms.
struct SiteMap {
  SitePosition position = SitePosition::atom;
  std::vector<std::int64_t> atoms;  // atom positions: the selected atoms
  // Centres: site s averages members[first[s] .. first[s + 1]) with weights (mass or 1).
  std::vector<std::int64_t> first, members;
  std::vector<double> weights;
  // Making whole: atoms in an order where each one's parent (-1: a molecule's first atom) comes
  // before it; bonded says the parent is a bond partner (else the previous atom, no bonds known).
  std::vector<std::int64_t> order, parent;
  std::vector<std::int32_t> molecule_of_order;  // molecule index of each atom in `order`
  std::vector<std::int32_t> ring_bonds;         // bonds not used by `order` (i, j, ...)
  std::vector<std::int32_t> site_molecule;      // molecule of each site, for errors
  bool bonded = false;
  std::string option;  // --pos1, --pos2: named by the errors of a frame
  // What joins the atoms of a molecule that cannot be made whole without bonds.
  std::string join_hint = "give a TPR, whose bonds join them";

  std::int64_t size() const {
    return position == SitePosition::atom ? std::int64_t(atoms.size())
                                          : std::int64_t(first.size()) - 1;
  }
};

// The sites of the selected atoms. `masses`: per atom (the topology's or the trajectory's), or
// empty. Throws InputError naming `option` for a centre of mass without masses (or of atoms whose
// masses sum to 0), a centre without a topology, or a molecule its bonds do not join.
SiteMap make_sites(const std::vector<std::int64_t>& selected, SitePosition position,
                   const io::Topology* topology, const std::vector<double>& masses,
                   const std::string& option);

// The group each site belongs to (`groups`: per atom, residues or molecules), for exclusions: a
// centre's group is that of its first atom.
std::vector<std::int32_t> site_groups(const SiteMap& sites,
                                      const std::vector<std::int32_t>& groups);

// The sites of one frame into out[0 .. sites.size()). `whole` is scratch space the size of the
// frame's atoms. Throws InputError naming the option and molecule when a molecule cannot be made
// whole in this frame.
template <class T>
void site_positions(const SiteMap& sites, const Vec3<T>* atoms, const BoxSpec& box,
                    std::vector<Vec3<double>>& whole, Vec3<T>* out);

}  // namespace kmol
