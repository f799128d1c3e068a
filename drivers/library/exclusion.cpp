#include "drivers/library/exclusion.hpp"

#include <map>

#include "kmol/core/errors.hpp"

namespace kmol {

const std::vector<std::int32_t>& grouping(const Trajectory& t, const std::string& kind) {
  if (!t.topology)
    throw InputError({"", "--exclude-same", -1},
                     kind + "s come from a topology: give one with --top (TPR, PDB, GRO or PQR)");
  return kind == "residue" ? t.topology->residues : t.topology->molecules;
}

std::int64_t excluded_pairs(const std::vector<std::int32_t>& a, const std::vector<std::int32_t>& b,
                            bool one_set) {
  std::map<std::int32_t, std::int64_t> in_a, in_b;
  for (auto g : a) ++in_a[g];
  for (auto g : (one_set ? a : b)) ++in_b[g];
  std::int64_t pairs = 0;
  for (const auto& [g, n] : in_a) {
    const auto it = in_b.find(g);
    if (it == in_b.end()) continue;
    pairs += one_set ? n * (n - 1) / 2 : n * it->second;
  }
  return pairs;
}

void refuse_excluding_every_pair(std::int64_t pairs, std::int64_t excluded,
                                 const std::string& option, const std::string& grouping) {
  if (pairs <= 0 || excluded < pairs) return;
  throw InputError({"", option, -1},
                   "every one of the " + std::to_string(pairs) +
                       " pairs of the selections lies within one " + grouping +
                       ", so none would be counted; check how the atoms are grouped into " +
                       grouping + "s");
}

}  // namespace kmol
