// GCC vectorises floor only without -ftrapping-math, its default. The option changes no rounded
// result, so distances stay bit-identical to pair_distance wherever that is compiled. It must
// precede the headers whose inline code the vectorised loops take in.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("no-trapping-math")
#endif

#include "kernels/pair_histogram/host/pair_histogram_host.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

#if defined(__AVX__)
#include <immintrin.h>
#endif

#include "kmol/core/counters.hpp"

namespace kmol {
namespace {

// Atoms of B per tile: their coordinates and the row's slot buffer stay in L1 while every atom of
// the tile's A block sweeps them; the histograms live in L2.
constexpr std::int64_t tile_atoms = 1024;

// Pairs outside [r_min, r_max) are counted in spare slots past the last bin, taken in turn, so
// that a run of them does not serialise on one counter. Spare slots are never flushed.
constexpr std::int32_t spare_slots = 8;

// Slot of a pair whose minimum image the vectorised loop could not settle.
constexpr std::int32_t recompute = -1;

// The minimum image as the vectorised loop computes it; false when `d` must be recomputed by
// box.minimum_image.
template <class T, class Box>
inline bool vector_minimum_image(const Box& box, Vec3<T>& d) {
  d = box.minimum_image(d);
  return true;
}

// TriclinicBox::minimum_image step for step, leaving out its rare search across faces (branches
// that would stop the loop vectorising): near a face, the pair is recomputed in scalar code.
template <class T>
inline bool vector_minimum_image(const TriclinicBox<T>& box, Vec3<T>& d) {
  bool near_face = false;
  for (int i = 0; i < 3; ++i) {
    const T s = dot(box.reciprocal[i], d);
    const T n = math::floor(s + T(0.5));
    const T f = s - n;
    d = d - n * box.edge[i];
    near_face |= (f > T(0.5) - box.face_guard) | (f < box.face_guard - T(0.5));
  }
  return !near_face;
}

// out[k] = math::sqrt(in[k]). GCC does not vectorise math::sqrt, which may set errno; the vector
// instructions round the same way (correctly, as IEEE 754 requires).
inline void square_roots(const float* in, float* out, std::int32_t n) {
  std::int32_t k = 0;
#if defined(__AVX__)
  for (; k + 8 <= n; k += 8) _mm256_storeu_ps(out + k, _mm256_sqrt_ps(_mm256_loadu_ps(in + k)));
#endif
  for (; k < n; ++k) out[k] = math::sqrt(in[k]);
}

inline void square_roots(const double* in, double* out, std::int32_t n) {
  std::int32_t k = 0;
#if defined(__AVX__)
  for (; k + 4 <= n; k += 4) _mm256_storeu_pd(out + k, _mm256_sqrt_pd(_mm256_loadu_pd(in + k)));
#endif
  for (; k < n; ++k) out[k] = math::sqrt(in[k]);
}

// Coordinates of B as separate x, y and z arrays, so that the distance loop reads them as vectors.
template <class T>
struct SeparateCoordinates {
  std::vector<T> x, y, z;

  SeparateCoordinates(const Vec3<T>* p, std::int64_t n) : x(n), y(n), z(n) {
    for (std::int64_t j = 0; j < n; ++j) {
      x[j] = p[j].x;
      y[j] = p[j].y;
      z[j] = p[j].z;
    }
  }
};

template <class T, class Box>
class TileCounter {
 public:
  TileCounter(const PairHistogramJob<T>& job, const Box& box, const SeparateCoordinates<T>& b)
      : job_(job), box_(box), b_(b), stride_(job.range.n_bins + spare_slots),
        counts_(std::size_t(job.n_histograms) * std::size_t(stride_)),
        squared_(tile_atoms), distance_(tile_atoms), slots_(tile_atoms) {}

  // Counts the pairs of A atoms [i0, i1) with B atoms [j0, j1) (only j > i for one set).
  void count_tile(std::int64_t i0, std::int64_t i1, std::int64_t j0, std::int64_t j1) {
    const std::uint64_t pairs = std::uint64_t(i1 - i0) * std::uint64_t(j1 - j0);
    if (budget_.needs_flush_before(pairs)) flush();
    budget_.take(pairs);
    for (std::int64_t i = i0; i < i1; ++i) {
      const std::int64_t j_begin = job_.one_set ? std::max(j0, i + 1) : j0;
      if (j_begin >= j1) continue;
      compute_slots(job_.a[i], j_begin, std::int32_t(j1 - j_begin));
      if (job_.labels.trivial())
        count_slots(i, j_begin, j1);
      else
        count_labelled_slots(i, j_begin, j1);
    }
  }

  // Adds the private counts to the 64-bit totals. Integer sums do not depend on the order in
  // which threads flush, so the result is deterministic.
  void flush() {
    const std::int32_t n_bins = job_.range.n_bins;
#pragma omp critical(kmol_pair_histogram_host_flush)
    for (std::int32_t h = 0; h < job_.n_histograms; ++h) {
      std::uint64_t* total = job_.counts + std::size_t(h) * std::size_t(n_bins);
      const std::uint32_t* count = counts_.data() + std::size_t(h) * std::size_t(stride_);
      for (std::int32_t k = 0; k < n_bins; ++k) total[k] += count[k];
    }
    std::fill(counts_.begin(), counts_.end(), 0u);
    budget_.flushed();
  }

 private:
  // slots_[jj] for the pairs (a_i, b_{j0 + jj}): the bin, a spare slot, or recompute. Three
  // vectorised passes: squared distances (negative where the image must be recomputed), their
  // square roots, and the bins.
  void compute_slots(Vec3<T> a_i, std::int64_t j0, std::int32_t n) {
    const T* __restrict x = b_.x.data() + j0;
    const T* __restrict y = b_.y.data() + j0;
    const T* __restrict z = b_.z.data() + j0;
    T* __restrict squared = squared_.data();
    T* __restrict distance = distance_.data();
    std::int32_t* __restrict slots = slots_.data();
    const Box box = box_;
    for (std::int32_t jj = 0; jj < n; ++jj) {
      Vec3<T> d = Vec3<T>{x[jj], y[jj], z[jj]} - a_i;
      const bool exact = vector_minimum_image(box, d);
      squared[jj] = exact ? norm2(d) : T(-1);
    }
    square_roots(squared, distance, n);
    const HistogramRange<T> range = job_.range;
    for (std::int32_t jj = 0; jj < n; ++jj) {
      const std::int32_t bin = range.bin_of(distance[jj]);
      slots[jj] = squared[jj] < T(0) ? recompute
                  : bin >= 0         ? bin
                                     : range.n_bins + (jj & (spare_slots - 1));
    }
  }

  std::int32_t scalar_slot(std::int64_t i, std::int64_t j) const {
    const std::int32_t bin = job_.range.bin_of(pair_distance(box_, job_.a[i], job_.b[j]));
    return bin >= 0 ? bin : job_.range.n_bins;
  }

  void count_slots(std::int64_t i, std::int64_t j0, std::int64_t j1) {
    std::uint32_t* counts = counts_.data();
    for (std::int64_t j = j0; j < j1; ++j) {
      std::int32_t slot = slots_[j - j0];
      if (slot == recompute) slot = scalar_slot(i, j);
      ++counts[slot];
    }
  }

  void count_labelled_slots(std::int64_t i, std::int64_t j0, std::int64_t j1) {
    std::uint32_t* counts = counts_.data();
    for (std::int64_t j = j0; j < j1; ++j) {
      std::int32_t slot = slots_[j - j0];
      if (slot == recompute) slot = scalar_slot(i, j);
      const std::int32_t h = job_.labels.histogram_of(i, j);
      ++counts[h < 0 ? std::size_t(job_.range.n_bins) : std::size_t(h) * stride_ + slot];
    }
  }

  const PairHistogramJob<T>& job_;
  const Box box_;
  const SeparateCoordinates<T>& b_;
  const std::int32_t stride_;  // bins and spare slots of one private histogram
  std::vector<std::uint32_t> counts_;
  std::vector<T> squared_, distance_;  // per pair of the current row
  std::vector<std::int32_t> slots_;
  FlushBudget budget_;
};

template <class T, class Box>
void count_all_tiles(const PairHistogramJob<T>& job, const Box& box, int threads) {
  const SeparateCoordinates<T> b(job.b, job.n_b);
  const std::int64_t tiles_a = (job.n_a + tile_atoms - 1) / tile_atoms;
  const std::int64_t tiles_b = (job.n_b + tile_atoms - 1) / tile_atoms;
  // For one set only tiles on or above the diagonal hold pairs j > i; they are handed out one at
  // a time, so diagonal (half-full) tiles do not unbalance the threads.
  const std::int64_t useful_tiles = job.one_set ? tiles_a * (tiles_a + 1) / 2 : tiles_a * tiles_b;
  threads = int(std::max<std::int64_t>(1, std::min<std::int64_t>(threads, useful_tiles)));

#pragma omp parallel num_threads(threads)
  {
    TileCounter<T, Box> counter(job, box, b);
#pragma omp for schedule(dynamic) nowait
    for (std::int64_t t = 0; t < tiles_a * tiles_b; ++t) {
      const std::int64_t ta = t / tiles_b, tb = t % tiles_b;
      if (job.one_set && tb < ta) continue;
      counter.count_tile(ta * tile_atoms, std::min(job.n_a, (ta + 1) * tile_atoms),
                         tb * tile_atoms, std::min(job.n_b, (tb + 1) * tile_atoms));
    }
    counter.flush();
  }
}

}  // namespace

template <class T>
void pair_histogram_host(const PairHistogramJob<T>& job, int threads) {
  if (job.pair_count() == 0) return;
  visit_box<T>(job.box, [&](const auto& box) { count_all_tiles(job, box, threads); });
}

template void pair_histogram_host<float>(const PairHistogramJob<float>&, int);
template void pair_histogram_host<double>(const PairHistogramJob<double>&, int);

}  // namespace kmol
