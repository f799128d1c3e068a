#pragma once
// Pairs left out of a count because both atoms belong to one residue or molecule.
#include <cstdint>
#include <string>
#include <vector>

#include "drivers/library/trajectory.hpp"

namespace kmol {

// Residue ("residue") or molecule ("molecule") index per atom, from the trajectory's topology.
const std::vector<std::int32_t>& grouping(const Trajectory& t, const std::string& kind);

// Pairs the exclusion labels remove (two sets: also each atom paired with itself).
std::int64_t excluded_pairs(const std::vector<std::int32_t>& a, const std::vector<std::int32_t>& b,
                            bool one_set);

}  // namespace kmol
