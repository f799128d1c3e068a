#include "kernels/site_histogram/site_histogram.hpp"

namespace kmol {

std::int64_t site_histogram_size(const std::vector<SiteGroups>& requests, std::int32_t n_bins) {
  std::int64_t size = 0;
  for (const SiteGroups& g : requests) size += std::int64_t(g.a.size() * g.b.size()) * n_bins;
  return size;
}

}  // namespace kmol
