#include "kernels/md/engine.hpp"

#ifdef KOKKOS_ENABLE_SERIAL
KMOL_INSTANTIATE_MD(Kokkos::Serial)
#endif
