#include "kernels/density/dispatch.hpp"

#ifdef KOKKOS_ENABLE_SERIAL
KMOL_INSTANTIATE_DENSITY(Kokkos::Serial)
#endif
