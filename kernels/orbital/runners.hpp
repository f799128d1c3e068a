#pragma once
// Every orbital-map implementation's runner (its folder's header), for the dispatcher.
#include "kernels/orbital/host/orbital_host.hpp"
#include "kernels/orbital/kokkos/orbital_kokkos.hpp"
#ifdef KMOL_HAVE_CUDA
#include "kernels/orbital/cuda/orbital_cuda.hpp"
#endif
