#include "kernels/coulomb/dispatch.hpp"

#ifdef KOKKOS_ENABLE_SERIAL
KMOL_INSTANTIATE_COULOMB(Kokkos::Serial)
#endif
