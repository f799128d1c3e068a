#pragma once
// pair_histogram_cuda restricted to a region of the flattened [histogram][bin] counts: the worker
// pool's (tile of A) x (histogram region) units, after VMD's multi-GPU RDF.
#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>

#include "kernels/pair_histogram/job.hpp"

namespace kmol {

// As pair_histogram_cuda, sweeping only the bins [region_begin, region_end) of the flattened
// counts. Counts inside the region equal the whole run's exactly; bins outside it may be counted
// too (the one-pass device-memory mode counts every bin), so callers keep only the region.
template <class T>
std::string pair_histogram_cuda_region(const PairHistogramJob<T>& job, cudaStream_t stream,
                                       std::int64_t region_begin, std::int64_t region_end);

}  // namespace kmol
