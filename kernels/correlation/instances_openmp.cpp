#include "kernels/correlation/correlation_kokkos.hpp"

#ifdef KOKKOS_ENABLE_OPENMP
KMOL_INSTANTIATE_CORRELATION(Kokkos::OpenMP)
#endif
