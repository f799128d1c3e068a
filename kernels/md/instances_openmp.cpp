#include "kernels/md/engine.hpp"

#ifdef KOKKOS_ENABLE_OPENMP
KMOL_INSTANTIATE_MD(Kokkos::OpenMP)
#endif
