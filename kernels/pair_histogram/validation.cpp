#include "kernels/pair_histogram/validation.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

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

}  // namespace

template <class T>
void prepare_pair_histogram(const PairHistogramInput<T>& in, const PairHistogramSettings& s,
                            PreparedPairHistogram<T>& out) {
  check_settings(s);
  require(in.n_a >= 0 && in.n_b >= 0, "atoms", "atom counts must not be negative");
  require(in.n_a == 0 || in.a != nullptr, "selection A", "coordinates are missing");
  require(in.one_set() || in.n_b == 0 || in.b != nullptr, "selection B", "coordinates are missing");
  require(in.species == nullptr || in.one_set(), "species",
          "species partial histograms are computed for one set of atoms");
  require(in.molecule_a == nullptr || in.one_set() || in.molecule_b != nullptr, "molecule",
          "exclusions between two sets need molecule ids for both");
  // Resident coordinates are checked where they live (dispatch.hpp).
  if (!in.resident) {
    require_finite(in.a, in.n_a, "selection A");
    if (!in.one_set()) require_finite(in.b, in.n_b, "selection B");
  }

  const BoxSpec box = validated(s.box);
  require_within_inscribed_radius(box, s.r_max, "r_max");

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

  out.shape = shape_of(job.n_a, job.n_b, job.one_set, s);
  out.shape.resident = in.resident;
}

template void prepare_pair_histogram(const PairHistogramInput<float>&, const PairHistogramSettings&,
                                     PreparedPairHistogram<float>&);
template void prepare_pair_histogram(const PairHistogramInput<double>&,
                                     const PairHistogramSettings&, PreparedPairHistogram<double>&);

}  // namespace kmol
