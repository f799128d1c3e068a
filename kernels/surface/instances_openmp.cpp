#include "kernels/surface/dispatch.hpp"

#ifdef KOKKOS_ENABLE_OPENMP
KMOL_INSTANTIATE_SURFACE(Kokkos::OpenMP)
#endif
