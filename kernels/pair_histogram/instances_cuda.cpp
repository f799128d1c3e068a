#include "kernels/pair_histogram/dispatch.hpp"

#ifdef KOKKOS_ENABLE_CUDA
KMOL_INSTANTIATE_PAIR_HISTOGRAM(Kokkos::Cuda)
#endif
