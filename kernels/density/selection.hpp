#pragma once
// Which density implementation runs a problem: the one place where they are listed and chosen.
#include <string>

#include "kernels/density/density.hpp"
#include "kernels/registry.hpp"
#include "kmol/core/platform.hpp"

namespace kmol {

std::string density_refusal(DensityImpl impl, Platform platform);

// `requested` if it can run (UnsupportedError if not), else the fastest that can.
DensityImpl choose_density_impl(Platform platform, DensityImpl requested);

AlgorithmSummary density_summary();
AlgorithmSummary surface_summary();
AlgorithmSummary correlation_summary();

}  // namespace kmol
