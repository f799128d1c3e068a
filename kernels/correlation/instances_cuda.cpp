#include "kernels/correlation/correlation_kokkos.hpp"

#ifdef KOKKOS_ENABLE_CUDA
KMOL_INSTANTIATE_CORRELATION(Kokkos::Cuda)
#endif
