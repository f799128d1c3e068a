#pragma once
// The runners of the pair-histogram implementations that run on a worker's device (host threads,
// or a CUDA device and stream), for the worker pool: Kokkos-free.
#include "kernels/pair_histogram/host/pair_histogram_host.hpp"
#ifdef KMOL_HAVE_CUDA
#include "kernels/pair_histogram/cuda/pair_histogram_cuda.hpp"
#endif
