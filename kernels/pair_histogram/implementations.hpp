#pragma once
// The pair-histogram implementations, one row each (implementation_table.hpp). Adding one takes
// its folder, with its runner PairHistogramRunner<PairHistogramImpl::x> (see run_on_device.hpp),
// and a row here; CMake makes the enumerator and the runner lists from them.
#include <string>

#include "kernels/implementation_table.hpp"
#include "kernels/pair_histogram/selection.hpp"

namespace kmol {

template <auto impl>
struct PairHistogramRunner;

std::string pair_histogram_cells_refusal(const PairHistogramShape& shape, Platform platform);
bool pair_histogram_cells_pay(const PairHistogramShape& shape, Platform platform);

inline constexpr ImplementationRow<PairHistogramImpl, PairHistogramShape>
    pair_histogram_implementations[] = {
        {PairHistogramImpl::kokkos, "kokkos", ImplementationKind::portable, nullptr, 0, nullptr,
         "every backend; none/orthorhombic/triclinic; float, double; up to 2^20 bins",
         "fallback on backends without a specialised kernel", row_trait::reads_space_atoms},
        {PairHistogramImpl::host, "host", ImplementationKind::host, nullptr, 1, nullptr,
         "CPU spaces; every box; float, double; up to 2^20 bins",
         "all-pairs problems on CPU spaces"},
        {PairHistogramImpl::cuda, "cuda", ImplementationKind::cuda, nullptr, 2, nullptr,
         "Cuda space; every box; float, double; up to 2^20 bins",
         "all-pairs problems on the Cuda space", row_trait::takes_launch},
        {PairHistogramImpl::cells, "cells", ImplementationKind::portable,
         pair_histogram_cells_refusal, 3, pair_histogram_cells_pay,
         "every backend; periodic boxes at least 3 r_max across; float, double",
         "periodic boxes with at least 20,000 atoms where 27 r_max^3 < 0.75 V (CPUs) or 0.25 V "
         "(GPUs)",
         row_trait::reads_space_atoms}};

}  // namespace kmol
