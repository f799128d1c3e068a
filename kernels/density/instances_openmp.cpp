#include "kernels/density/dispatch.hpp"

#ifdef KOKKOS_ENABLE_OPENMP
KMOL_INSTANTIATE_DENSITY(Kokkos::OpenMP)
#endif
