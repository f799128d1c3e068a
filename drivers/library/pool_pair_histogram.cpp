#include "drivers/library/pool_pair_histogram.hpp"

#include <algorithm>
#include <mutex>
#include <vector>

#include "kernels/pair_histogram/platform_runners.hpp"
#include "kernels/pair_histogram/validation.hpp"
#include "kernels/run_on_device.hpp"
#include "kmol/core/errors.hpp"

namespace kmol {
namespace {

// Row boundaries of `tiles` tiles of one set of n atoms holding equal numbers of pairs.
std::vector<std::int64_t> triangle_tiles(std::int64_t n, std::int64_t tiles) {
  const auto pairs_before = [n](std::int64_t r) { return r * n - r * (r + 1) / 2; };
  const std::int64_t total = pairs_before(n);
  std::vector<std::int64_t> bounds{0};
  for (std::int64_t t = 1; t < tiles; ++t) {
    const std::int64_t target = total / tiles * t + total % tiles * t / tiles;
    std::int64_t lo = bounds.back(), hi = n;  // first row r with pairs_before(r) >= target
    while (lo < hi) {
      const std::int64_t mid = (lo + hi) / 2;
      if (pairs_before(mid) >= target)
        hi = mid;
      else
        lo = mid + 1;
    }
    if (lo > bounds.back() && lo < n) bounds.push_back(lo);
  }
  bounds.push_back(n);
  return bounds;
}

std::vector<std::int64_t> even_tiles(std::int64_t n, std::int64_t tiles) {
  std::vector<std::int64_t> bounds{0};
  for (std::int64_t t = 1; t < tiles; ++t)
    if (n * t / tiles > bounds.back()) bounds.push_back(n * t / tiles);
  bounds.push_back(n);
  return bounds;
}

const std::int32_t* shifted(const std::int32_t* p, std::int64_t by) {
  return p == nullptr ? nullptr : p + by;
}

// The sub-jobs of tile [a0, a1): see the header.
template <class T>
std::vector<PairHistogramJob<T>> tile_jobs(const PairHistogramJob<T>& whole, std::int64_t a0,
                                           std::int64_t a1, std::uint64_t* counts) {
  std::vector<PairHistogramJob<T>> jobs;
  PairHistogramJob<T> rows = whole;
  rows.counts = counts;
  rows.a = whole.a + a0;
  rows.n_a = a1 - a0;
  rows.labels.molecule_a = shifted(whole.labels.molecule_a, a0);
  if (!whole.one_set) {
    jobs.push_back(rows);
    return jobs;
  }
  PairHistogramJob<T> triangle = rows;
  triangle.b = triangle.a;
  triangle.n_b = triangle.n_a;
  triangle.labels.species = shifted(whole.labels.species, a0);
  triangle.labels.molecule_b = triangle.labels.molecule_a;
  jobs.push_back(triangle);
  if (a1 < whole.n_a) {
    PairHistogramJob<T> rectangle = rows;
    rectangle.one_set = false;
    rectangle.b = whole.a + a1;
    rectangle.n_b = whole.n_a - a1;
    rectangle.labels.molecule_b = shifted(whole.labels.molecule_a, a1);
    jobs.push_back(rectangle);
  }
  return jobs;
}

// The image sum's units: (lattice translation) x (histogram region); each term's jobs cover
// parts of the flattened counts (a species pair's histogram), clipped to the unit's region.
template <class T>
std::string count_images_on_pool(WorkerPool& pool, PreparedPairHistogram<T>& prepared,
                                 std::int64_t regions) {
  const PairHistogramJob<T>& whole = prepared.job;
  const std::int64_t flat = std::int64_t(whole.n_histograms) * whole.range.n_bins;
  std::mutex commit;
  std::string launch;
  pool.run(
      prepared.images->n_terms() * regions, [&](const WorkerContext& worker, std::int64_t unit) {
        const std::int64_t term = unit / regions, region = unit % regions;
        const std::int64_t begin = flat * region / regions, end = flat * (region + 1) / regions;
        std::vector<std::uint64_t> counts(std::size_t(flat), 0);
        ImageTermStorage<T> storage;
        std::string how;
        for (const auto& job : prepared.images->jobs(term, counts.data(), storage)) {
          const std::int64_t offset = job.counts - counts.data();
          const std::int64_t size = std::int64_t(job.n_histograms) * job.range.n_bins;
          const std::int64_t from = std::max(begin, offset), to = std::min(end, offset + size);
          if (from < to && job.pair_count() > 0)
            how = count_on_worker(worker, job, from - offset, to - offset);
        }
        std::lock_guard<std::mutex> lock(commit);
        for (std::int64_t k = begin; k < end; ++k) whole.counts[k] += counts[std::size_t(k)];
        if (worker.spec.kind == WorkerKind::gpu || launch.empty()) launch = how;
      });
  prepared.images->remove_excluded(whole.counts);
  return launch + "; every image: " + std::to_string(prepared.images->n_terms()) +
         " lattice translations x " + std::to_string(regions) + " regions on " + pool.describe();
}

}  // namespace

template <class T>
std::string count_on_worker(const WorkerContext& worker, const PairHistogramJob<T>& job,
                            std::int64_t region_begin, std::int64_t region_end) {
  if (job.pair_count() <= 0) return "no pairs";
  return run_on_device<PairHistogramRunner, pair_histogram_implementations>(
      "pair histogram",
      platform_implementation(pair_histogram_implementations, worker.device.platform),
      worker.device, job, region_begin, region_end);
}

template <class T>
PairHistogramResult pair_histogram_on_pool(WorkerPool& pool, const PairHistogramInput<T>& input,
                                           const PairHistogramSettings& settings,
                                           const TileOptions& options) {
  PreparedPairHistogram<T> prepared;
  prepare_pair_histogram(input, settings, prepared);
  if (prepared.job.launch.any())
    throw UnsupportedError(
        "pair histogram on several workers: forced launch parameters are refused");
  const PairHistogramJob<T>& whole = prepared.job;
  const std::int64_t flat = std::int64_t(whole.n_histograms) * whole.range.n_bins;
  const std::int64_t regions = std::clamp<std::int64_t>(
      options.regions > 0 ? options.regions : (flat + 32767) / 32768, 1, flat);
  prepared.result.impl_used = platform_implementation(
      pair_histogram_implementations, pool.size() > 0 && pool.workers()[0].kind == WorkerKind::gpu
                                          ? Platform::cuda
                                          : Platform::host);
  if (prepared.images) {
    prepared.result.launch = count_images_on_pool(pool, prepared, regions);
    return std::move(prepared.result);
  }
  const bool tileable = !(whole.one_set && whole.labels.species != nullptr);
  const std::int64_t tiles =
      tileable ? std::max<std::int64_t>(1, options.units_per_worker * pool.size()) : 1;
  const std::vector<std::int64_t> bounds =
      whole.one_set ? triangle_tiles(whole.n_a, tiles) : even_tiles(whole.n_a, tiles);
  const std::int64_t n_tiles = std::int64_t(bounds.size()) - 1;

  std::mutex commit;
  std::string launch;
  pool.run(n_tiles * regions, [&](const WorkerContext& worker, std::int64_t unit) {
    const std::int64_t tile = unit / regions, region = unit % regions;
    const std::int64_t begin = flat * region / regions, end = flat * (region + 1) / regions;
    std::vector<std::uint64_t> counts(std::size_t(flat), 0);
    std::string how;
    for (const auto& job :
         tile_jobs(whole, bounds[std::size_t(tile)], bounds[std::size_t(tile) + 1], counts.data()))
      how = count_on_worker(worker, job, begin, end);
    std::lock_guard<std::mutex> lock(commit);
    for (std::int64_t k = begin; k < end; ++k) whole.counts[k] += counts[std::size_t(k)];
    if (worker.spec.kind == WorkerKind::gpu || launch.empty()) launch = how;
  });
  prepared.result.launch = launch + "; " + std::to_string(n_tiles) + " tiles x " +
                           std::to_string(regions) + " regions on " + pool.describe();
  return std::move(prepared.result);
}

template PairHistogramResult pair_histogram_on_pool(WorkerPool&, const PairHistogramInput<float>&,
                                                    const PairHistogramSettings&,
                                                    const TileOptions&);
template PairHistogramResult pair_histogram_on_pool(WorkerPool&, const PairHistogramInput<double>&,
                                                    const PairHistogramSettings&,
                                                    const TileOptions&);
template std::string count_on_worker(const WorkerContext&, const PairHistogramJob<float>&,
                                     std::int64_t, std::int64_t);
template std::string count_on_worker(const WorkerContext&, const PairHistogramJob<double>&,
                                     std::int64_t, std::int64_t);

}  // namespace kmol
