#pragma once
// The runners of the coulomb implementations that run on a worker's device (host threads, or a
// CUDA device and stream), for the worker pool: Kokkos-free.
#include "kernels/coulomb/host/coulomb_host.hpp"
#ifdef KMOL_HAVE_CUDA
#include "kernels/coulomb/cuda/coulomb_cuda.hpp"
#endif
