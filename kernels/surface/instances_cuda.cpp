#include "kernels/surface/dispatch.hpp"

#ifdef KOKKOS_ENABLE_CUDA
KMOL_INSTANTIATE_SURFACE(Kokkos::Cuda)
#endif
