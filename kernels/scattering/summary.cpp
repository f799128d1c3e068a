#include "kernels/scattering/summary.hpp"

namespace kmol {

AlgorithmSummary scattering_summary() {
  AlgorithmSummary s{"scattering",
                     "SAXS/WAXS and SANS intensities by Debye's equation from species-pair "
                     "histograms; structure factors of periodic systems",
                     {}};
  s.implementations.push_back({"histogram",
                               "every backend; the pair histogram's implementations count the "
                               "pairs, the transform runs on the host in double",
                               "every run without --impl direct or --method direct"});
  s.implementations.push_back({"direct",
                               "every backend; Debye's sum pair by pair, O(N^2 Q), in double",
                               "--impl direct (the tests' oracle)"});
  s.implementations.push_back(
      {"waves", "every backend; |sum_j w_j exp(i k.r_j)|^2 over the box's wave vectors, in double",
       "--method direct"});
  return s;
}

}  // namespace kmol
