// Pair-distance histograms in raw CUDA, after VMD and CADISHI: the host driver. It packs the
// atoms (Morton order: morton_order.cu) into device memory kept between calls (workspace.hpp),
// asks the tuner how to launch (launch_tuner.hpp), moves A through the __constant__ bank tile by
// tile and runs the kernels (count_kernels.cuh) window by window.
#include "kernels/pair_histogram/cuda/pair_histogram_cuda.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <mutex>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "kernels/cuda_check.hpp"
#include "kernels/cuda_pieces.hpp"
#include "kernels/pair_histogram/cuda/count_kernels.cuh"
#include "kernels/pair_histogram/cuda/launch_tuner.hpp"
#include "kernels/pair_histogram/cuda/pair_histogram_cuda_region.hpp"
#include "kernels/pair_histogram/cuda/workspace.hpp"
#include "kernels/pair_histogram/species_pairs.hpp"

namespace kmol {
namespace pair_cuda {
namespace {

constexpr CudaCheck check{"CUDA pair histogram"};

using fast_binning::fast_kernel_exact;
using fast_binning::square_threshold;

constexpr std::int64_t kMinSorted = 1 << 16;  // fewer B atoms are not worth sorting

template <class T, class Box, Binning kBinning>
using Kernel = void (*)(Pass<T, Box>);

// The kernel that bins so and counts where `counters` says.
template <class T, class Box, Binning kBinning>
Kernel<T, Box, kBinning> kernel_for(Counters counters) {
  if constexpr (kBinning == Binning::fast && sizeof(T) == sizeof(float))
    if (counters == Counters::table) return &count_pairs<T, Box, Binning::fast, Counters::table>;
  return counters == Counters::device ? &count_pairs<T, Box, kBinning, Counters::device>
                                      : &count_pairs<T, Box, kBinning, Counters::shared>;
}

// Counts the bins of the flattened region [region_begin, region_end) (others may count too).
template <class T, class Box, Binning kBinning>
std::string run(const PairHistogramJob<T>& job, const Box& box, cudaStream_t stream,
                std::int64_t region_begin, std::int64_t region_end) {
  constexpr bool kGeneric = kBinning == Binning::generic;
  const DeviceLimits device = query_limits();
  const std::int64_t all_bins = std::int64_t(job.n_histograms) * job.range.n_bins;
  const std::int64_t flat_bins = region_end - region_begin;
  const std::int64_t n_b = job.one_set ? job.n_a : job.n_b;
  // One set: a tile meets on average half of the set.
  const Launch l =
      tune<T, Box>(device, kBinning, job.range, flat_bins, job.n_a, job.one_set ? n_b / 2 + 1 : n_b,
                   job.launch, kernel_for<T, Box, kBinning>);
  const std::int64_t chunk = std::int64_t(l.block) * l.atoms_per_thread;

  // One set in a box keeps its order: the minimum image of b - a and of a - b can differ in
  // length right at half a box, so a pair's two atoms must not trade places.
  const bool sort = !kGeneric && n_b >= kMinSorted && n_b <= INT_MAX &&
                    (!job.one_set || job.box.kind == BoxKind::none);
  auto ws = cuda_staging::workspaces<PairHistogramWorkspace>().lease();
  const Packed<T>* b =
      upload_packed(ws->raw_b, ws->b, job.one_set ? job.a : job.b, n_b, chunk, stream);
  if (sort) {
    Packed<T>* sorted = ws->sorted_b.reserve<Packed<T>>(std::size_t(n_b + chunk));
    morton_order(b, n_b, n_b + chunk, sorted, ws->morton, stream);
    b = sorted;
  }
  // Two sets: A in Morton order too, so that a sub-tile's atoms lie close together and whole
  // units are found to count entirely or not at all (reach).
  const bool sort_a = sort && !job.one_set && job.n_a >= kMinSorted && job.n_a <= INT_MAX;
  const Packed<T>* a = b;
  if (!job.one_set) {
    a = upload_packed(ws->raw_a, ws->a, job.a, job.n_a, 0, stream);
    if (sort_a) {
      Packed<T>* sorted = ws->sorted_a.reserve<Packed<T>>(std::size_t(job.n_a));
      morton_order(a, job.n_a, job.n_a, sorted, ws->morton, stream);
      a = sorted;
    }
  }
  Bounds* a_bounds =
      ws->bounds.reserve<Bounds>(kGeneric ? 0 : std::size_t(ceil_div(l.tile, l.sub_tile)));
  std::vector<float> host_edges2;
  if constexpr (sizeof(T) == sizeof(float))
    if (l.table()) host_edges2 = fast_binning::edge_thresholds(job.range);
  const float* edges2 = upload(ws->edges2, host_edges2.empty() ? nullptr : host_edges2.data(),
                               std::int64_t(host_edges2.size()), stream);

  const PairLabels& host_labels = job.labels;
  const std::int64_t species_pairs =
      std::int64_t(host_labels.n_species) * (host_labels.n_species + 1) / 2;
  const std::int32_t* species = upload(ws->species, host_labels.species, job.n_a, stream);
  const auto* enabled = upload(ws->enabled, host_labels.enabled, species_pairs, stream);
  const std::int32_t* molecule_a = upload(ws->molecule_a, host_labels.molecule_a, job.n_a, stream);
  const std::int32_t* molecule_b =
      upload(ws->molecule_b, job.one_set ? nullptr : host_labels.molecule_b, n_b, stream);

  std::uint64_t* counts = ws->counts.reserve<std::uint64_t>(std::size_t(all_bins));
  check(cudaMemsetAsync(counts, 0, std::size_t(all_bins) * sizeof(std::uint64_t), stream),
        "clearing counts");

  Pass<T, Box> p{box, job.range};
  p.labels = host_labels;
  p.labels.species = species;
  p.labels.enabled = enabled;
  p.labels.molecule_a = molecule_a;
  p.labels.molecule_b = job.one_set ? molecule_a : molecule_b;
  p.b = b;
  p.a_bounds = a_bounds;
  p.edges2 = edges2;
  const unit_reach::Window<T> limits = unit_reach::box_limits<T>(job.box);
  p.box_extent = limits.box_extent;
  p.small_floor_bound = limits.small_floor_bound;
  if constexpr (sizeof(T) == sizeof(float)) p.guess = fast_binning::TableGuess(job.range);
  p.sub_tile = l.sub_tile;
  p.one_set = job.one_set;
  p.counts = counts;
  const auto kernel = kernel_for<T, Box, kBinning>(l.counters);
  // Tiles of A in pieces a cancel can stop between (a cancelled call drops its workspace).
  const auto tiles = [&](std::int64_t first_tile, std::int64_t end_tile) {
    for (std::int64_t tile = first_tile; tile < end_tile; ++tile) {
      p.tile_begin = tile * l.tile;
      p.b_begin = job.one_set ? p.tile_begin + 1 : 0;
      if (p.b_begin >= n_b) return;
      p.tile_size = int(std::min<std::int64_t>(l.tile, job.n_a - p.tile_begin));
      check(cudaMemcpyToSymbolAsync(c_tile, a + p.tile_begin, p.tile_size * sizeof(Packed<T>), 0,
                                    cudaMemcpyDeviceToDevice, stream),
            "copy to constant memory");
      p.chunks = int(ceil_div(n_b - p.b_begin, chunk));
      p.sub_tiles = int(ceil_div(p.tile_size, l.sub_tile));
      if (!kGeneric) {
        sub_tile_bounds<<<p.sub_tiles, kWarp, 0, stream>>>(a + p.tile_begin, p.tile_size,
                                                           l.sub_tile, a_bounds);
        check(cudaGetLastError(), "sub-tile bounds");
      }
      const int grid = int(std::min<std::int64_t>(l.grid, std::int64_t(p.chunks) * p.sub_tiles));
      for (std::int64_t s = 0; s < l.sweeps; ++s) {
        p.window_begin = region_begin + s * l.window;
        p.window_size = int(std::min(l.window, region_end - p.window_begin));
        p.magic_window_begin = magic_bits<T> + int(p.window_begin);
        // The fast kernel's bins are the ones its edges define (fast_kernel_exact): bin >= k
        // exactly when r >= edge(k), so its window is a range of r2 too. The generic kernel
        // checks the window bin by bin.
        const std::int64_t first = kGeneric ? 0 : p.window_begin;
        const std::int64_t last = kGeneric ? job.range.n_bins : p.window_begin + p.window_size;
        p.r_min = job.range.edge(std::int32_t(first));
        p.r_max = job.range.edge(std::int32_t(last));
        p.r2_min = square_threshold(p.r_min);
        p.r2_max = square_threshold(p.r_max);
        const std::size_t bytes = l.shared() ? shared_bytes(p.window_size, l.table()) : 0;
        kernel<<<grid, l.block, bytes, stream>>>(p);
        check(cudaGetLastError(), "kernel launch");
      }
    }
  };
  launch_in_pieces_on(stream, ceil_div(job.n_a, l.tile), std::int64_t(l.grid) * l.block,
                      "the pair histogram", tiles);

  std::vector<std::uint64_t> totals(static_cast<std::size_t>(all_bins));
  check(cudaMemcpyAsync(totals.data(), counts, totals.size() * sizeof(std::uint64_t),
                        cudaMemcpyDeviceToHost, stream),
        "copy of the counts");
  check(cudaStreamSynchronize(stream), "counting");
  ws.done();
  for (std::size_t k = 0; k < totals.size(); ++k) job.counts[k] += totals[k];
  const char* name = !kGeneric              ? "fast"
                     : job.labels.trivial() ? "generic (range too odd for the fast one)"
                                            : "generic (labels)";
  return describe(l, device, name, sizeof(T) == 4 ? "float" : "double", job.box.kind) +
         (sort ? ", B in Morton order" : "");
}

}  // namespace
}  // namespace pair_cuda

template <class T>
std::string pair_histogram_cuda(const PairHistogramJob<T>& job, cudaStream_t stream) {
  return pair_histogram_cuda_region(job, stream, 0,
                                    std::int64_t(job.n_histograms) * job.range.n_bins);
}

template <class T>
std::string pair_histogram_cuda_region(const PairHistogramJob<T>& job, cudaStream_t stream,
                                       std::int64_t region_begin, std::int64_t region_end) {
  if (region_begin < 0 || region_end <= region_begin ||
      region_end > std::int64_t(job.n_histograms) * job.range.n_bins)
    throw std::invalid_argument("CUDA pair histogram: empty or out-of-range region of bins");
  if (job.labels.species != nullptr && !job.one_set)
    throw std::invalid_argument("CUDA pair histogram: species labels need one set");
  if (job.labels.molecule_a != nullptr && !job.one_set && job.labels.molecule_b == nullptr)
    throw std::invalid_argument("CUDA pair histogram: exclusions of two sets need molecule_b");
  if (job.pair_count() <= 0) return "cuda: no pairs";
  if (const auto pairs = species_pair_jobs(job); !pairs.empty()) {
    std::string launch;
    for (const auto& [pair, first_bin] : pairs) {
      const std::int64_t begin = std::max<std::int64_t>(region_begin - first_bin, 0);
      const std::int64_t end = std::min<std::int64_t>(region_end - first_bin, job.range.n_bins);
      if (begin < end) launch = pair_histogram_cuda_region(pair, stream, begin, end);
    }
    return launch + "; one launch per species pair";
  }
  using namespace pair_cuda;
  const std::lock_guard<std::mutex> lock(c_tile_mutex.current());
  return visit_box<T>(job.box, [&](const auto& box) {
    using Box = std::decay_t<decltype(box)>;
    return job.labels.trivial() && fast_kernel_exact(job.range)
               ? run<T, Box, Binning::fast>(job, box, stream, region_begin, region_end)
               : run<T, Box, Binning::generic>(job, box, stream, region_begin, region_end);
  });
}

template std::string pair_histogram_cuda<float>(const PairHistogramJob<float>&, cudaStream_t);
template std::string pair_histogram_cuda<double>(const PairHistogramJob<double>&, cudaStream_t);
template std::string pair_histogram_cuda_region<float>(const PairHistogramJob<float>&, cudaStream_t,
                                                       std::int64_t, std::int64_t);
template std::string pair_histogram_cuda_region<double>(const PairHistogramJob<double>&,
                                                        cudaStream_t, std::int64_t, std::int64_t);

}  // namespace kmol
