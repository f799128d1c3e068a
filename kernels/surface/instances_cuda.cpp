#include "kernels/surface/dispatch.hpp"

#ifdef KOKKOS_ENABLE_CUDA
KMOL_INSTANTIATE_SURFACE(Kokkos::Cuda)
namespace kmol::surface {
KMOL_SURFACE_KOKKOS_INSTANCE(, Kokkos::Cuda)
}
#endif
