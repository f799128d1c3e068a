#pragma once
// Which orbital-map implementation runs a problem, and what each supports: the one place where
// implementations are registered and chosen (see docs/architecture.md).
#include <string>

#include "kernels/orbital/orbital.hpp"
#include "kernels/registry.hpp"
#include "kmol/core/platform.hpp"

namespace kmol {

std::string orbital_refusal(OrbitalImpl impl, Platform platform);

// `requested` if it can run (UnsupportedError if not), else the fastest that can.
OrbitalImpl choose_orbital_impl(Platform platform, OrbitalImpl requested);

// Throws InputError naming the option for a lattice with spacing <= 0 or no points, or one whose
// maps (`maps` of them, value_bytes each per point) would not fit in memory.
void validate_orbital_lattice(const Grid& lattice, std::int64_t maps, int value_bytes);

AlgorithmSummary orbital_summary();

}  // namespace kmol
