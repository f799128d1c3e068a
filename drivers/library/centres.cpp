#include "drivers/library/centres.hpp"

#include <fmt/core.h>

#include <cmath>
#include <map>

#include "kmol/core/errors.hpp"

namespace kmol {
namespace {

bool by_mass(SitePosition p) { return p == SitePosition::res_com || p == SitePosition::mol_com; }

// "molecule 12 (atoms 36 to 38, SOL)": where the user can find it.
std::string molecule_named(const io::Topology& t, std::int32_t m,
                           const std::vector<std::int64_t>& atoms) {
  return fmt::format("molecule {} (atoms {} to {}, {})", m, atoms.front(), atoms.back(),
                     t.resnames[std::size_t(atoms.front())]);
}

// The atoms of each molecule, in file order.
std::map<std::int32_t, std::vector<std::int64_t>> atoms_of_molecules(
    const io::Topology& t, const std::vector<std::int32_t>& wanted) {
  std::map<std::int32_t, std::vector<std::int64_t>> atoms;
  for (auto m : wanted) atoms.emplace(m, std::vector<std::int64_t>{});
  for (std::size_t i = 0; i < t.size(); ++i) {
    const auto it = atoms.find(t.molecules[i]);
    if (it != atoms.end()) it->second.push_back(std::int64_t(i));
  }
  return atoms;
}

// Adds a molecule's traversal along its bonds (breadth first from its first atom); the bonds the
// traversal does not use close rings, checked in every frame.
void add_bonded_molecule(SiteMap& s, const io::Topology& t, std::int32_t m,
                         const std::vector<std::int64_t>& atoms,
                         const std::vector<std::vector<std::int64_t>>& neighbours,
                         std::vector<std::int64_t>& parent_of) {
  std::size_t head = s.order.size();
  s.order.push_back(atoms.front());
  s.parent.push_back(-1);
  s.molecule_of_order.push_back(m);
  parent_of[std::size_t(atoms.front())] = atoms.front();
  while (head < s.order.size()) {
    const std::int64_t a = s.order[head++];
    for (const std::int64_t b : neighbours[std::size_t(a)]) {
      if (t.molecules[std::size_t(b)] != m) continue;  // bonds between molecules join nothing
      if (parent_of[std::size_t(b)] >= 0) {
        if (b > a && parent_of[std::size_t(b)] != a && parent_of[std::size_t(a)] != b) {
          s.ring_bonds.push_back(std::int32_t(a));
          s.ring_bonds.push_back(std::int32_t(b));
        }
        continue;
      }
      parent_of[std::size_t(b)] = a;
      s.order.push_back(b);
      s.parent.push_back(a);
      s.molecule_of_order.push_back(m);
    }
  }
  for (const std::int64_t a : atoms)
    if (parent_of[std::size_t(a)] < 0)
      throw InputError({"", s.option, -1},
                       fmt::format("{} cannot be made whole: the topology's bonds do not join "
                                   "atom {} ({}) to the molecule's first atom",
                                   molecule_named(t, m, atoms), a, t.names[std::size_t(a)]));
}

void add_unbonded_molecule(SiteMap& s, std::int32_t m, const std::vector<std::int64_t>& atoms) {
  for (std::size_t k = 0; k < atoms.size(); ++k) {
    s.order.push_back(atoms[k]);
    s.parent.push_back(k == 0 ? -1 : atoms[k - 1]);
    s.molecule_of_order.push_back(m);
  }
}

void add_traversals(SiteMap& s, const io::Topology& t) {
  std::vector<std::int32_t> wanted;
  for (std::size_t k = 0; k + 1 < s.first.size(); ++k)
    wanted.push_back(t.molecules[std::size_t(s.members[std::size_t(s.first[k])])]);
  s.site_molecule = wanted;
  s.bonded = !t.bonds.empty();
  std::vector<std::vector<std::int64_t>> neighbours;
  std::vector<std::int64_t> parent_of;
  if (s.bonded) {
    neighbours.resize(t.size());
    for (std::size_t k = 0; k + 1 < t.bonds.size(); k += 2) {
      neighbours[std::size_t(t.bonds[k])].push_back(t.bonds[k + 1]);
      neighbours[std::size_t(t.bonds[k + 1])].push_back(t.bonds[k]);
    }
    parent_of.assign(t.size(), -1);
  }
  for (const auto& [m, atoms] : atoms_of_molecules(t, wanted)) {
    if (s.bonded)
      add_bonded_molecule(s, t, m, atoms, neighbours, parent_of);
    else
      add_unbonded_molecule(s, m, atoms);
  }
}

}  // namespace

SitePosition site_position_named(const std::string& text, const std::string& option) {
  return value_named(site_position_names, text, option, "position");
}

SiteMap make_sites(const std::vector<std::int64_t>& selected, SitePosition position,
                   const io::Topology* topology, const std::vector<double>& masses,
                   const std::string& option) {
  SiteMap s;
  s.position = position;
  s.option = option;
  if (position == SitePosition::atom) {
    s.atoms = selected;
    return s;
  }
  const std::string name = name_of(site_position_names, position);
  if (!topology)
    throw InputError({"", option, -1}, name +
                                           ": residues and molecules come from a topology: "
                                           "give one with --top (TPR, PDB, GRO or PQR)");
  if (by_mass(position) && masses.empty())
    throw InputError({"", option, -1},
                     name +
                         ": centres of mass need masses, which neither the topology nor the "
                         "trajectory gives: give a TPR with --top, or use " +
                         (of_residues(position) ? "res_cog" : "mol_cog"));
  const auto& group = of_residues(position) ? topology->residues : topology->molecules;
  std::int32_t current = -1;
  double weight = 0;
  auto close_site = [&] {
    if (current >= 0 && !(weight > 0))
      throw InputError({"", option, -1},
                       fmt::format("{}: the selected atoms of {} {} have no mass (their masses sum "
                                   "to {}): use {}",
                                   name, of_residues(position) ? "residue" : "molecule", current,
                                   weight, of_residues(position) ? "res_cog" : "mol_cog"));
  };
  for (const std::int64_t a : selected) {
    if (group[std::size_t(a)] != current) {
      close_site();
      current = group[std::size_t(a)];
      weight = 0;
      s.first.push_back(std::int64_t(s.members.size()));
    }
    s.members.push_back(a);
    s.weights.push_back(by_mass(position) ? masses[std::size_t(a)] : 1.0);
    weight += s.weights.back();
  }
  close_site();
  s.first.push_back(std::int64_t(s.members.size()));
  add_traversals(s, *topology);
  return s;
}

std::vector<std::int32_t> site_groups(const SiteMap& s, const std::vector<std::int32_t>& groups) {
  std::vector<std::int32_t> out;
  if (s.position == SitePosition::atom) {
    for (auto a : s.atoms) out.push_back(groups[std::size_t(a)]);
  } else {
    for (std::size_t k = 0; k + 1 < s.first.size(); ++k)
      out.push_back(groups[std::size_t(s.members[std::size_t(s.first[k])])]);
  }
  return out;
}

namespace {

// Ring bonds whose unwrapped length differs from their minimum image by more than this (Angstrom)
// close across the boundary: the molecule is bonded to its own image.
constexpr double ring_tolerance = 0.1;

template <class T, class Box>
void make_whole(const SiteMap& s, const Vec3<T>* x, const Box& box, double limit,
                std::vector<Vec3<double>>& whole) {
  std::int64_t root = -1;
  for (std::size_t k = 0; k < s.order.size(); ++k) {
    const auto a = std::size_t(s.order[k]);
    if (s.parent[k] < 0) {
      root = std::int64_t(a);
      whole[a] = x[a].template cast<double>();
      continue;
    }
    const auto p = std::size_t(s.parent[k]);
    whole[a] = whole[p] + box.minimum_image((x[a] - x[p]).template cast<double>());
    if (!s.bonded && norm2(whole[a] - whole[std::size_t(root)]) > limit * limit)
      throw InputError({"", s.option, -1},
                       fmt::format("molecule {} cannot be made whole: without bonds in the "
                                   "topology its atoms are joined in file order, and atom {} then "
                                   "lies {:.4g} Angstrom from atom {}, beyond the largest sphere "
                                   "inside the box ({:.4g}); {}",
                                   s.molecule_of_order[k], a,
                                   std::sqrt(norm2(whole[a] - whole[std::size_t(root)])), root,
                                   limit, s.join_hint));
  }
  for (std::size_t k = 0; k + 1 < s.ring_bonds.size(); k += 2) {
    const auto i = std::size_t(s.ring_bonds[k]), j = std::size_t(s.ring_bonds[k + 1]);
    const Vec3<double> image = box.minimum_image((x[j] - x[i]).template cast<double>());
    if (norm2(whole[j] - whole[i] - image) > ring_tolerance * ring_tolerance)
      throw InputError({"", s.option, -1},
                       fmt::format("the molecule of atoms {} and {} cannot be made whole: their "
                                   "bond closes a ring across the periodic boundary (a molecule "
                                   "bonded to its own image, infinite through the box)",
                                   i, j));
  }
}

}  // namespace

template <class T>
void site_positions(const SiteMap& s, const Vec3<T>* x, const BoxSpec& box,
                    std::vector<Vec3<double>>& whole, Vec3<T>* out) {
  if (s.position == SitePosition::atom) {
    for (std::size_t k = 0; k < s.atoms.size(); ++k) out[k] = x[std::size_t(s.atoms[k])];
    return;
  }
  const double limit = box.kind == BoxKind::none ? INFINITY : inscribed_radius(validated(box));
  visit_box<double>(box, [&](const auto& b) { make_whole(s, x, b, limit, whole); });
  for (std::size_t site = 0; site + 1 < s.first.size(); ++site) {
    Vec3<double> sum{};
    double weight = 0;
    for (auto k = std::size_t(s.first[site]); k < std::size_t(s.first[site + 1]); ++k) {
      sum = sum + s.weights[k] * whole[std::size_t(s.members[k])];
      weight += s.weights[k];
    }
    out[site] = ((1 / weight) * sum).template cast<T>();
  }
}

template void site_positions(const SiteMap&, const Vec3<float>*, const BoxSpec&,
                             std::vector<Vec3<double>>&, Vec3<float>*);
template void site_positions(const SiteMap&, const Vec3<double>*, const BoxSpec&,
                             std::vector<Vec3<double>>&, Vec3<double>*);

}  // namespace kmol
