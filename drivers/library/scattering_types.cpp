// Scattering types: each atom's element (element column, --element overrides, masses, names)
// and, for neutrons, whether it is an exchangeable hydrogen.
#include <fmt/core.h>

#include <cmath>
#include <unordered_map>

#include "drivers/library/scattering.hpp"
#include "kmol/core/errors.hpp"

namespace kmol {
namespace {

// Overrides "NAME=EL" by atom name.
std::unordered_map<std::string, const ElementData*> parse_overrides(
    const std::vector<std::string>& overrides, const std::string& option) {
  std::unordered_map<std::string, const ElementData*> out;
  for (const auto& text : overrides) {
    const auto eq = text.find('=');
    const ElementData* e = eq == std::string::npos ? nullptr : element_named(text.substr(eq + 1));
    if (eq == 0 || e == nullptr)
      throw InputError({"", option, -1},
                       fmt::format("'{}' is not NAME=ELEMENT with a known element symbol (e.g. "
                                   "OW=O, CA=C, ZN=Zn)",
                                   text));
    out[text.substr(0, eq)] = e;
  }
  return out;
}

// Masses within 0.015 g/mol of a standard weight: force fields' element masses, not united atoms
// (CH2's 14.027 is not nitrogen's 14.007).
const ElementData* element_of_force_field_mass(double mass) {
  const ElementData* e = element_of_mass(mass);
  return e != nullptr && std::abs(e->mass - mass) <= 0.015 ? e : nullptr;
}

const ElementData* element_of_atom(const AtomIdentity& atoms, std::size_t i,
                                   const std::unordered_map<std::string, const ElementData*>& set,
                                   std::vector<std::string>& unknown_symbols) {
  const std::string name = i < atoms.names.size() ? atoms.names[i] : "";
  const auto forced = set.find(name);
  if (forced != set.end()) return forced->second;
  if (i < atoms.elements.size() && !atoms.elements[i].empty()) {
    if (const ElementData* e = element_named(atoms.elements[i])) return e;
    unknown_symbols.push_back(atoms.elements[i]);
    return nullptr;
  }
  if (i < atoms.masses.size())
    if (const ElementData* e = element_of_force_field_mass(atoms.masses[i])) return e;
  const std::string resname = i < atoms.resnames.size() ? atoms.resnames[i] : "";
  if (const ElementData* e = name.empty() ? nullptr : element_of_atom_name(name, resname)) return e;
  // "*=EL": every atom nothing else tells (a Lennard-Jones fluid without names, say).
  const auto fallback = set.find("*");
  return fallback != set.end() ? fallback->second : nullptr;
}

std::string describe_atom(const AtomIdentity& atoms, std::size_t i) {
  std::string text = fmt::format("atom {}", i + 1);
  if (i < atoms.names.size()) text += fmt::format(" '{}'", atoms.names[i]);
  if (i < atoms.resnames.size()) text += fmt::format(" in {}", atoms.resnames[i]);
  if (i < atoms.elements.size() && !atoms.elements[i].empty())
    text += fmt::format(" (element column '{}')", atoms.elements[i]);
  return text;
}

// Hydrogens within 1.25 Angstrom of N, O or S: a cell list of those heavy atoms.
std::vector<char> exchangeable_hydrogens(const std::vector<const ElementData*>& element,
                                         const std::vector<Vec3<double>>& xyz) {
  constexpr double reach = 1.25;
  const auto cell_of = [](const Vec3<double>& r) {
    const auto c = [](double v) { return std::int64_t(std::floor(v / reach)) & 0x1fffff; };
    return (c(r.x) << 42) | (c(r.y) << 21) | c(r.z);
  };
  std::unordered_multimap<std::int64_t, std::size_t> heavy;
  for (std::size_t i = 0; i < element.size(); ++i)
    if (element[i]->z == 7 || element[i]->z == 8 || element[i]->z == 16)
      heavy.emplace(cell_of(xyz[i]), i);
  std::vector<char> out(element.size(), 0);
  for (std::size_t i = 0; i < element.size(); ++i) {
    if (element[i]->z != 1) continue;
    for (int dx = -1; dx <= 1 && !out[i]; ++dx)
      for (int dy = -1; dy <= 1 && !out[i]; ++dy)
        for (int dz = -1; dz <= 1 && !out[i]; ++dz) {
          const Vec3<double> probe{xyz[i].x + dx * reach, xyz[i].y + dy * reach,
                                   xyz[i].z + dz * reach};
          const auto range = heavy.equal_range(cell_of(probe));
          for (auto it = range.first; it != range.second; ++it)
            if (norm2(xyz[it->second] - xyz[i]) < reach * reach) out[i] = 1;
        }
  }
  return out;
}

}  // namespace

ScatteringTypes scattering_types(const AtomIdentity& atoms,
                                 const std::vector<std::string>& overrides,
                                 const std::vector<Vec3<double>>& xyz,
                                 const ScatteringSettings& settings) {
  const auto set = parse_overrides(overrides, settings.names.element);
  const std::size_t n = xyz.size();
  std::vector<const ElementData*> element(n);
  std::vector<std::size_t> unknown;
  std::vector<std::string> unknown_symbols;
  for (std::size_t i = 0; i < n; ++i) {
    element[i] = element_of_atom(atoms, i, set, unknown_symbols);
    if (element[i] == nullptr) unknown.push_back(i);
  }
  const ErrorContext where{atoms.source, "element", -1};
  if (!unknown.empty()) {
    std::string list;
    for (std::size_t k = 0; k < unknown.size() && k < 8; ++k)
      list += (k ? ", " : "") + describe_atom(atoms, unknown[k]);
    if (unknown.size() > 8) list += fmt::format(" and {} more", unknown.size() - 8);
    throw InputError(where, fmt::format("cannot tell the element of {} atom(s): {}; set it with {}",
                                        unknown.size(), list, settings.names.element_hint));
  }
  const bool neutron = settings.probe == Probe::neutron;
  for (std::size_t i = 0; i < n; ++i)
    if (neutron && std::isnan(element[i]->neutron_fm))
      throw InputError(where, fmt::format("{} is {}, which has no coherent neutron scattering "
                                          "length in Sears (1992); use --probe xray",
                                          describe_atom(atoms, i), element[i]->symbol));
  const std::vector<char> exchangeable =
      neutron ? exchangeable_hydrogens(element, xyz) : std::vector<char>(n, 0);
  ScatteringTypes types;
  std::unordered_map<std::string, std::int32_t> index;
  types.of_atom.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::string name = std::string(element[i]->symbol) + (exchangeable[i] ? "(exch)" : "");
    auto found = index.find(name);
    if (found == index.end()) {
      found = index.emplace(name, types.size()).first;
      types.names.push_back(name);
      types.elements.push_back(element[i]);
      types.exchangeable.push_back(exchangeable[i]);
      types.atoms.push_back(0);
    }
    types.of_atom[i] = found->second;
    ++types.atoms[std::size_t(found->second)];
  }
  return types;
}

}  // namespace kmol
