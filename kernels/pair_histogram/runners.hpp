#pragma once
// Every pair-histogram implementation's runner (its folder's header), for the dispatcher.
#include "kernels/pair_histogram/cells/pair_histogram_cells.hpp"
#include "kernels/pair_histogram/host/pair_histogram_host.hpp"
#include "kernels/pair_histogram/kokkos/pair_histogram_kokkos.hpp"
#ifdef KMOL_HAVE_CUDA
#include "kernels/pair_histogram/cuda/pair_histogram_cuda.hpp"
#endif
