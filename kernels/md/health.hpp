#pragma once
// Checks that a simulation is still physical, made at every log interval (docs/md.md): energies
// finite and not jumping by more than `energy_jump_factor`, coordinates finite and inside the
// box, no atom moving more than half a box length per step. A failed check names the step, the
// quantity and the likely cause (a time step too large, atoms overlapping at the start).
#include <optional>
#include <string>

#include "kernels/md/md.hpp"

namespace kmol {

// The energy per atom may change between two checks by this many times its scale
// (max(1, |E|, T) at the earlier check) before the run counts as blown up.
inline constexpr double energy_jump_factor = 10;

// What is wrong with `now`, or nothing. `before` is the previous check (the start for the
// first); `state` the configuration at `now`; dt the time step.
std::optional<std::string> md_health_problem(const MdThermo& before, const MdThermo& now,
                                             const MdState& state, double dt);

}  // namespace kmol
