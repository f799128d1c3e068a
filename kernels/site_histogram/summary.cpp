#include "kernels/site_histogram/summary.hpp"

namespace kmol {

AlgorithmSummary site_histogram_summary() {
  AlgorithmSummary s{"site_histogram",
                     "one distance histogram per atom pair of each pair of groups (MDAnalysis' "
                     "InterRDF_s), every request counted in one pass per frame",
                     {}};
  s.implementations.push_back({"kokkos", "every backend; counts in double",
                               "kmol.SiteHistograms and the InterRDF_s drop-in"});
  return s;
}

}  // namespace kmol
