#pragma once
// Pair-distance histograms: all pairs between two sets, or unordered pairs within one set, in any
// box, counted exactly in 64 bits; optionally split into species-pair partial histograms.
//
//   kmol::PairHistogramSettings s;  s.r_max = 10; s.n_bins = 200; s.box =
//   BoxSpec::orthorhombic(..); auto counts = kmol::pair_histogram(Kokkos::DefaultExecutionSpace(),
//   kmol::one_set(xyz, n), s);
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/pair_histogram/binning.hpp"
#include "kernels/pair_histogram/impl.hpp"  // generated from implementations.hpp
#include "kernels/pair_histogram/pair_labels.hpp"
#include "kernels/pair_histogram/plane.hpp"

namespace kmol {

std::string to_string(PairHistogramImpl impl);
PairHistogramImpl pair_histogram_impl_from_string(const std::string& name);

// The coordinates (host memory, kept by the caller) and optional per-atom labels (host memory).
// resident: a and b live in the memory of the execution space that runs the call instead (a
// Kokkos application's Views: views.hpp), so no implementation copies them through the host.
template <class T>
struct PairHistogramInput {
  const Vec3<T>* a = nullptr;
  std::int64_t n_a = 0;
  const Vec3<T>* b = nullptr;  // null: one set, each unordered pair i < j once
  std::int64_t n_b = 0;
  const std::int32_t* species = nullptr;     // one set only: species of each atom, 0..n_species-1
  const std::int32_t* molecule_a = nullptr;  // with molecule_b (or alone for one set): exclusions
  const std::int32_t* molecule_b = nullptr;
  bool resident = false;
  // The largest |coordinate| of both sets where the caller has already measured it and checked
  // every coordinate finite (the frame pipeline's readers, on the host while the device counts
  // another frame); negative: measured here (for resident sets on the device, which waits for the
  // result, with their finite check).
  double extent = -1;

  bool one_set() const { return b == nullptr; }
};

template <class T>
PairHistogramInput<T> one_set(const Vec3<T>* xyz, std::int64_t n) {
  return {xyz, n};
}
template <class T>
PairHistogramInput<T> two_sets(const Vec3<T>* a, std::int64_t n_a, const Vec3<T>* b,
                               std::int64_t n_b) {
  return {a, n_a, b, n_b};
}

// Launch parameters forced instead of the tuner's choice, for tuning sweeps (perf/); 0 leaves a
// parameter to the tuner. Only the raw CUDA implementation has these knobs: forcing one for any
// other is refused.
struct PairHistogramLaunchOverride {
  int block = 0;                    // threads per block (a multiple of 32)
  std::int64_t bins_per_sweep = 0;  // flattened bins per shared-memory window
  int tile = 0;                     // A atoms per constant-memory tile

  bool any() const { return block != 0 || bins_per_sweep != 0 || tile != 0; }
};

struct PairHistogramSettings {
  BoxSpec box;
  double r_min = 0;
  double r_max = 0;
  std::int32_t n_bins = 0;
  std::int32_t n_species = 1;
  std::vector<std::uint8_t> species_pairs_enabled;  // empty: all n(n+1)/2 pairs
  Plane plane = Plane::none;  // distances within a plane (2-D RDFs), plane.hpp
  PairHistogramImpl impl = PairHistogramImpl::automatic;
  PairHistogramLaunchOverride launch;
};

struct PairHistogramResult {
  std::int32_t n_bins = 0;
  std::int32_t n_histograms = 1;      // species pairs, in species_pair_index order
  std::vector<std::uint64_t> counts;  // [histogram][bin]
  PairHistogramImpl impl_used = PairHistogramImpl::automatic;
  std::string launch;  // the tuner's choice, for the record

  std::uint64_t at(std::int32_t histogram, std::int32_t bin) const {
    return counts[std::size_t(histogram) * std::size_t(n_bins) + std::size_t(bin)];
  }
};

// ExecSpace: Kokkos::Serial, Kokkos::OpenMP or Kokkos::Cuda (whichever are built); T: float or
// double. Throws InputError for bad input and UnsupportedError when the forced impl cannot run it.
template <class ExecSpace, class T>
PairHistogramResult pair_histogram(const ExecSpace& space, const PairHistogramInput<T>& input,
                                   const PairHistogramSettings& settings);

}  // namespace kmol
