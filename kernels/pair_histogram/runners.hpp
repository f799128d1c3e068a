#pragma once
// Every pair-histogram implementation's runner (its folder's header), for the dispatcher.
#include "kernels/pair_histogram/cells/pair_histogram_cells.hpp"
#include "kernels/pair_histogram/kokkos/pair_histogram_kokkos.hpp"
#include "kernels/pair_histogram/platform_runners.hpp"
