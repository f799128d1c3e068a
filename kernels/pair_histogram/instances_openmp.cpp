#include "kernels/pair_histogram/dispatch.hpp"

#ifdef KOKKOS_ENABLE_OPENMP
KMOL_INSTANTIATE_PAIR_HISTOGRAM(Kokkos::OpenMP)
#endif
