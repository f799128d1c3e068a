#include "kernels/pair_histogram/validation.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#include "kernels/pair_histogram/implementations.hpp"
#include "kmol/core/errors.hpp"

namespace kmol {
namespace {

void require(bool ok, const char* field, const std::string& expected) {
  if (!ok) throw InputError({"", field, -1}, expected);
}

// Whether no coordinate is infinite or NaN: a test of the exponent bits with no early exit, which
// compilers vectorise, over several threads for large sets (it gates every frame: 12 MB for a
// million atoms in single precision).
template <class T>
bool all_finite(const Vec3<T>* xyz, std::int64_t n) {
  using Bits = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
  constexpr Bits exponent = sizeof(T) == 4 ? Bits(0x7f800000u) : Bits(0x7ff0000000000000ull);
  const auto* bytes = reinterpret_cast<const unsigned char*>(xyz);
  const std::int64_t values = 3 * n;
  Bits bad = 0;
  // No more threads than OpenMP would run anyway: idle extra threads spin on the cores the
  // counting threads need next (the 2-core cell frame took 6.7 s instead of 2.5 s with 8).
  const int threads = std::min(8, omp_get_max_threads());
#pragma omp parallel for num_threads(threads) schedule(static) \
    reduction(|                                                \
              : bad) if (values > (1 << 20))
  for (std::int64_t k = 0; k < values; ++k) {
    Bits bits;
    std::memcpy(&bits, bytes + k * sizeof(T), sizeof(T));
    bad |= Bits((bits & exponent) == exponent);
  }
  return bad == 0;
}

template <class T>
void require_finite(const Vec3<T>* xyz, std::int64_t n, const char* set) {
  static_assert(sizeof(Vec3<T>) == 3 * sizeof(T), "coordinates are read as one array of reals");
  if (all_finite(xyz, n)) return;
  for (std::int64_t i = 0; i < n; ++i)
    if (!std::isfinite(xyz[i].x) || !std::isfinite(xyz[i].y) || !std::isfinite(xyz[i].z))
      throw InputError({"", set, i},
                       "atom " + std::to_string(i) + " has a non-finite coordinate (" +
                           std::to_string(xyz[i].x) + ", " + std::to_string(xyz[i].y) + ", " +
                           std::to_string(xyz[i].z) + ")");
}

void check_settings(const PairHistogramSettings& s) {
  require(s.n_bins >= 1 && s.n_bins <= HistogramRange<double>::max_bins, "bins",
          "the number of bins must be between 1 and " +
              std::to_string(HistogramRange<double>::max_bins) + ", not " +
              std::to_string(s.n_bins));
  require(std::isfinite(s.r_min) && s.r_min >= 0, "r_min", "r_min must be finite and >= 0");
  require(std::isfinite(s.r_max) && s.r_max > s.r_min, "r_max",
          "r_max must be finite and larger than r_min");
  require(s.n_species >= 1, "species", "the number of species must be at least 1");
}

// Distances in a plane: the job reads projected copies of the coordinates (plane.hpp).
template <class T>
PairHistogramInput<T> in_plane(const PairHistogramInput<T>& in, const PairHistogramSettings& s,
                               const BoxSpec& box, PreparedPairHistogram<T>& out) {
  if (s.plane == Plane::none) return in;
  require(!in.resident, "plane", "distances in a plane are taken from host coordinates");
  const double normal = plane_normal_coordinate(box, s.plane);
  PairHistogramInput<T> moved = in;
  out.projected_a = projected(in.a, in.n_a, s.plane, normal);
  moved.a = out.projected_a.data();
  if (!in.one_set()) {
    out.projected_b = projected(in.b, in.n_b, s.plane, normal);
    moved.b = out.projected_b.data();
  }
  return moved;
}

}  // namespace

template <class T>
void prepare_pair_histogram(const PairHistogramInput<T>& given, const PairHistogramSettings& s,
                            PreparedPairHistogram<T>& out) {
  check_settings(s);
  require(given.n_a >= 0 && given.n_b >= 0, "atoms", "atom counts must not be negative");
  require(given.n_a == 0 || given.a != nullptr, "selection A", "coordinates are missing");
  require(given.one_set() || given.n_b == 0 || given.b != nullptr, "selection B",
          "coordinates are missing");
  require(given.species == nullptr || given.one_set(), "species",
          "species partial histograms are computed for one set of atoms");
  require(given.molecule_a == nullptr || given.one_set() || given.molecule_b != nullptr, "molecule",
          "exclusions between two sets need molecule ids for both");
  // Resident coordinates are checked where they live (dispatch.hpp).
  if (!given.resident) {
    require_finite(given.a, given.n_a, "selection A");
    if (!given.one_set()) require_finite(given.b, given.n_b, "selection B");
  }

  const BoxSpec box = validated(plane_box(s.box, s.plane, s.r_max));
  const PairHistogramInput<T> in = in_plane(given, s, box, out);

  const std::int32_t n_pairs = s.n_species * (s.n_species + 1) / 2;
  if (in.species) {
    for (std::int64_t i = 0; i < in.n_a; ++i)
      if (in.species[i] < 0 || in.species[i] >= s.n_species)
        throw InputError({"", "species", i}, "atom " + std::to_string(i) + " has species " +
                                                 std::to_string(in.species[i]) + ", expected 0.." +
                                                 std::to_string(s.n_species - 1));
    require(
        s.species_pairs_enabled.empty() || std::int32_t(s.species_pairs_enabled.size()) == n_pairs,
        "species pairs",
        "the mask needs one entry per species pair (" + std::to_string(n_pairs) + ")");
  }
  out.enabled = s.species_pairs_enabled;

  PairHistogramJob<T>& job = out.job;
  job.a = in.a;
  job.n_a = in.n_a;
  job.one_set = in.one_set();
  job.resident = in.resident;
  job.b = job.one_set ? in.a : in.b;
  job.n_b = job.one_set ? in.n_a : in.n_b;
  job.box = box;
  job.range = HistogramRange<T>(s.r_min, s.r_max, s.n_bins);
  job.labels.species = in.species;
  job.labels.n_species = in.species ? s.n_species : 1;
  job.labels.enabled = in.species && !out.enabled.empty() ? out.enabled.data() : nullptr;
  job.labels.molecule_a = in.molecule_a;
  job.labels.molecule_b = job.one_set ? in.molecule_a : in.molecule_b;
  job.n_histograms = in.species ? n_pairs : 1;

  out.result.n_bins = s.n_bins;
  out.result.n_histograms = job.n_histograms;
  out.result.counts.assign(std::size_t(job.n_histograms) * std::size_t(s.n_bins), 0);
  job.counts = out.result.counts.data();
  require(s.launch.block >= 0 && s.launch.bins_per_sweep >= 0 && s.launch.tile >= 0, "launch",
          "forced launch parameters must be positive (0: the tuner's choice)");
  job.launch = s.launch;

  const bool images = beyond_minimum_image(box, s.r_max);
  require(!(images && in.resident), "r_max",
          "r_max beyond the box's inscribed radius counts every image from host coordinates");
  if (images) {
    if (s.impl == PairHistogramImpl::cells)
      throw UnsupportedError(
          "pair histogram: r_max " + std::to_string(s.r_max) +
          " exceeds the box's inscribed radius (" + std::to_string(inscribed_radius(box)) +
          "), so every periodic image is counted as a sum of histograms without a box, which "
          "cells does not count (it needs a box at least 3 r_max across); every other "
          "implementation does");
    out.images = std::make_unique<PeriodicImages<T>>(job);
  }
  PairHistogramSettings jobs_settings = s;
  jobs_settings.box = images ? BoxSpec::none() : box;
  out.shape = shape_of(job.n_a, job.n_b, job.one_set, jobs_settings);
}

bool counts_resident_atoms(std::int64_t n_a, std::int64_t n_b, bool one_set,
                           const PairHistogramSettings& s, Platform platform) {
  if (s.plane != Plane::none ||
      beyond_minimum_image(validated(plane_box(s.box, s.plane, s.r_max)), s.r_max))
    return false;
  const PairHistogramImpl impl =
      choose_pair_histogram_impl(shape_of(n_a, n_b, one_set, s), platform, s.impl);
  return implementation_row(pair_histogram_implementations, impl).has(row_trait::reads_space_atoms);
}

template void prepare_pair_histogram(const PairHistogramInput<float>&, const PairHistogramSettings&,
                                     PreparedPairHistogram<float>&);
template void prepare_pair_histogram(const PairHistogramInput<double>&,
                                     const PairHistogramSettings&, PreparedPairHistogram<double>&);

}  // namespace kmol
