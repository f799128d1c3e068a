#include "kernels/pair_histogram/dispatch.hpp"

#ifdef KOKKOS_ENABLE_SERIAL
KMOL_INSTANTIATE_PAIR_HISTOGRAM(Kokkos::Serial)
#endif
