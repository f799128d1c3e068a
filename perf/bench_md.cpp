// Lennard-Jones MD in atom-steps per second on LAMMPS' standard LJ benchmark system (FCC at
// rho = 0.8442, T = 1.44, r_c = 2.5, skin 0.3, NVE, dt 0.005), every force implementation on
// every backend in the same run; and the all-pairs kernels' share of the GPU's FP32 peak.
#include <benchmark/benchmark.h>

#include <Kokkos_Core.hpp>

#include <ctime>
#include <memory>
#include <string>

#include "kernels/md/implementations.hpp"
#include "kernels/md/md.hpp"
#include "kernels/md/selection.hpp"
#include "kmol/core/execution_space.hpp"
#include "kmol/core/runtime.hpp"
#include "perf/bench_config.hpp"

namespace kmol::bench {
namespace {

// Floating-point operations the all-pairs kernels spend on a pair beyond the cutoff (difference,
// minimum image: sub, fma, floor, fma per axis; squared length: fma, fma, mul; compare), counting
// an fma as two: the work that dominates all pairs of 100,000 atoms (0.06% of pairs interact).
constexpr double flops_per_pair = 3 + 3 * 6 + 5 + 1;

MdState lj_benchmark_system(std::int64_t atoms) {
  const int k = fcc_cells_per_side(atoms);
  MdState s = fcc_lattice({k, k, k}, 0.8442);
  maxwell_boltzmann(s, 1.44, 12345);
  return s;
}

template <class ExecSpace, class T>
void run_md(benchmark::State& state, std::shared_ptr<const MdState> start, const std::string& force,
            int steps, bool all_pairs) {
  MdSettings settings;
  set_md_force(settings, force);
  const MdForceImpl impl = settings.impl;
  MdSimulation<ExecSpace, T> md(ExecSpace(), *start, settings);
  md.run(steps);  // warm-up: first list build, allocations
  const std::int64_t builds = md.list_builds();
  const std::clock_t cpu_start = std::clock();
  for (auto _ : state) md.run(steps);
  const double cpu_seconds = double(std::clock() - cpu_start) / CLOCKS_PER_SEC;
  const double n = double(md.atoms());
  state.counters["atom_steps_per_s"] =
      benchmark::Counter(n * steps, benchmark::Counter::kIsIterationInvariantRate);
  // Per CPU-second of all the process's threads: on a shared machine, where wall-clock rates
  // depend on the other loads, this compares implementations' work (waiting threads that spin
  // count too, so it flatters no one).
  if (cpu_seconds > 0)
    state.counters["atom_steps_per_cpu_s"] = n * steps * double(state.iterations()) / cpu_seconds;
  // Kokkos code written once for every backend (docs/study.md).
  state.counters["portable"] = is_portable(md_implementations, impl);
  state.counters["list_builds_per_step"] =
      double(md.list_builds() - builds) / (double(state.iterations()) * steps);
  if (all_pairs) {
    state.counters["pairs_per_s"] =
        benchmark::Counter(n * n * steps, benchmark::Counter::kIsIterationInvariantRate);
    state.counters["flops_per_s"] = benchmark::Counter(
        n * n * steps * flops_per_pair, benchmark::Counter::kIsIterationInvariantRate);
    // per atom-step: the study's FP32 or FP64 bound (docs/study.md)
    state.counters[std::is_same_v<T, float> ? "fp32_flops_per_item" : "fp64_flops_per_item"] =
        n * flops_per_pair;
    const auto gpus = gpu_devices();
    if (!gpus.empty() && !runs_on_host<ExecSpace>) {
      // 128 FP32 lanes per SM on compute capability 8.x/9.x, two flops per fma.
      const double peak = double(gpus[0].multiprocessors) * 128 * 2 * gpus[0].clock_khz * 1e3;
      state.counters["fp32_peak_flops"] = peak;
      state.counters["fp32_peak_fraction"] = benchmark::Counter(
          n * n * steps * flops_per_pair / peak, benchmark::Counter::kIsIterationInvariantRate);
    }
  }
  state.SetLabel(md.launch());
}

template <class ExecSpace>
void register_space(const std::string& space, std::int64_t atoms, int steps, bool with_all_pairs) {
  constexpr Platform platform = platform_of<ExecSpace>();
  auto start = std::make_shared<const MdState>(lj_benchmark_system(atoms));
  const MdShape shape{std::int64_t(start->positions.size()), start->box, 2.5, 0.3};
  for (const std::string& force : md_force_names()) {
    const MdForceImpl impl = md_force_impl_from_string(force);
    const bool all_pairs = impl == MdForceImpl::all_pairs || impl == MdForceImpl::cuda;
    if (all_pairs != with_all_pairs || !md_force_refusal(impl, shape, platform).empty()) continue;
    for (bool single : {true, false}) {
      const std::string name = std::string(all_pairs ? "md_all_pairs/" : "md_lj/") + space + "/" +
                               force + "/" + (single ? "single" : "double") +
                               "/n:" + std::to_string(shape.atoms);
      benchmark::RegisterBenchmark(name.c_str(),
                                   [=](benchmark::State& st) {
                                     if (single)
                                       run_md<ExecSpace, float>(st, start, force, steps, all_pairs);
                                     else
                                       run_md<ExecSpace, double>(st, start, force, steps,
                                                                 all_pairs);
                                   })
          ->UseRealTime()
          ->Unit(benchmark::kMillisecond);
    }
  }
}

}  // namespace

void register_md_benchmarks() {
  const Sizes& z = sizes();
#ifdef KOKKOS_ENABLE_OPENMP
  register_space<Kokkos::OpenMP>("OpenMP", z.md_host_atoms, z.smoke ? 2 : 20, false);
  register_space<Kokkos::OpenMP>("OpenMP", z.md_all_pairs_host_atoms, 1, true);
#endif
#ifdef KOKKOS_ENABLE_CUDA
  for (std::int64_t atoms : z.md_gpu_atoms)
    register_space<Kokkos::Cuda>("Cuda", atoms, z.smoke ? 2 : 100, false);
  register_space<Kokkos::Cuda>("Cuda", z.md_all_pairs_gpu_atoms, z.smoke ? 1 : 5, true);
#endif
}

}  // namespace kmol::bench
