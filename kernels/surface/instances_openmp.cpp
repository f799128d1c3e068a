#include "kernels/surface/dispatch.hpp"

#ifdef KOKKOS_ENABLE_OPENMP
KMOL_INSTANTIATE_SURFACE(Kokkos::OpenMP)
namespace kmol::surface {
KMOL_SURFACE_KOKKOS_INSTANCE(, Kokkos::OpenMP)
}
#endif
