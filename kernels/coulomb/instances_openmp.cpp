#include "kernels/coulomb/dispatch.hpp"

#ifdef KOKKOS_ENABLE_OPENMP
KMOL_INSTANTIATE_COULOMB(Kokkos::OpenMP)
#endif
