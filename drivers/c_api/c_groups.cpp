#include "drivers/c_api/c_groups.hpp"

#include <fmt/core.h>

#include <cmath>
#include <numeric>
#include <unordered_set>
#include <vector>

#include "kmol/core/errors.hpp"
#include "kmol/core/io/topology.hpp"

namespace kmol::c_api {
namespace {

// A group's atoms are consecutive: a site is a run of one id, so an id met again would make two.
void refuse_split_groups(const std::vector<std::int32_t>& groups) {
  std::unordered_set<std::int32_t> closed;
  for (std::size_t i = 1; i < groups.size(); ++i) {
    if (groups[i] == groups[i - 1]) continue;
    closed.insert(groups[i - 1]);
    if (closed.count(groups[i]) != 0)
      throw InputError({"", "groups", -1},
                       fmt::format("atom {} is in group {}, whose atoms came before atom {} of "
                                   "group {}: each group's atoms must be consecutive",
                                   i, groups[i], i - 1, groups[i - 1]));
  }
}

// Masses finite and >= 0, each group's sum positive.
void refuse_bad_masses(const std::vector<double>& masses, const std::vector<std::int32_t>& groups) {
  std::size_t first = 0;
  double sum = 0;
  for (std::size_t i = 0; i < masses.size(); ++i) {
    if (!(std::isfinite(masses[i]) && masses[i] >= 0))
      throw InputError({"", "masses", -1},
                       fmt::format("atom {} weighs {}: expected a finite mass >= 0", i, masses[i]));
    if (i > 0 && groups[i] != groups[i - 1]) first = i, sum = 0;
    sum += masses[i];
    if ((i + 1 == masses.size() || groups[i + 1] != groups[i]) && !(sum > 0))
      throw InputError({"", "masses", -1},
                       fmt::format("group {} (atoms {} to {}) weighs {}: a centre of mass needs a "
                                   "positive mass (masses NULL: centres of geometry)",
                                   groups[i], first, i, sum));
  }
}

void refuse_bad_bonds(const std::int32_t* bonds, std::int64_t n_bonds, std::int64_t n_atoms) {
  if (n_bonds < 0 || (bonds == nullptr && n_bonds > 0))
    throw InputError(
        {"", "bonds", -1},
        fmt::format("n_bonds pairs of atom indices, or NULL and 0; got {} with n_bonds "
                    "{}",
                    bonds ? "bonds" : "NULL", n_bonds));
  for (std::int64_t k = 0; k < 2 * n_bonds; ++k)
    if (bonds[k] < 0 || bonds[k] >= n_atoms)
      throw InputError({"", "bonds", -1},
                       fmt::format("bond {} names atom {}: expected atom indices 0 to {}", k / 2,
                                   bonds[k], n_atoms - 1));
}

}  // namespace

SiteMap group_sites(const std::int32_t* groups, const double* masses, std::int64_t n_atoms,
                    const std::int32_t* bonds, std::int64_t n_bonds,
                    const std::string& coordinates) {
  if (groups == nullptr || n_atoms < 1)
    throw InputError({"", "groups", -1}, "one group id per atom, at least one atom");
  io::Topology t;
  t.molecules.assign(groups, groups + n_atoms);
  t.residues = t.molecules;
  t.names.assign(std::size_t(n_atoms), coordinates);
  t.resnames = t.names;
  refuse_split_groups(t.molecules);
  std::vector<double> weights;
  if (masses != nullptr) {
    weights.assign(masses, masses + n_atoms);
    refuse_bad_masses(weights, t.molecules);
  }
  refuse_bad_bonds(bonds, n_bonds, n_atoms);
  if (n_bonds > 0) t.bonds.assign(bonds, bonds + 2 * n_bonds);
  std::vector<std::int64_t> every(static_cast<std::size_t>(n_atoms));
  std::iota(every.begin(), every.end(), std::int64_t(0));
  const auto position = masses ? SitePosition::mol_com : SitePosition::mol_cog;
  SiteMap sites = make_sites(every, position, &t, weights, "groups");
  sites.join_hint = "give the group's bonds to kmol_rdf_set_centres, which join them";
  return sites;
}

}  // namespace kmol::c_api
