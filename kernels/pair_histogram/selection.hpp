#pragma once
// Which pair-histogram implementation runs a problem, and what each supports. The one place where
// implementations are registered and chosen (see docs/architecture.md).
#include <cstdint>
#include <string>

#include "kernels/pair_histogram/pair_histogram.hpp"
#include "kernels/registry.hpp"
#include "kmol/core/platform.hpp"

namespace kmol {

struct PairHistogramShape {
  std::int64_t n_a = 0, n_b = 0;
  bool one_set = false;
  BoxKind box = BoxKind::none;
  double r_max = 0;
  double box_volume = 0;  // infinite without a box
  double min_box_height = 0;
  std::int32_t n_bins = 0;
};

// The shape of a problem with these set sizes and settings.
PairHistogramShape shape_of(std::int64_t n_a, std::int64_t n_b, bool one_set,
                            const PairHistogramSettings& settings);

// Empty when `impl` can run the problem on the platform, else why not.
std::string pair_histogram_refusal(PairHistogramImpl impl, const PairHistogramShape& shape,
                                   Platform platform);

// `requested` if it can run (UnsupportedError if not), else the fastest that can.
PairHistogramImpl choose_pair_histogram_impl(const PairHistogramShape& shape, Platform platform,
                                             PairHistogramImpl requested);

AlgorithmSummary pair_histogram_summary();

}  // namespace kmol
