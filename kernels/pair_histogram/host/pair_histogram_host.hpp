#pragma once
// Pair-distance histograms on the host CPU: cache-sized tiles of pairs shared out to OpenMP
// threads, distances and bins computed in vectorised loops, counts kept in thread-private 32-bit
// histograms that are flushed into the job's 64-bit totals.
#include "kernels/pair_histogram/job.hpp"

namespace kmol {

// Adds the job's pair counts to job.counts, using up to `threads` OpenMP threads.
template <class T>
void pair_histogram_host(const PairHistogramJob<T>& job, int threads);

}  // namespace kmol
