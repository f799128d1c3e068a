#include "drivers/library/rdf_selection.hpp"

#include <fmt/core.h>

#include "drivers/library/exclusion.hpp"
#include "drivers/library/result_check.hpp"
#include "kmol/core/errors.hpp"

namespace kmol {
namespace {

template <class V>
std::vector<V> gather(const std::vector<V>& values, const std::vector<std::int64_t>& atoms) {
  std::vector<V> out;
  out.reserve(atoms.size());
  for (auto i : atoms) out.push_back(values[i]);
  return out;
}

// The pairs the selections and exclusions leave to count; none is refused before the run.
void refuse_no_pairs(const RdfSelectionOptions& o, const RdfPairs& p) {
  const std::int64_t pairs = distinct_pairs(p.n_a, p.n_b, p.one_set, p.shared_atoms);
  if (!o.exclude_same.empty())
    refuse_excluding_every_pair(pairs, p.excluded_pairs, o.exclude_option, o.exclude_same);
  if (pairs <= 0)
    throw InputError({"", o.sel1_option, -1}, "'" + o.sel1 + "' selects one atom and there is no " +
                                                  o.sel2_option + ": there is no pair");
}

// The sites of the two sets where either counts centres (RdfSelection::sites_a, sites_b).
void choose_sites(const Trajectory& t, const RdfSelectionOptions& o, RdfSelection& s,
                  const std::vector<std::int64_t>& atoms_b) {
  s.pos1 = site_position_named(o.pos1, o.pos1_option);
  s.pos2 = o.pos2.empty() ? s.pos1 : site_position_named(o.pos2, o.pos2_option);
  s.pairs.one_set = atoms_b == s.atoms_a && s.pos1 == s.pos2;
  if (s.pos1 == SitePosition::atom && s.pos2 == SitePosition::atom) return;
  const std::vector<double>& masses =
      t.topology && !t.topology->masses.empty() ? t.topology->masses : t.reader->masses();
  s.sites_a = std::make_shared<SiteMap>(
      make_sites(s.atoms_a, s.pos1, t.topology.get(), masses, o.pos1_option));
  if (!s.pairs.one_set)
    s.sites_b = std::make_shared<SiteMap>(make_sites(
        atoms_b, s.pos2, t.topology.get(), masses, o.pos2.empty() ? o.pos1_option : o.pos2_option));
}

// Exclusion labels of the sets' sites from per-atom groups.
void label_sites(RdfSelection& s, const std::vector<std::int32_t>& groups) {
  s.molecule_a = s.sites_a ? site_groups(*s.sites_a, groups) : gather(groups, s.atoms_a);
  if (!s.pairs.one_set)
    s.molecule_b = s.sites_b ? site_groups(*s.sites_b, groups) : gather(groups, s.atoms_b);
}

}  // namespace

RdfSelection select_rdf_pairs(const Trajectory& t, const RdfSelectionOptions& o) {
  RdfSelection s;
  s.atoms_a = selected_atoms(o.sel1, t.atoms, o.sel1_option);
  s.sel2 = o.sel2.empty() ? o.sel1 : o.sel2;
  const auto atoms_b = selected_atoms(s.sel2, t.atoms, o.sel2_option);
  choose_sites(t, o, s, atoms_b);
  RdfPairs& p = s.pairs;
  if (!p.one_set) s.atoms_b = atoms_b;
  const bool centres = s.sites_a != nullptr;
  p.n_a = centres ? s.sites_a->size() : std::int64_t(s.atoms_a.size());
  p.n_b = p.one_set ? p.n_a : s.sites_b ? s.sites_b->size() : std::int64_t(atoms_b.size());

  if (!p.one_set && !centres) {
    std::vector<char> in_a(std::size_t(t.atoms.n_atoms), 0);
    for (auto i : s.atoms_a) in_a[i] = 1;
    for (auto j : s.atoms_b) p.shared_atoms += in_a[j];
  }
  if (!o.exclude_same.empty()) {
    const auto& groups = grouping(t, o.exclude_same);
    if (o.exclude_same == "molecule" && !t.topology->note.empty() && !o.quiet)
      fmt::print(stderr, "kmol: note: {}\n", t.topology->note);
    label_sites(s, groups);
    p.excluded_pairs = excluded_pairs(s.molecule_a, s.molecule_b, p.one_set) - p.shared_atoms;
  } else if (centres && !p.one_set) {
    // Two sets of centres: two centres of one residue or molecule are never paired.
    label_sites(s, of_residues(s.pos1) && of_residues(s.pos2) ? t.topology->residues
                                                              : t.topology->molecules);
    p.shared_atoms = excluded_pairs(s.molecule_a, s.molecule_b, false);
  } else if (p.shared_atoms > 0) {
    // An atom in both selections is not paired with itself: label every atom as its own group.
    std::vector<std::int32_t> self(std::size_t(t.atoms.n_atoms));
    for (std::size_t i = 0; i < self.size(); ++i) self[i] = std::int32_t(i);
    label_sites(s, self);
  }
  refuse_no_pairs(o, p);
  return s;
}

FrameJob rdf_frame_job(const RdfJob& job, const RdfSelection& selection) {
  FrameJob frames;
  static_cast<PairSets&>(frames) = selection;
  frames.settings = job.count_settings();
  frames.periodic = job.settings().periodic;
  frames.precision = job.settings().precision;
  return frames;
}

}  // namespace kmol
