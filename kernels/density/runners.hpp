#pragma once
// Every density-map implementation's runner (its folder's header), for the dispatcher.
#include "kernels/density/kokkos/density_kokkos.hpp"
#ifdef KMOL_HAVE_CUDA
#include "kernels/density/cuda/density_cuda.hpp"
#endif
