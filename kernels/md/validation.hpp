#pragma once
#include <cstddef>
#include <optional>
#include <utility>
#include <vector>

#include "kernels/md/md.hpp"

namespace kmol::md {

// Two atoms at one point of the periodic box (after wrapping), the first such pair in atom
// order, or nothing. Their Lennard-Jones force is infinite, and a damaged frame that puts many
// atoms at the origin would pile them all into one neighbour cell.
std::optional<std::pair<std::size_t, std::size_t>> coincident_atoms(
    const std::vector<Vec3<double>>& positions, Vec3<double> box);

// Throws InputError naming the field for a configuration or settings MD cannot run.
void validate(const MdState& start, const MdSettings& settings);

}  // namespace kmol::md
