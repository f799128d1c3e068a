#pragma once
// A kernel's check for a cancel (kmol/core/cancel.hpp): host iterations skip their work once one
// is requested; device code cannot read the host's flag and runs its launch to the end.
#include <Kokkos_Core.hpp>

#include "kmol/core/cancel.hpp"

namespace kmol {

KOKKOS_INLINE_FUNCTION bool cancelled_on_host() {
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
  return false;
#else
  return cancel_requested();
#endif
}

}  // namespace kmol
