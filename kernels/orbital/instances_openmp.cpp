#include "kernels/orbital/dispatch.hpp"

#ifdef KOKKOS_ENABLE_OPENMP
KMOL_INSTANTIATE_ORBITAL(Kokkos::OpenMP)
#endif
