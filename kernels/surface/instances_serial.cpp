#include "kernels/surface/dispatch.hpp"

#ifdef KOKKOS_ENABLE_SERIAL
KMOL_INSTANTIATE_SURFACE(Kokkos::Serial)
namespace kmol::surface {
KMOL_SURFACE_KOKKOS_INSTANCE(, Kokkos::Serial)
}
#endif
