#pragma once
// How raw CUDA units report a failed runtime call: an exception naming the algorithm, the call and
// CUDA's reason, which the worker pool and the frame pipeline catch to redo the work elsewhere.
// For raw .cu units only (no Kokkos). Each unit declares one:
//   constexpr CudaCheck check{"CUDA pair histogram"};  ...  check(cudaMalloc(...), "cudaMalloc");
#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>

namespace kmol {

struct CudaCheck {
  const char* algorithm;

  void operator()(cudaError_t status, const char* what) const {
    if (status != cudaSuccess)
      throw std::runtime_error(std::string(algorithm) + ": " + what + ": " +
                               cudaGetErrorString(status));
  }
};

}  // namespace kmol
