#pragma once
// Every potential-map implementation's runner (its folder's header), for the dispatcher.
#include "kernels/coulomb/kokkos/coulomb_kokkos.hpp"
#include "kernels/coulomb/platform_runners.hpp"
