#pragma once
// Turns user input into a PairHistogramJob, refusing bad input with errors that name the field.
#include <vector>

#include "kernels/pair_histogram/job.hpp"
#include "kernels/pair_histogram/pair_histogram.hpp"
#include "kernels/pair_histogram/selection.hpp"

namespace kmol {

template <class T>
struct PreparedPairHistogram {
  PairHistogramJob<T> job;  // points into `enabled` and `result.counts`
  std::vector<std::uint8_t> enabled;
  PairHistogramResult result;
  PairHistogramShape shape;

  PreparedPairHistogram() = default;
  PreparedPairHistogram(const PreparedPairHistogram&) = delete;
  PreparedPairHistogram& operator=(const PreparedPairHistogram&) = delete;
};

template <class T>
void prepare_pair_histogram(const PairHistogramInput<T>& input,
                            const PairHistogramSettings& settings, PreparedPairHistogram<T>& out);

}  // namespace kmol
