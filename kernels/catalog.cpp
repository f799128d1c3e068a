#include "kernels/coulomb/selection.hpp"
#include "kernels/density/selection.hpp"
#include "kernels/md/selection.hpp"
#include "kernels/orbital/selection.hpp"
#include "kernels/pair_histogram/selection.hpp"
#include "kernels/registry.hpp"

namespace kmol {

std::vector<AlgorithmSummary> algorithm_catalog() {
  return {pair_histogram_summary(), coulomb_summary(),     md_summary(),     density_summary(),
          surface_summary(),        correlation_summary(), orbital_summary()};
}

}  // namespace kmol
