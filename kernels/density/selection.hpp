#pragma once
// Which density implementation runs a problem: the one place where they are listed and chosen.
#include <string>

#include "kernels/density/density.hpp"
#include "kernels/registry.hpp"
#include "kmol/core/platform.hpp"

namespace kmol {

// resident: the atoms are in the execution space's memory (DensityInput::resident).
std::string density_refusal(DensityImpl impl, Platform platform, bool resident = false);

// `requested` if it can run (UnsupportedError if not), else the fastest that can.
DensityImpl choose_density_impl(Platform platform, DensityImpl requested, bool resident = false);

AlgorithmSummary density_summary();
AlgorithmSummary surface_summary();
AlgorithmSummary correlation_summary();

}  // namespace kmol
