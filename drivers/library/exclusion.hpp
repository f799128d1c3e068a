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

// Refuses (InputError naming `option`, the grouping's option or keyword) an exclusion that leaves
// no pair of the `pairs` distinct pairs to count: the result could only be empty. `grouping`
// says what groups the atoms ("molecule", "the molecules labels").
void refuse_excluding_every_pair(std::int64_t pairs, std::int64_t excluded,
                                 const std::string& option, const std::string& grouping);

}  // namespace kmol
