#pragma once
// Pair histograms on the worker pool.
//
// One large histogram becomes (tile of A) x (histogram region) units. Tiles of one set hold equal
// numbers of pairs (row i of the triangle has n - 1 - i); a tile [a0, a1) of one set is its own
// triangle plus the rectangle of its rows against atoms a1..n-1, which counts each pair with the
// same difference x_j - x_i (i < j) as the whole run, so counts are identical bit for bit.
// Regions split the flattened [histogram][bin] counts, so histograms wider than a GPU's shared
// memory run as several units; a unit adds only its region, once it has succeeded.
#include <cstdint>
#include <string>

#include "drivers/library/worker_pool.hpp"
#include "kernels/pair_histogram/job.hpp"
#include "kernels/pair_histogram/pair_histogram.hpp"

namespace kmol {

struct TileOptions {
  std::int64_t units_per_worker = 2;  // tiles per worker: enough to balance, few enough to amortise
  std::int32_t regions = 1;           // histogram regions (0: one per 32,768 flattened bins)
};

// Validates like pair_histogram() and counts on every worker of the pool. Species-labelled single
// sets are split by regions only (a tile's rectangle would need two species arrays).
template <class T>
PairHistogramResult pair_histogram_on_pool(WorkerPool& pool, const PairHistogramInput<T>& input,
                                           const PairHistogramSettings& settings,
                                           const TileOptions& options = {});

// Adds the job's counts in the flattened region [region_begin, region_end) (bins outside may be
// counted too) with the raw implementation of the worker's kind: CUDA on its device and stream,
// or the host implementation. Returns the implementation's launch description.
template <class T>
std::string count_on_worker(const WorkerContext& worker, const PairHistogramJob<T>& job,
                            std::int64_t region_begin, std::int64_t region_end);

}  // namespace kmol
