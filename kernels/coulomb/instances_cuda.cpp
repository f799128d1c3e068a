#include "kernels/coulomb/dispatch.hpp"

#ifdef KOKKOS_ENABLE_CUDA
KMOL_INSTANTIATE_COULOMB(Kokkos::Cuda)
#endif
