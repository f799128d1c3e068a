#pragma once
// Pair-distance histograms on the host CPU: cache-sized tiles of pairs shared out to OpenMP
// threads, distances and bins computed in vectorised loops, counts kept in thread-private 32-bit
// histograms that are flushed into the job's 64-bit totals.
#include <cstdint>
#include <string>

#include "kernels/pair_histogram/implementations.hpp"
#include "kernels/pair_histogram/job.hpp"
#include "kmol/core/device.hpp"

namespace kmol {

// Adds the job's pair counts to job.counts, using up to `threads` OpenMP threads.
template <class T>
void pair_histogram_host(const PairHistogramJob<T>& job, int threads);

template <>
struct PairHistogramRunner<PairHistogramImpl::host> {
  template <class T>
  static std::string run(const Device& device, const PairHistogramJob<T>& job) {
    pair_histogram_host(job, device.host_threads);
    return "host: threads=" + std::to_string(device.host_threads);
  }
  // A region of the flattened bins: the host counts every bin, of which the caller keeps its own.
  template <class T>
  static std::string run(const Device& device, const PairHistogramJob<T>& job, std::int64_t,
                         std::int64_t) {
    return run(device, job);
  }
};

}  // namespace kmol
