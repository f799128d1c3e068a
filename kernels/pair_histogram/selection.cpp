#include "kernels/pair_histogram/selection.hpp"

#include <cmath>

#include "kmol/core/errors.hpp"
#include "kmol/core/names.hpp"

namespace kmol {
namespace {

constexpr Named<PairHistogramImpl> pair_histogram_impl_names[] = {
    {PairHistogramImpl::automatic, "auto"},
    {PairHistogramImpl::kokkos, "kokkos"},
    {PairHistogramImpl::host, "host"},
    {PairHistogramImpl::cuda, "cuda"},
    {PairHistogramImpl::cells, "cells"}};

// Cells examine the partners within two cells of thickness >= r_max / 2: they pay while that
// neighbourhood, measured as 27 r_max^3 / V, is a small enough part of the box, and there are
// enough atoms to fill the cells. Crossovers measured with perf/cells_crossover.sh on a gas at
// 0.1 atoms/A^3 (perf/results/README.md): on the 2-core host cells beat `host` wherever they apply
// (a box of at least 3 r_max: up to 1) since their CPU scheme counts by slots, clearly up to 0.73
// (2.45 against 3.12 s at 100,000 atoms) and narrowly at 0.97 (2.67 against 2.86 s); on an H200
// cells beat `cuda` up to 0.22 and lost at 0.42 (100,000 and 1,000,000 atoms). The thresholds sit
// where cells still win clearly.
constexpr double cells_max_reach_on_host = 0.75, cells_max_reach_on_gpu = 0.25;
constexpr std::int64_t cells_min_atoms = 20000;

bool cells_pay(const PairHistogramShape& s, Platform platform) {
  if (s.box == BoxKind::none) return false;
  const double reach = 27 * s.r_max * s.r_max * s.r_max / s.box_volume;
  const double limit =
      platform == Platform::host ? cells_max_reach_on_host : cells_max_reach_on_gpu;
  return reach < limit && s.n_a + s.n_b >= cells_min_atoms;
}

}  // namespace

std::string to_string(PairHistogramImpl value) { return name_of(pair_histogram_impl_names, value); }

PairHistogramImpl pair_histogram_impl_from_string(const std::string& name) {
  return value_named(pair_histogram_impl_names, name, "impl", "pair-histogram implementation");
}

PairHistogramShape shape_of(std::int64_t n_a, std::int64_t n_b, bool one_set,
                            const PairHistogramSettings& settings) {
  const BoxSpec box = validated(settings.box);
  return {n_a,
          n_b,
          one_set,
          box.kind,
          settings.r_max,
          volume(box),
          2 * inscribed_radius(box),
          settings.n_bins};
}

std::string pair_histogram_refusal(PairHistogramImpl impl, const PairHistogramShape& shape,
                                   Platform platform) {
  switch (impl) {
    case PairHistogramImpl::kokkos:
      return {};
    case PairHistogramImpl::host:
      return platform == Platform::host ? "" : "host runs on CPU execution spaces only";
    case PairHistogramImpl::cuda:
#ifdef KMOL_HAVE_CUDA
      if (platform != Platform::cuda) return "cuda runs on the Cuda execution space only";
      // It packs the host's coordinates into its own layout on the way to the device.
      return shape.resident ? "cuda reads host coordinates, not Views already on the device" : "";
#else
      return "cuda is not compiled into this build (configure with KMOL_CONFIG=cuda)";
#endif
    case PairHistogramImpl::cells:
      if (shape.box == BoxKind::none) return "cells need a periodic box";
      if (shape.min_box_height < 3 * shape.r_max)
        return "cells need a box at least 3 r_max across in every direction";
      return {};
    case PairHistogramImpl::automatic:
      break;
  }
  return "automatic is not an implementation";
}

PairHistogramImpl choose_pair_histogram_impl(const PairHistogramShape& shape, Platform platform,
                                             PairHistogramImpl requested) {
  if (requested != PairHistogramImpl::automatic) {
    const std::string why = pair_histogram_refusal(requested, shape, platform);
    if (!why.empty())
      throw UnsupportedError("pair histogram --impl " + to_string(requested) + ": " + why);
    return requested;
  }
  if (cells_pay(shape, platform) &&
      pair_histogram_refusal(PairHistogramImpl::cells, shape, platform).empty())
    return PairHistogramImpl::cells;
  for (PairHistogramImpl impl : {PairHistogramImpl::cuda, PairHistogramImpl::host})
    if (pair_histogram_refusal(impl, shape, platform).empty()) return impl;
  return PairHistogramImpl::kokkos;
}

AlgorithmSummary pair_histogram_summary() {
  AlgorithmSummary s{"pair_histogram",
                     "pair-distance histograms and g(r): two sets or one, any box, 64-bit counts",
                     {}};
  s.implementations.push_back(
      {"kokkos", "every backend; none/orthorhombic/triclinic; float, double; up to 2^20 bins",
       "fallback on backends without a specialised kernel"});
  s.implementations.push_back({"host", "CPU spaces; every box; float, double; up to 2^20 bins",
                               "all-pairs problems on CPU spaces"});
#ifdef KMOL_HAVE_CUDA
  s.implementations.push_back({"cuda", "Cuda space; every box; float, double; up to 2^20 bins",
                               "all-pairs problems on the Cuda space"});
#endif
  s.implementations.push_back(
      {"cells", "every backend; periodic boxes at least 3 r_max across; float, double",
       "periodic boxes with at least 20,000 atoms where 27 r_max^3 < 0.75 V (CPUs) or 0.25 V "
       "(GPUs)"});
  return s;
}

}  // namespace kmol
