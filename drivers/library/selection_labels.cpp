// What a selection that selects nothing could have asked for.
#include <fmt/core.h>

#include <algorithm>
#include <map>

#include "drivers/library/selection.hpp"

namespace kmol {
namespace {

// The distinct labels, the most common first, as "OW (2165), HW1 (2165), ... and 3 more".
std::string distinct(const std::vector<std::string>& labels, std::size_t most) {
  std::map<std::string, std::int64_t> count;
  for (const auto& l : labels) ++count[l];
  std::vector<std::pair<std::string, std::int64_t>> sorted(count.begin(), count.end());
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  std::string text;
  for (std::size_t k = 0; k < sorted.size() && k < most; ++k)
    text += fmt::format("{}{} ({})", k ? ", " : "",
                        sorted[k].first.empty() ? "''" : sorted[k].first, sorted[k].second);
  if (sorted.size() > most) text += fmt::format(" and {} more", sorted.size() - most);
  return text;
}

}  // namespace

std::string labels_that_exist(const AtomTable& atoms, std::size_t most) {
  std::string text;
  auto add = [&](const char* what, const std::vector<std::string>& labels) {
    if (labels.empty()) return;
    text += fmt::format("\n  {}: {}", what, distinct(labels, most));
  };
  add("atom names", atoms.names);
  add("residue names", atoms.resnames);
  add("atom types", atoms.types);
  if (!atoms.species.empty()) {
    std::vector<std::string> species;
    for (auto s : atoms.species)
      species.push_back(std::size_t(s) < atoms.species_names.size() ? atoms.species_names[s]
                                                                    : std::to_string(s));
    add("species", species);
  }
  if (text.empty())
    return fmt::format(
        "the files name none of their {} atoms (index 0:{} selects by position; "
        "--top gives names)",
        atoms.n_atoms, atoms.n_atoms - 1);
  return "the atoms are" + text;
}

}  // namespace kmol
