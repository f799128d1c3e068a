#pragma once
// Which density implementation runs a problem: the one place where they are listed and chosen.
#include <string>

#include "kernels/density/density.hpp"
#include "kernels/registry.hpp"

namespace kmol {

enum class DensityPlatform { host, cuda };

std::string density_refusal(DensityImpl impl, DensityPlatform platform);

// `requested` if it can run (UnsupportedError if not), else the fastest that can.
DensityImpl choose_density_impl(DensityPlatform platform, DensityImpl requested);

AlgorithmSummary density_summary();
AlgorithmSummary surface_summary();
AlgorithmSummary correlation_summary();

}  // namespace kmol
