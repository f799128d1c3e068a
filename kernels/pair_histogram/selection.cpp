#include "kernels/pair_histogram/selection.hpp"

#include <cmath>

#include "kernels/pair_histogram/implementations.hpp"
#include "kmol/core/errors.hpp"

namespace kmol {
namespace {

// Cells examine the partners within two cells of thickness >= r_max / 2: they pay while that
// neighbourhood, measured as 27 r_max^3 / V, is a small enough part of the box, and there are
// enough atoms to fill the cells. Crossovers measured with perf/cells_crossover.sh on a gas at
// 0.1 atoms/A^3 (perf/results/README.md): on the 2-core host cells beat `host` wherever they apply
// (a box of at least 3 r_max: up to 1) since their CPU scheme counts by slots, clearly up to 0.73
// (2.45 against 3.12 s at 100,000 atoms) and narrowly at 0.97 (2.67 against 2.86 s); on an H200
// cells beat `cuda` up to 0.22 and lost at 0.42 (100,000 and 1,000,000 atoms). The thresholds sit
// where cells still win clearly.
constexpr double cells_max_reach_on_host = 0.75, cells_max_reach_on_gpu = 0.25;
constexpr std::int64_t cells_min_atoms = 20000;

}  // namespace

bool pair_histogram_cells_pay(const PairHistogramShape& s, Platform platform) {
  if (s.box == BoxKind::none) return false;
  const double reach = 27 * s.r_max * s.r_max * s.r_max / s.box_volume;
  const double limit =
      platform == Platform::host ? cells_max_reach_on_host : cells_max_reach_on_gpu;
  return reach < limit && s.n_a + s.n_b >= cells_min_atoms;
}

std::string to_string(PairHistogramImpl value) {
  return implementation_name(pair_histogram_implementations, value);
}

PairHistogramImpl pair_histogram_impl_from_string(const std::string& name) {
  return implementation_named(pair_histogram_implementations, name, "impl",
                              "pair-histogram implementation");
}

PairHistogramShape shape_of(std::int64_t n_a, std::int64_t n_b, bool one_set,
                            const PairHistogramSettings& settings) {
  const BoxSpec box = validated(settings.box);
  return {n_a,
          n_b,
          one_set,
          box.kind,
          settings.r_max,
          volume(box),
          2 * inscribed_radius(box),
          settings.n_bins};
}

std::string pair_histogram_cells_refusal(const PairHistogramShape& shape, Platform) {
  if (shape.box == BoxKind::none) return "cells need a periodic box";
  if (shape.min_box_height < 3 * shape.r_max)
    return "cells need a box at least 3 r_max across in every direction";
  return {};
}

std::string pair_histogram_refusal(PairHistogramImpl impl, const PairHistogramShape& shape,
                                   Platform platform) {
  return implementation_refusal(pair_histogram_implementations, impl, shape, platform);
}

PairHistogramImpl choose_pair_histogram_impl(const PairHistogramShape& shape, Platform platform,
                                             PairHistogramImpl requested) {
  return choose_implementation(pair_histogram_implementations, "pair histogram", requested, shape,
                               platform);
}

AlgorithmSummary pair_histogram_summary() {
  return implementation_summary(
      "pair_histogram",
      "pair-distance histograms and g(r): two sets or one, any box, 64-bit counts",
      pair_histogram_implementations);
}

}  // namespace kmol
