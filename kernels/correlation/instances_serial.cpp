#include "kernels/correlation/correlation_kokkos.hpp"

#ifdef KOKKOS_ENABLE_SERIAL
KMOL_INSTANTIATE_CORRELATION(Kokkos::Serial)
#endif
