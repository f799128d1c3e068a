// Pair histograms: rate = N_A * N_B (or N(N-1)/2) per second, copies to and from the device
// included, for every implementation on every backend, in the three reference boxes; and sweeps
// of the raw CUDA kernel's launch parameters against its tuner. Names and counters follow
// docs/study.md.
#include <benchmark/benchmark.h>

#include <Kokkos_Core.hpp>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "kernels/pair_histogram/cells/pair_histogram_cells.hpp"
#include "kernels/pair_histogram/implementations.hpp"
#include "kernels/pair_histogram/pair_histogram.hpp"
#include "kernels/pair_histogram/selection.hpp"
#include "kernels/pair_histogram/validation.hpp"
#include "kmol/core/execution_space.hpp"
#include "kmol/core/runtime.hpp"
#include "perf/bench_config.hpp"

namespace kmol::bench {

Sizes& sizes() {
  static Sizes s;
  return s;
}

namespace {

constexpr double side = 100.0;  // L of the reference problem (Angstrom)

struct Reference {
  std::string name;
  BoxSpec box;
  double r_max;
};

std::vector<Reference> reference_boxes() {
  const double L = side;
  return {{"nobox", BoxSpec::none(), std::sqrt(3.0) * L},
          {"ortho", BoxSpec::orthorhombic(L, L, L), 0.5 * L},
          {"triclinic", BoxSpec::triclinic({L, 0, 0}, {0.1 * L, L, 0}, {0.1 * L, 0.1 * L, L}),
           0.45 * L}};
}

std::vector<Vec3<float>> uniform_cube(std::int64_t n, double length, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> u(0, float(length));
  std::vector<Vec3<float>> pts(n);
  for (auto& p : pts) p = {u(rng), u(rng), u(rng)};
  return pts;
}

// Instructions the exact rule needs per pair at the least, one per operation, in float on a GPU
// (docs/study.md derives them): distance and r^2 (6), range test (2), approximate root (1), guess
// (2), the squared edge above it read and compared (3), counter step (1), the count (1); plus the
// minimum image: 1 per axis in an orthorhombic box (a shift), 12 per axis in a triclinic one.
double instructions_per_pair(BoxKind box) {
  return box == BoxKind::none ? 16 : box == BoxKind::orthorhombic ? 19 : 52;
}

template <class ExecSpace>
PairHistogramResult run(benchmark::State& state, PairHistogramInput<float> input,
                        PairHistogramSettings settings, double pairs) {
  PairHistogramResult result;
  for (auto _ : state) {
    result = pair_histogram(ExecSpace(), input, settings);
    benchmark::DoNotOptimize(result.counts.data());
  }
  state.counters["pairs_per_s"] =
      benchmark::Counter(pairs, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["bins"] = settings.n_bins;
  state.counters["portable"] = is_portable(pair_histogram_implementations, settings.impl);
  state.SetLabel(result.launch);
  return result;
}

// The demand per pair of the rate: one shared-memory count per pair in range, and the evaluator's
// instructions for each of those; every pair when all pairs are examined.
void set_demands(benchmark::State& state, const PairHistogramResult& result, double pairs,
                 BoxKind box, bool only_counted_pairs) {
  double counted = 0;
  for (auto c : result.counts) counted += double(c);
  state.counters["smem_atomics_per_item"] = counted / pairs;
  state.counters["instructions_per_item"] =
      instructions_per_pair(box) * (only_counted_pairs ? counted / pairs : 1.0);
}

template <class ExecSpace>
void run_all_pairs(benchmark::State& state, PairHistogramInput<float> input,
                   PairHistogramSettings settings, double pairs) {
  const PairHistogramResult result = run<ExecSpace>(state, input, settings, pairs);
  set_demands(state, result, pairs, settings.box.kind, false);
}

template <class ExecSpace>
void register_space(const std::string& space_name, std::int64_t n) {
  constexpr auto platform = platform_of<ExecSpace>();
  static std::vector<std::vector<Vec3<float>>> keep;  // coordinates live as long as the benchmarks
  keep.push_back(uniform_cube(n, side, 1));
  keep.push_back(uniform_cube(n, side, 2));
  const Vec3<float>* a = keep[keep.size() - 2].data();
  const Vec3<float>* b = keep.back().data();
  for (const auto& ref : reference_boxes())
    for (std::int32_t bins : {10000, 100000}) {
      if (bins == 100000 && ref.box.kind != BoxKind::none) continue;
      PairHistogramSettings s;
      s.box = ref.box;
      s.r_max = ref.r_max;
      s.n_bins = bins;
      const PairHistogramShape shape = shape_of(n, n, false, s);
      for (auto impl : compiled_implementations(pair_histogram_implementations)) {
        if (!pair_histogram_refusal(impl, shape, platform).empty()) continue;
        s.impl = impl;
        const std::string name = "pair_histogram/" + space_name + "/" + to_string(impl) + "/" +
                                 ref.name + "/bins:" + std::to_string(bins) +
                                 "/n:" + std::to_string(n);
        benchmark::RegisterBenchmark(name.c_str(),
                                     [=](benchmark::State& st) {
                                       run_all_pairs<ExecSpace>(st, two_sets(a, n, b, n), s,
                                                                double(n) * double(n));
                                     })
            ->Unit(benchmark::kMillisecond)
            ->UseRealTime();
      }
    }
}

// The cell path's reference frame: one set at 0.1 atoms / A^3, r_max = 12 A, 240 bins, against
// the best all-pairs implementation on the same frame.
template <class ExecSpace>
void register_cells(const std::string& space_name, std::int64_t n, bool with_all_pairs) {
  static std::vector<std::vector<Vec3<float>>> keep;
  const double length = std::cbrt(double(n) / 0.1);
  keep.push_back(uniform_cube(n, length, 3));
  const Vec3<float>* xyz = keep.back().data();
  PairHistogramSettings s;
  s.box = BoxSpec::orthorhombic(length, length, length);
  s.r_max = 12;
  s.n_bins = 240;
  const double pairs = 0.5 * double(n) * double(n - 1);
  for (auto impl : {PairHistogramImpl::cells, PairHistogramImpl::automatic}) {
    if (impl == PairHistogramImpl::automatic && !with_all_pairs) continue;
    s.impl = impl == PairHistogramImpl::cells ? impl
             : runs_on_host<ExecSpace>        ? PairHistogramImpl::host
#ifdef KOKKOS_ENABLE_CUDA
                                       : PairHistogramImpl::cuda;
#else
                                       : PairHistogramImpl::kokkos;
#endif
    const std::string name = "pair_histogram_cells_frame/" + space_name + "/" + to_string(s.impl) +
                             "/n:" + std::to_string(n);
    // The rate counts all pairs, but only those within r_max must be evaluated and counted.
    benchmark::RegisterBenchmark(name.c_str(),
                                 [=](benchmark::State& st) {
                                   const PairHistogramResult result =
                                       run<ExecSpace>(st, one_set(xyz, n), s, pairs);
                                   set_demands(st, result, pairs, s.box.kind, true);
                                 })
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
  }
}

// A trajectory frame as the frame pipeline counts it (perf/rdf_throughput.sh): 20,000 atoms of an
// ideal gas at 0.05 / A^3 already in the space's memory, r 1-6 A in 100 bins, one set, through
// the entry point; and the cell path alone with each cell thickness forced. The rate is frames;
// a frame's demands are those of its counted pairs (set_demands).
template <class ExecSpace>
void register_gas_frame(const std::string& space_name) {
  using Points = Kokkos::View<Vec3<float>*, typename ExecSpace::memory_space>;
  constexpr std::int64_t n = 20000;
  const double length = std::cbrt(double(n) / 0.05);
  static const std::vector<Vec3<float>> xyz = uniform_cube(n, length, 6);
  PairHistogramSettings s;
  s.box = BoxSpec::orthorhombic(length, length, length);
  s.r_min = 1;
  s.r_max = 6;
  s.n_bins = 100;
  s.impl = PairHistogramImpl::cells;
  const auto resident = [](const Points& points) {
    Kokkos::deep_copy(points,
                      Kokkos::View<const Vec3<float>*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                          xyz.data(), n));
    PairHistogramInput<float> input = one_set(points.data(), n);
    input.resident = true;
    return input;
  };
  const std::string base = "pair_histogram_gas_frame/" + space_name + "/cells";
  benchmark::RegisterBenchmark((base + "/n:" + std::to_string(n)).c_str(),
                               [=](benchmark::State& st) {
                                 const Points points("kmol::bench::gas", n);
                                 const PairHistogramResult result =
                                     run<ExecSpace>(st, resident(points), s, 1);
                                 set_demands(st, result, 1, s.box.kind, true);
                                 st.counters.erase("pairs_per_s");
                                 st.counters["frames_per_s"] = benchmark::Counter(
                                     1, benchmark::Counter::kIsIterationInvariantRate);
                               })
      ->Unit(benchmark::kMicrosecond)
      ->UseRealTime();
  for (const auto& [name, thickness] : {std::pair{"half_reach", CellThickness::half_reach},
                                        std::pair{"whole_reach", CellThickness::whole_reach}}) {
    benchmark::RegisterBenchmark(
        (base + "/thickness:" + name + "/n:" + std::to_string(n)).c_str(),
        [=, thickness = thickness](benchmark::State& st) {
          const Points points("kmol::bench::gas", n);
          PreparedPairHistogram<float> prepared;
          prepare_pair_histogram(resident(points), s, prepared);
          const ExecSpace space;
          std::string how;
          for (auto _ : st) {
            how = pair_histogram_cells(space, prepared.job, CellScheme::fastest, thickness);
            space.fence();
          }
          st.counters["frames_per_s"] =
              benchmark::Counter(1, benchmark::Counter::kIsIterationInvariantRate);
          PairHistogramResult per_frame = prepared.result;  // every frame added the same counts
          for (auto& c : per_frame.counts) c /= std::uint64_t(st.iterations());
          set_demands(st, per_frame, 1, s.box.kind, true);
          st.SetLabel(how);
        })
        ->Unit(benchmark::kMicrosecond)
        ->UseRealTime();
  }
}

#ifdef KOKKOS_ENABLE_CUDA
// The raw CUDA kernel's launch parameters swept around its tuner's choice, on the no-box problem
// with a histogram that fits one block (10,000 bins: the tuner takes one sweep) and one that does
// not (100,000 bins: the tuner takes two sweeps of 50,000). The tuner's own choice runs first,
// with tuner_default = 1.
void register_cuda_sweeps(std::int64_t n) {
  static const std::vector<Vec3<float>> a = uniform_cube(n, side, 4), b = uniform_cube(n, side, 5);
  struct Sweep {
    std::int32_t bins;
    std::vector<int> blocks;
    std::vector<std::int64_t> bins_per_sweep;
    std::vector<int> tiles;
  };
  const std::vector<Sweep> sweeps = {
      {10000, {128, 256, 512, 1024}, {2500, 5000, 10000}, {1024, 2048, 4096}},
      {100000, {256, 512, 1024}, {25000, 34000, 50000}, {4096}}};
  for (const Sweep& sweep : sweeps) {
    PairHistogramSettings s;
    s.box = BoxSpec::none();
    s.r_max = std::sqrt(3.0) * side;
    s.n_bins = sweep.bins;
    s.impl = PairHistogramImpl::cuda;
    const std::string base = "pair_histogram/Cuda/cuda/nobox/bins:" + std::to_string(sweep.bins) +
                             "/n:" + std::to_string(n);
    const double pairs = double(n) * double(n);
    benchmark::RegisterBenchmark((base + "/tuner").c_str(),
                                 [=](benchmark::State& st) {
                                   run<Kokkos::Cuda>(st, two_sets(a.data(), n, b.data(), n), s,
                                                     pairs);
                                   st.counters["tuner_default"] = 1;
                                 })
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
    for (int block : sweep.blocks)
      for (std::int64_t window : sweep.bins_per_sweep)
        for (int tile : sweep.tiles) {
          PairHistogramSettings forced = s;
          forced.launch = {block, window, tile};
          const std::string name = base + "/block:" + std::to_string(block) +
                                   "/bins_per_sweep:" + std::to_string(window) +
                                   "/tile:" + std::to_string(tile);
          benchmark::RegisterBenchmark(name.c_str(),
                                       [=](benchmark::State& st) {
                                         run<Kokkos::Cuda>(st, two_sets(a.data(), n, b.data(), n),
                                                           forced, pairs);
                                         st.counters["knob_block"] = block;
                                         st.counters["knob_bins_per_sweep"] = double(window);
                                         st.counters["knob_tile"] = tile;
                                       })
              ->Unit(benchmark::kMillisecond)
              ->UseRealTime();
        }
  }
}
#endif

}  // namespace

void register_pair_histogram_benchmarks() {
  const Sizes& z = sizes();
#ifdef KOKKOS_ENABLE_OPENMP
  register_space<Kokkos::OpenMP>("OpenMP", z.host_points);
  register_cells<Kokkos::OpenMP>("OpenMP", z.cells_points, z.smoke);
  register_gas_frame<Kokkos::OpenMP>("OpenMP");
#endif
#ifdef KOKKOS_ENABLE_CUDA
  if (gpu_devices().empty()) return;
  register_space<Kokkos::Cuda>("Cuda", z.gpu_points);
  register_cells<Kokkos::Cuda>("Cuda", z.cells_points, true);
  register_gas_frame<Kokkos::Cuda>("Cuda");
  register_cuda_sweeps(z.sweep_points);
#endif
}

}  // namespace kmol::bench
