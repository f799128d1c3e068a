#include "kernels/pair_histogram/gr.hpp"

#include <cmath>

#include "kernels/pair_histogram/binning.hpp"
#include "kmol/core/errors.hpp"

namespace kmol {

std::string to_string(RdfNormalization mode) {
  switch (mode) {
    case RdfNormalization::density:
      return "density";
    case RdfNormalization::none:
      return "none";
    case RdfNormalization::rdf:
      break;
  }
  return "rdf";
}

RdfNormalization rdf_normalization_from_string(const std::string& name) {
  for (auto mode : {RdfNormalization::rdf, RdfNormalization::density, RdfNormalization::none})
    if (to_string(mode) == name) return mode;
  throw InputError({"", "norm", -1},
                   "unknown normalisation '" + name + "' (expected rdf, density or none)");
}

Rdf normalize_rdf(const RdfCountsSummary& s, RdfNormalization mode) {
  const auto n_bins = std::int32_t(s.counts.size());
  const HistogramRange<double> range(s.r_min, s.r_max, n_bins);
  const double frames = double(s.frames);
  double pairs = s.one_set ? 0.5 * double(s.n_a) * double(s.n_a - 1)
                           : double(s.n_a) * double(s.n_b) - double(s.shared_atoms);
  pairs -= double(s.excluded_pairs);
  const double per_a = s.one_set ? 2.0 : 1.0;
  if (mode == RdfNormalization::rdf && !(s.mean_inverse_volume > 0))
    throw UnsupportedError(
        "g(r) normalisation needs a periodic box (a volume); use --norm none or density");

  Rdf out;
  out.mode = mode;
  out.edges.resize(n_bins + 1);
  for (std::int32_t k = 0; k <= n_bins; ++k) out.edges[k] = range.edge(k);
  double cumulative = 0;
  for (std::int32_t k = 0; k < n_bins; ++k) {
    const double lo = out.edges[k], hi = out.edges[k + 1];
    const double shell = 4.0 / 3.0 * M_PI * (hi * hi * hi - lo * lo * lo);
    const double c = double(s.counts[k]);
    out.centres.push_back(0.5 * (lo + hi));
    double value = 0;
    if (frames > 0) {
      switch (mode) {
        case RdfNormalization::rdf:
          value = pairs > 0 ? c / (frames * pairs * shell * s.mean_inverse_volume) : 0;
          break;
        case RdfNormalization::density:
          value = s.n_a > 0 ? per_a * c / (frames * double(s.n_a) * shell) : 0;
          break;
        case RdfNormalization::none:
          value = c / frames;
          break;
      }
    }
    out.g.push_back(value);
    cumulative += c;
    out.coordination.push_back(
        frames > 0 && s.n_a > 0 ? per_a * cumulative / (frames * double(s.n_a)) : 0);
  }
  return out;
}

}  // namespace kmol
