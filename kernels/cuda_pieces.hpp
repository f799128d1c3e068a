#pragma once
// launch_in_pieces (launch_pieces.hpp) on a CUDA stream, for raw CUDA units (no Kokkos): the
// first piece fills the current device once, and each piece ends with the stream's
// synchronisation, so that a cancel stops the work between pieces.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>

#include "kernels/cuda_check.hpp"
#include "kernels/launch_pieces.hpp"

namespace kmol {

// launch(begin, end) queues items [begin, end) on `stream`, each of threads_per_item threads.
template <class Launch>
void launch_in_pieces_on(cudaStream_t stream, std::int64_t total, std::int64_t threads_per_item,
                         const char* what, Launch&& launch) {
  static constexpr CudaCheck check{"CUDA pieces"};
  int device = 0, sms = 0, per_sm = 0;
  check(cudaGetDevice(&device), "current device");
  check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), "SM count");
  check(cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, device),
        "threads per SM");
  const std::int64_t fill =
      std::int64_t(sms) * per_sm / std::max<std::int64_t>(1, threads_per_item);
  launch_in_pieces(total, fill, 1, what, launch,
                   [&] { check(cudaStreamSynchronize(stream), "run a piece"); });
}

}  // namespace kmol
