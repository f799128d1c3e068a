#include "kernels/pair_histogram/host/pair_histogram_host.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "kernels/pair_histogram/slots.hpp"
#include "kmol/core/cancel.hpp"
#include "kmol/core/counters.hpp"

namespace kmol {
namespace {

// Atoms of B per tile: their coordinates and the row's slot buffer stay in L1 while every atom of
// the tile's A block sweeps them; the histograms live in L2.
constexpr std::int64_t tile_atoms = 1024;

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

// Where each run of atoms of one species ends, for a one-set species histogram without
// exclusions: with the atoms sorted by species a row's pairs fall into a few runs, each going to
// one histogram, and are counted by the unlabelled loop (about 3x the per-pair label lookup's
// rate). Empty when the runs are shorter than `min_run` atoms on average.
struct SpeciesRuns {
  static constexpr std::int64_t min_run = 32;
  std::vector<std::int64_t> end;  // end[j]: the first atom after j of another species

  template <class T>
  explicit SpeciesRuns(const PairHistogramJob<T>& job) {
    const PairLabels& l = job.labels;
    if (!job.one_set || l.species == nullptr || l.molecule_a != nullptr) return;
    std::int64_t runs = 1;
    for (std::int64_t j = 1; j < job.n_b; ++j) runs += l.species[j] != l.species[j - 1];
    if (job.n_b < min_run * runs) return;
    end.resize(std::size_t(job.n_b));
    for (std::int64_t j = job.n_b - 1; j >= 0; --j)
      end[std::size_t(j)] =
          j + 1 < job.n_b && l.species[j + 1] == l.species[j] ? end[std::size_t(j) + 1] : j + 1;
  }
};

// One thread's counting: rows of a tile go through a vectorised loop that writes each pair's
// slot, then a scalar loop that increments the thread's private 32-bit histograms.
template <class T, class Box>
class TileCounter {
 public:
  TileCounter(const PairHistogramJob<T>& job, const Box& box, const SeparateCoordinates<T>& b,
              const SpeciesRuns& runs)
      : job_(job),
        box_(box),
        b_(b),
        runs_(runs),
        stride_(job.range.n_bins + spare_slots),
        counts_(std::size_t(job.n_histograms) * std::size_t(stride_)),
        squared_(tile_atoms),
        slots_(tile_atoms),
        rule_(SlotRule<T>::make(job.range)) {}

  // Counts the pairs of A atoms [i0, i1) with B atoms [j0, j1) (only j > i for one set).
  void count_tile(std::int64_t i0, std::int64_t i1, std::int64_t j0, std::int64_t j1) {
    // No private count grows by more than one per pair.
    const std::uint64_t pairs = std::uint64_t(i1 - i0) * std::uint64_t(j1 - j0);
    if (budget_.needs_flush_before(pairs)) flush();
    budget_.take(pairs);
    for (std::int64_t i = i0; i < i1; ++i) {
      const std::int64_t j_begin = job_.one_set ? std::max(j0, i + 1) : j0;
      if (j_begin >= j1) continue;
      const std::int32_t n = std::int32_t(j1 - j_begin);
      const bool all_settled = compute_slots(job_.a[i], j_begin, n);
      if (job_.labels.trivial())
        add_slots(slots_.data(), n, counts_.data());
      else if (!runs_.end.empty())
        count_species_runs(i, j_begin, n);
      else
        count_labelled_slots(i, j_begin, n);
      if (!all_settled) count_unsettled(i, j_begin, n);
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
  // slots_[jj] for the pairs (a_i, b_{j0 + jj}); false if any is unsettled. The arithmetic is
  // pair_distance's, with wrapped in place of minimum_image (they agree on settled pairs). Two
  // loops, because one would chain too many dependent steps for the core to overlap iterations.
  bool compute_slots(Vec3<T> a_i, std::int64_t j0, std::int32_t n) {
    const T* __restrict x = b_.x.data() + j0;
    const T* __restrict y = b_.y.data() + j0;
    const T* __restrict z = b_.z.data() + j0;
    T* __restrict squared = squared_.data();
    const Box box = box_;  // local copies stay in registers: no store below can alias them
    std::int32_t unsettled = 0;
    for (std::int32_t jj = 0; jj < n; ++jj) {
      bool settled;
      const Vec3<T> d = box.wrapped(Vec3<T>{x[jj], y[jj], z[jj]} - a_i, settled);
      squared[jj] = settled ? norm2(d) : T(-1);
      unsettled += !settled;
    }
    rule_.fill(squared, slots_.data(), n, job_.range.n_bins);
    return unsettled == 0;
  }

  void count_labelled_slots(std::int64_t i, std::int64_t j0, std::int32_t n) {
    const std::int32_t* __restrict slots = slots_.data();
    std::uint32_t* __restrict counts = counts_.data();
    for (std::int32_t jj = 0; jj < n; ++jj) {
      const std::int32_t h = job_.labels.histogram_of(i, j0 + jj);
      ++counts[h >= 0 ? std::size_t(h) * std::size_t(stride_) + std::size_t(slots[jj])
                      : std::size_t(job_.range.n_bins + (jj & (spare_slots - 1)))];
    }
  }

  // Each run of one species in the row into its histogram (spare slots included: the stride
  // holds them, so unsettled and out-of-range pairs stay out of the bins).
  void count_species_runs(std::int64_t i, std::int64_t j0, std::int32_t n) {
    const std::int64_t j_end = j0 + n;
    for (std::int64_t r = j0; r < j_end;) {
      const std::int64_t stop = std::min(runs_.end[std::size_t(r)], j_end);
      const std::int32_t h = job_.labels.histogram_of(i, r);
      if (h >= 0)
        add_slots(slots_.data() + (r - j0), std::int32_t(stop - r),
                  counts_.data() + std::size_t(h) * std::size_t(stride_));
      r = stop;
    }
  }

  // Counts the unsettled pairs of the row again, now with the box's own minimum image.
  void count_unsettled(std::int64_t i, std::int64_t j0, std::int32_t n) {
    for (std::int32_t jj = 0; jj < n; ++jj) {
      if (!(squared_[jj] < T(0))) continue;
      const std::int64_t j = j0 + jj;
      const std::int32_t bin = job_.range.bin_of(pair_distance(box_, job_.a[i], job_.b[j]));
      const std::int32_t h = job_.labels.histogram_of(i, j);
      if (bin >= 0 && h >= 0) ++counts_[std::size_t(h) * std::size_t(stride_) + std::size_t(bin)];
    }
  }

  const PairHistogramJob<T>& job_;
  const Box box_;
  const SeparateCoordinates<T>& b_;
  const SpeciesRuns& runs_;
  const std::int32_t stride_;  // bins and spare slots of one private histogram
  std::vector<std::uint32_t> counts_;
  std::vector<T> squared_;           // per pair of the current row; negative: unsettled
  std::vector<std::int32_t> slots_;  // per pair of the current row
  FlushBudget budget_;
  const SlotRule<T> rule_;
};

template <class T, class Box>
void count_all_tiles(const PairHistogramJob<T>& job, const Box& box, int threads) {
  const SeparateCoordinates<T> b(job.b, job.n_b);
  const SpeciesRuns runs(job);
  const std::int64_t tiles_a = (job.n_a + tile_atoms - 1) / tile_atoms;
  const std::int64_t tiles_b = (job.n_b + tile_atoms - 1) / tile_atoms;
  // For one set only tiles on or above the diagonal hold pairs j > i. Tiles are handed out one
  // at a time, so the half-full diagonal ones do not unbalance the threads.
  const std::int64_t useful_tiles = job.one_set ? tiles_a * (tiles_a + 1) / 2 : tiles_a * tiles_b;
  threads = int(std::max<std::int64_t>(1, std::min<std::int64_t>(threads, useful_tiles)));

#pragma omp parallel num_threads(threads)
  {
    TileCounter<T, Box> counter(job, box, b, runs);
#pragma omp for schedule(dynamic) nowait
    for (std::int64_t t = 0; t < tiles_a * tiles_b; ++t) {
      const std::int64_t ta = t / tiles_b, tb = t % tiles_b;
      if ((job.one_set && tb < ta) || cancel_requested()) continue;
      counter.count_tile(ta * tile_atoms, std::min(job.n_a, (ta + 1) * tile_atoms), tb * tile_atoms,
                         std::min(job.n_b, (tb + 1) * tile_atoms));
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
