#include "kernels/orbital/dispatch.hpp"

#ifdef KOKKOS_ENABLE_SERIAL
KMOL_INSTANTIATE_ORBITAL(Kokkos::Serial)
#endif
