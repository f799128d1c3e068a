#pragma once
// Every potential-map implementation's runner (its folder's header), for the dispatcher.
#include "kernels/coulomb/host/coulomb_host.hpp"
#include "kernels/coulomb/kokkos/coulomb_kokkos.hpp"
#ifdef KMOL_HAVE_CUDA
#include "kernels/coulomb/cuda/coulomb_cuda.hpp"
#endif
