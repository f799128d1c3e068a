#pragma once
// Pair-distance histograms in raw CUDA, after VMD and CADISHI: tiles of A in constant memory,
// B streamed by threads, counts in shared memory. The unit includes no Kokkos header, so it keeps
// the whole 64 KiB constant bank (see pair_histogram_cuda.cu).
#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>

#include "kernels/pair_histogram/cuda/pair_histogram_cuda_region.hpp"
#include "kernels/pair_histogram/implementations.hpp"
#include "kernels/pair_histogram/job.hpp"
#include "kmol/core/device.hpp"

namespace kmol {

// Copies the job's host data to the device, counts on `stream`, adds the counts into job.counts
// and returns a one-line description of the tuner's launch choice. Counts are bit-identical to
// the host rule (pair_distance, bin_of). Throws std::runtime_error naming the CUDA error, and
// std::invalid_argument for labels the job layout does not define (species or exclusions without
// molecule_b for two sets). Calls from several threads take turns (one constant bank).
template <class T>
std::string pair_histogram_cuda(const PairHistogramJob<T>& job, cudaStream_t stream);

extern template std::string pair_histogram_cuda<float>(const PairHistogramJob<float>&,
                                                       cudaStream_t);
extern template std::string pair_histogram_cuda<double>(const PairHistogramJob<double>&,
                                                        cudaStream_t);

template <>
struct PairHistogramRunner<PairHistogramImpl::cuda> {
  template <class T>
  static std::string run(const Device& device, const PairHistogramJob<T>& job) {
    return pair_histogram_cuda(job, static_cast<cudaStream_t>(device.cuda_stream));
  }
  // Only the bins of the flattened region [region_begin, region_end).
  template <class T>
  static std::string run(const Device& device, const PairHistogramJob<T>& job,
                         std::int64_t region_begin, std::int64_t region_end) {
    return pair_histogram_cuda_region(job, static_cast<cudaStream_t>(device.cuda_stream),
                                      region_begin, region_end);
  }
};

}  // namespace kmol
