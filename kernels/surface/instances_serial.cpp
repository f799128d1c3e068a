#include "kernels/surface/dispatch.hpp"

#ifdef KOKKOS_ENABLE_SERIAL
KMOL_INSTANTIATE_SURFACE(Kokkos::Serial)
#endif
