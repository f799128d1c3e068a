#pragma once
// MdForceRunner<MdForceImpl::x>: how each force implementation runs (see run_on_device.hpp),
// specialised in the implementation's folder. Every runner takes the engine's ForceState
// (engine.hpp: the space, settings, box, potential, positions and force outputs, and a slot for
// what the implementation keeps between steps) and returns its launch description. Kokkos-free.
#include "kernels/md/impl.hpp"

namespace kmol {

template <auto impl>
struct MdForceRunner;

}  // namespace kmol
