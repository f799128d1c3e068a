#pragma once
// All-pairs Lennard-Jones forces in a raw CUDA kernel with shared-memory tiles (no Kokkos here, so
// the .cu keeps its whole constant bank). Arrays are one component after another (x then y then
// z, `stride` apart), as the Kokkos Cuda views lay them out.
#include <cuda_runtime.h>

#include <cstdint>
#include <string>

#include "kernels/md/lennard_jones.hpp"
#include "kernels/md/runner.hpp"
#include "kmol/core/device.hpp"

namespace kmol {

template <class T>
struct LjAllPairsCudaArgs {
  const T* x;  // x[d * stride + i]
  T* f;        // same layout
  T* energy;   // per atom, half of each pair
  T* virial;
  int n, stride;
  PeriodicBox<T> box;
  ShiftedForceLJ<T> lj;
};

// Launches on `stream` and returns the launch shape.
template <class T>
std::string lj_all_pairs_cuda(const LjAllPairsCudaArgs<T>& args, cudaStream_t stream);

template <>
struct MdForceRunner<MdForceImpl::cuda> {
  template <class State>
  static std::string run(const Device& device, State& s) {
    return lj_all_pairs_cuda(
        LjAllPairsCudaArgs<typename State::value_type>{s.x.data(), s.out.f.data(),
                                                       s.out.energy.data(), s.out.virial.data(),
                                                       s.n, int(s.x.stride(1)), s.box, s.lj},
        static_cast<cudaStream_t>(device.cuda_stream));
  }
};

}  // namespace kmol
