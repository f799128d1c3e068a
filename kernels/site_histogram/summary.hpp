#pragma once
// What `kmol info` says of the site-pair histograms: one portable Kokkos kernel on every backend.
#include "kernels/registry.hpp"

namespace kmol {

AlgorithmSummary site_histogram_summary();

}  // namespace kmol
