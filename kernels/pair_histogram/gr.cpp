#include "kernels/pair_histogram/gr.hpp"

#include <algorithm>
#include <cmath>

#include "kernels/pair_histogram/binning.hpp"
#include "kmol/core/errors.hpp"
#include "kmol/core/names.hpp"

namespace kmol {
namespace {

constexpr Named<RdfNormalization> rdf_normalization_names[] = {
    {RdfNormalization::rdf, "rdf"},
    {RdfNormalization::density, "density"},
    {RdfNormalization::none, "none"}};

// g(r) divides by the mean volume of the frames' boxes, which frames without a box do not have.
void require_volume(const RdfCountsSummary& s, RdfNormalization mode) {
  if (mode == RdfNormalization::rdf && !(s.mean_inverse_volume > 0))
    throw UnsupportedError(
        "g(r) normalisation needs a periodic box (a volume); use --norm none or density");
}

}  // namespace

std::string to_string(RdfNormalization value) { return name_of(rdf_normalization_names, value); }

RdfNormalization rdf_normalization_from_string(const std::string& name) {
  return value_named(rdf_normalization_names, name, "norm", "normalisation");
}

double shell_measure(double lo, double hi, int dimensions) {
  return dimensions == 2 ? M_PI * (hi * hi - lo * lo)
                         : 4.0 / 3.0 * M_PI * (hi * hi * hi - lo * lo * lo);
}

Rdf normalize_rdf(const RdfCountsSummary& s, RdfNormalization mode) {
  const auto n_bins = std::int32_t(s.counts.size());
  const HistogramRange<double> range(s.r_min, s.r_max, n_bins);
  const double frames = double(s.frames);
  double pairs = s.one_set ? 0.5 * double(s.n_a) * double(s.n_a - 1)
                           : double(s.n_a) * double(s.n_b) - double(s.shared_atoms);
  pairs -= double(s.excluded_pairs);
  const double per_a = s.one_set ? 2.0 : 1.0;
  require_volume(s, mode);

  Rdf out;
  out.mode = mode;
  out.edges.resize(n_bins + 1);
  for (std::int32_t k = 0; k <= n_bins; ++k) out.edges[k] = range.edge(k);
  double cumulative = 0;
  for (std::int32_t k = 0; k < n_bins; ++k) {
    const double lo = out.edges[k], hi = out.edges[k + 1];
    const double shell = shell_measure(lo, hi, s.dimensions);
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

std::vector<std::uint64_t> gmx_bin_counts(const std::vector<std::uint64_t>& half_bins) {
  if (half_bins.size() % 2 != 0 || half_bins.empty())
    throw UnsupportedError("gmx bins need an even number of half bins, not " +
                           std::to_string(half_bins.size()));
  std::vector<std::uint64_t> counts{half_bins[0]};
  for (std::size_t k = 1; k + 1 < half_bins.size(); k += 2)
    counts.push_back(half_bins[k] + half_bins[k + 1]);
  return counts;
}

Rdf gmx_rdf(const RdfCountsSummary& s, RdfNormalization mode) {
  if (s.r_min != 0) throw UnsupportedError("gmx rdf's bins start at r = 0");
  const std::vector<std::uint64_t> counts = gmx_bin_counts(s.counts);
  const auto n = std::int64_t(counts.size());
  constexpr double nm_per_angstrom = 0.1;
  const double width = nm_per_angstrom * s.r_max / double(n);
  const double frames = double(s.frames);
  const double n_b = s.one_set ? double(s.n_a) : double(s.n_b);
  const double from_both_ends = s.one_set ? 2.0 : 1.0;
  require_volume(s, mode);
  const double inverse_volume = s.mean_inverse_volume / std::pow(nm_per_angstrom, s.dimensions);
  Rdf out;
  out.mode = mode;
  double cumulative = 0;
  for (std::int64_t k = 0; k < n; ++k) {
    const double lo = std::max(0.0, (double(k) - 0.5) * width), hi = (double(k) + 0.5) * width;
    const double shell = shell_measure(lo, hi, s.dimensions);
    const double per_reference =
        frames > 0 && s.n_a > 0 ? from_both_ends * double(counts[k]) / (frames * double(s.n_a)) : 0;
    out.edges.push_back(lo);
    out.centres.push_back(double(k) * width);
    double value = 0;
    switch (mode) {
      case RdfNormalization::rdf:
        value = n_b > 0 ? per_reference / (shell * n_b * inverse_volume) : 0;
        break;
      case RdfNormalization::density:
        value = per_reference / shell;
        break;
      case RdfNormalization::none:
        value = per_reference / width;
        break;
    }
    out.g.push_back(value);
    cumulative += per_reference;
    out.coordination.push_back(cumulative);
  }
  out.edges.push_back((double(n) - 0.5) * width);
  return out;
}

CumulativeNumber gmx_cumulative_number(const RdfCountsSummary& s) {
  const std::size_t n = gmx_bin_counts(s.counts).size();
  const double width = 0.1 * s.r_max / double(n);  // nm
  const double from_both_ends = s.one_set ? 2.0 : 1.0;
  const double references = double(s.frames) * double(s.n_a);
  CumulativeNumber out;
  std::uint64_t within = 0;
  for (std::size_t k = 0; k < n; ++k) {
    within += s.counts[2 * k] + s.counts[2 * k + 1];  // half bins to (k + 1) w
    out.r.push_back(double(k + 1) * width);
    out.number.push_back(references > 0 ? from_both_ends * double(within) / references : 0);
  }
  return out;
}

}  // namespace kmol
