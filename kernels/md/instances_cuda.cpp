#include "kernels/md/engine.hpp"

#ifdef KOKKOS_ENABLE_CUDA
KMOL_INSTANTIATE_MD(Kokkos::Cuda)
#endif
