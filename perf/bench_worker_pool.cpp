// The worker pool (drivers/library/worker_pool.hpp): the wake + launch + sleep latency of an empty
// unit, and one large pair histogram split over 1, 2 and 4 GPUs in the same run (the scaling table
// of docs/multi_gpu.md). Names and counters follow docs/study.md.
#include <benchmark/benchmark.h>

#include <random>
#include <string>
#include <utility>
#include <vector>

#include "drivers/library/gpu_runtime.hpp"
#include "drivers/library/pool_pair_histogram.hpp"
#include "drivers/library/worker_pool.hpp"
#include "perf/bench_config.hpp"

namespace kmol::bench {
namespace {

// One batch of one empty unit: the caller posts it, a sleeping worker wakes, runs it, reports back
// and sleeps again. The time per iteration is that round trip.
void empty_unit(benchmark::State& state, int workers) {
  WorkerPool pool(
      std::vector<WorkerSpec>(std::size_t(workers), WorkerSpec{WorkerKind::cpu, -1, 1, 0}));
  const WorkerPool::Unit nothing = [](const WorkerContext&, std::int64_t) {};
  for (auto _ : state) pool.run(1, nothing);
  state.counters["units_per_s"] =
      benchmark::Counter(1, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["latency_us"] = benchmark::Counter(
      1e-6, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  state.counters["portable"] = 0;
}

std::vector<Vec3<float>> cube(std::int64_t n, float side, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> u(0, side);
  std::vector<Vec3<float>> pts(static_cast<std::size_t>(n));
  for (auto& p : pts) p = {u(rng), u(rng), u(rng)};
  return pts;
}

// The reference all-pairs problem (two sets of n in a 100 A cube, no box, 10,000 bins) as
// (tile of A) units over `gpus` GPUs.
void register_gpus(std::int64_t n) {
  static std::vector<Vec3<float>> a = cube(n, 100, 1), b = cube(n, 100, 2);
  PairHistogramSettings s;
  s.box = BoxSpec::none();
  s.r_max = 173.20508;
  s.n_bins = 10000;
  const int have = cuda_device_count();
  // tiles:1 is one whole raw CUDA call on one GPU: the baseline of the speed-ups.
  const std::pair<int, bool> runs[] = {
      {1, true}, {1, false}, {2, false}, {4, false}};  // (GPUs, whole)
  for (const auto& [gpus, whole] : runs) {
    if (gpus > have) continue;
    const std::string name =
        "pair_histogram_gpus/Cuda/cuda/nobox/bins:10000/gpus:" + std::to_string(gpus) +
        (whole ? "/tiles:1" : "") + "/n:" + std::to_string(n);
    benchmark::RegisterBenchmark(
        name.c_str(),
        [=, gpus = gpus, whole = whole](benchmark::State& st) {
          WorkerPool pool(machine_workers(cuda_devices(gpus), 0, 0));
          const TileOptions tiles{whole ? 0 : 2, 1};
          PairHistogramResult result;
          for (auto _ : st) {
            result = pair_histogram_on_pool(pool, two_sets(a.data(), n, b.data(), n), s, tiles);
            benchmark::DoNotOptimize(result.counts.data());
          }
          st.counters["pairs_per_s"] = benchmark::Counter(
              double(n) * double(n), benchmark::Counter::kIsIterationInvariantRate);
          st.counters["gpus"] = gpus;
          st.counters["portable"] = 0;
          st.SetLabel(result.launch);
        })
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
  }
}

}  // namespace

void register_worker_pool_benchmarks(std::int64_t gpu_points) {
  for (int workers : {1, 2, 4})
    benchmark::RegisterBenchmark(
        ("worker_pool_empty_unit/host/pool/workers:" + std::to_string(workers)).c_str(),
        [workers](benchmark::State& st) { empty_unit(st, workers); })
        ->UseRealTime();
  register_gpus(gpu_points);
}

}  // namespace kmol::bench
