#pragma once
// The Lennard-Jones force implementations, one row each (implementation_table.hpp). Adding one
// takes its folder, with its runner MdForceRunner<MdForceImpl::x> (runner.hpp), and a row here;
// CMake makes the enumerator and the runner lists from them. Auto's preferences, measured
// (perf/bench_md, same run, docs/md.md): on CPUs the AVX2 half list (host) beats full lists
// 2.5-3.5x per core; on the H200 full lists win (no atomics: 1.2-1.35x half lists).
#include <string>

#include "kernels/implementation_table.hpp"
#include "kernels/md/runner.hpp"
#include "kernels/md/selection.hpp"

namespace kmol {

std::string md_cells_refusal(const MdShape& shape, Platform platform);
std::string md_lists_refusal(const MdShape& shape, Platform platform);
std::string md_host_refusal(const MdShape& shape, Platform platform);

inline constexpr ImplementationRow<MdForceImpl, MdShape> md_implementations[] = {
    {MdForceImpl::all_pairs, "all_pairs", ImplementationKind::portable, nullptr, 0, nullptr,
     "every backend; team scratch tiles; float, double", "boxes too small for cells"},
    {MdForceImpl::cuda, "cuda", ImplementationKind::cuda, nullptr, 1, nullptr,
     "Cuda space; shared-memory tiles; float, double", "small boxes on the Cuda space"},
    {MdForceImpl::cells, "cells", ImplementationKind::portable, md_cells_refusal, 2, nullptr,
     "every backend; box >= 3 r_c; float, double", "box too small for lists"},
    {MdForceImpl::neighbour, "neighbour", ImplementationKind::portable, md_lists_refusal, 3,
     nullptr,
     "every backend; box >= 3 (r_c + skin); --list full (no atomics) or half (ScatterView "
     "forces)",
     "GPUs: boxes at least 3 (r_c + skin) across (full lists)"},
    {MdForceImpl::host, "host", ImplementationKind::host, md_host_refusal, 4, nullptr,
     "host spaces, AVX2 builds (--impl cpu is an alias); box >= 3 (r_c + skin); half list in "
     "cell order, per-thread forces",
     "CPUs: boxes at least 3 (r_c + skin) across"}};

}  // namespace kmol
