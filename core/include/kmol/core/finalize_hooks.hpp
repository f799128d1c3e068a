#pragma once
// Caches that keep device or page-locked memory between calls free it when Kokkos finalizes:
// then the CUDA runtime is still up (freeing during its own teardown at exit fails) and every
// allocation is returned before the process ends, so a leak checker sees none. Every cache
// registers here; the header is Kokkos-free, so raw .cu units can too.
#include <functional>

namespace kmol {

// Runs `release` at the start of the next Kokkos::finalize (the latest registered first). Safe
// to call from any thread.
void release_at_finalize(std::function<void()> release);

}  // namespace kmol
