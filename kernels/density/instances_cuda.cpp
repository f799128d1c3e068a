#include "kernels/density/dispatch.hpp"

#ifdef KOKKOS_ENABLE_CUDA
KMOL_INSTANTIATE_DENSITY(Kokkos::Cuda)
#endif
