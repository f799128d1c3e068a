// The O(N) paths at one size per process (--kmol_scale=N), for the scale curve
// (perf/scale_curve.sh): the cell-list pair histogram, the cutoff potential, the Gaussian density
// and neighbour-list MD, each called repeatedly from host arrays as `kmol` calls it, on the
// systems the `kmol` commands build (their --example / --atoms). The time per call divided by the
// atoms (per atom-step for MD) is the steady state that the one-shot command is compared with.
// No rate counter: these are not study cases (docs/study.md), the curve has its own report.
#include <benchmark/benchmark.h>

#include <Kokkos_Core.hpp>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "drivers/library/example_systems.hpp"
#include "kernels/coulomb/coulomb.hpp"
#include "kernels/coulomb/water_box.hpp"
#include "kernels/density/density.hpp"
#include "kernels/md/md.hpp"
#include "kernels/pair_histogram/pair_histogram.hpp"
#include "perf/bench_config.hpp"

#ifdef KOKKOS_ENABLE_CUDA
#include <cuda_runtime_api.h>
#endif

namespace kmol::bench {
namespace {

constexpr double atoms_per_cubic_angstrom = 0.1;  // water's density, as the commands' examples
constexpr int md_steps = 10;

double side_for(std::int64_t atoms) { return std::cbrt(double(atoms) / atoms_per_cubic_angstrom); }

std::vector<Vec3<float>> as_float(const std::vector<Vec3<double>>& xyz) {
  std::vector<Vec3<float>> out(xyz.size());
  for (std::size_t i = 0; i < xyz.size(); ++i) out[i] = xyz[i].cast<float>();
  return out;
}

// Seconds per atom (per atom-step for MD) of one call, and the device memory held after it (the
// kept arrays stay allocated, so this is the call's high-water mark to within its temporaries).
void record(benchmark::State& state, double atoms) {
  state.counters["atoms"] = atoms;
  state.counters["seconds_per_atom"] = benchmark::Counter(
      atoms, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
#ifdef KOKKOS_ENABLE_CUDA
  std::size_t free = 0, total = 0;
  if (cudaMemGetInfo(&free, &total) == cudaSuccess)
    state.counters["device_bytes_in_use"] = double(total - free);
#endif
}

// `kmol histogram --example gas --atoms N --length L --rmax 12 --bins 240 --impl cells`
template <class ExecSpace>
void cells(benchmark::State& state, std::int64_t n) {
  const double length = side_for(n);
  const auto xyz = as_float(ideal_gas(n, length, 12345).positions);
  PairHistogramSettings s;
  s.box = BoxSpec::orthorhombic(length, length, length);
  s.r_max = 12;
  s.n_bins = 240;
  s.impl = PairHistogramImpl::cells;
  PairHistogramResult result;
  // A trajectory's later frames: the arrays allocated and the upload ring made (kept_arrays.hpp).
  for (int frame = 0; frame < 2; ++frame) pair_histogram(ExecSpace(), one_set(xyz.data(), n), s);
  for (auto _ : state) {
    result = pair_histogram(ExecSpace(), one_set(xyz.data(), n), s);
    benchmark::DoNotOptimize(result.counts.data());
  }
  record(state, double(n));
  state.SetLabel(result.launch);
}

// `kmol potential --example water --atoms N --method cutoff --cutoff 12 --spacing 1 [--impl I]`:
// the space's choice, or the portable implementation
template <class ExecSpace, CoulombImpl Impl>
void cutoff(benchmark::State& state, std::int64_t n) {
  const std::int64_t molecules = n / 3;
  const auto box = coulomb::water_box(molecules, side_for(3 * molecules), 2024);
  const auto xyz = as_float(box.positions);
  const std::vector<float> q(box.charges.begin(), box.charges.end()),
      r(box.radii.begin(), box.radii.end());
  CoulombSettings s;
  s.method = CoulombMethod::cutoff;
  s.cutoff = 12;
  s.lattice = grid_around(box.positions.data(), std::int64_t(box.positions.size()), 1.0, 10.0);
  s.impl = Impl;
  const CoulombInput<float> input{xyz.data(), q.data(), r.data(), std::int64_t(xyz.size())};
  PotentialMap<float> map;
  // A trajectory's later frames: what the implementation keeps (page-locked staging included,
  // which a set's first call leaves to its second) allocated.
  for (int frame = 0; frame < 2; ++frame) map = coulomb_potential(ExecSpace(), input, s);
  for (auto _ : state) {
    map = coulomb_potential(ExecSpace(), input, s);
    benchmark::DoNotOptimize(map.values.data());
  }
  record(state, double(xyz.size()));
  state.counters["points"] = double(s.lattice.points());
  state.SetLabel(map.launch);
}

// `kmol surf GAS.h5 --radius 1.5 --spacing 1 --mesh ''` on `kmol example-trajectory --example gas
// --atoms N --frames 1`'s frame
template <class ExecSpace>
void density(benchmark::State& state, std::int64_t n) {
  const auto xyz = as_float(ideal_gas(n, side_for(n), 2026).positions);
  const std::vector<float> radii(xyz.size(), 1.5f);
  DensitySettings s;
  s.grid = density_grid_around(xyz.data(), n, 1.0, density_cut_radius(1.5, s.threshold) + 2.0);
  DensityMap map;
  // A trajectory's later frames, as in cells() and cutoff().
  for (int frame = 0; frame < 2; ++frame)
    map = gaussian_density(ExecSpace(), {xyz.data(), radii.data(), n}, s);
  for (auto _ : state) {
    map = gaussian_density(ExecSpace(), {xyz.data(), radii.data(), n}, s);
    benchmark::DoNotOptimize(map.values.data());
  }
  record(state, double(n));
  state.counters["points"] = double(s.grid.points());
  state.SetLabel(map.launch);
}

// `kmol md --atoms N --steps 10 --precision single`: its FCC start and implementation, per
// atom-step
template <class ExecSpace>
void md(benchmark::State& state, std::int64_t n) {
  const int k = fcc_cells_per_side(n);
  MdState start = fcc_lattice({k, k, k}, 0.8442);
  maxwell_boltzmann(start, 0.72, 12345);
  MdSimulation<ExecSpace, float> simulation(ExecSpace(), start, MdSettings{});
  simulation.run(md_steps);  // the first list build and the allocations
  for (auto _ : state) simulation.run(md_steps);
  record(state, double(simulation.atoms()) * md_steps);
  state.SetLabel(simulation.launch());
}

template <class ExecSpace>
void register_space(const std::string& space, std::int64_t n) {
  using Run = void (*)(benchmark::State&, std::int64_t);
  const std::pair<const char*, Run> paths[] = {
      {"cells_histogram", cells<ExecSpace>},
      {"cutoff_potential", cutoff<ExecSpace, CoulombImpl::automatic>},
      {"cutoff_potential_kokkos", cutoff<ExecSpace, CoulombImpl::kokkos>},
      {"density", density<ExecSpace>},
      {"md_neighbour", md<ExecSpace>}};
  for (const auto& [name, run] : paths)
    benchmark::RegisterBenchmark(
        ("scale/" + std::string(name) + "/" + space + "/n:" + std::to_string(n)).c_str(),
        [run = run, n](benchmark::State& st) { run(st, n); })
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
}

}  // namespace

void register_scale_benchmarks(std::int64_t atoms) {
#ifdef KOKKOS_ENABLE_OPENMP
  register_space<Kokkos::OpenMP>("OpenMP", atoms);
#endif
#ifdef KOKKOS_ENABLE_CUDA
  register_space<Kokkos::Cuda>("Cuda", atoms);
#endif
}

}  // namespace kmol::bench
