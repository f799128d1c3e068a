#include "kernels/orbital/dispatch.hpp"

#ifdef KOKKOS_ENABLE_CUDA
KMOL_INSTANTIATE_ORBITAL(Kokkos::Cuda)
#endif
