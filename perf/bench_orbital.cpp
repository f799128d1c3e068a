// Molecular orbitals: C60 in 6-31G* (900 Cartesian basis functions), rates in basis-function
// evaluations per second (lattice points x basis functions x orbitals), copies to and from the
// device included. One orbital on the reference lattice (0.05 A spacing, 5 A padding; a slab of
// its z planes on CPUs, where the whole lattice takes minutes) by every implementation, and all
// 180 occupied orbitals of a coarser lattice one at a time against the gemm path.
#include <benchmark/benchmark.h>

#include <Kokkos_Core.hpp>

#include <string>
#include <vector>

#include "kernels/orbital/examples.hpp"
#include "kernels/orbital/implementations.hpp"
#include "kernels/orbital/orbital.hpp"
#include "kernels/orbital/selection.hpp"
#include "kmol/core/execution_space.hpp"
#include "kmol/core/runtime.hpp"
#include "perf/bench_config.hpp"

namespace kmol::bench {
namespace {

struct Molecule {
  MoldenData molden;
  OrbitalBasis basis;
  std::vector<const MolecularOrbital*> occupied;
};

const Molecule& c60() {
  static const Molecule m = [] {
    ExampleOptions o;
    o.orbitals = sizes().smoke ? 4 : 180;  // C60's 360 electrons fill 180 orbitals
    o.occupied = o.orbitals;
    o.valence = true;
    MoldenData molden = example_molecule(ExampleMolecule::c60_631gs, o);
    OrbitalBasis basis(molden);
    return Molecule{std::move(molden), std::move(basis), {}};
  }();
  return m;
}

std::vector<const MolecularOrbital*> occupied() {
  std::vector<const MolecularOrbital*> out;
  for (const auto& mo : c60().molden.orbitals) out.push_back(&mo);
  return out;
}

// The reference lattice, or its first `planes` z planes (0: all).
Grid lattice(double spacing, std::int64_t planes) {
  const MoldenData& m = c60().molden;
  Grid l = grid_around(m.positions.data(), m.atoms(), spacing, 5.0);
  if (planes > 0) {
    l.origin.z +=
        0.5 * double(l.counts[2] - planes) * spacing;  // the middle slab, through the molecule
    l.counts[2] = planes;
  }
  return l;
}

std::string size_of(const Grid& l) {
  return std::to_string(l.counts[0]) + "x" + std::to_string(l.counts[1]) + "x" +
         std::to_string(l.counts[2]);
}

// One untimed call (or set of calls) before the timed ones, the same for every implementation:
// the benchmark times the repeated call, not a process' first (allocations, first launches),
// which Google Benchmark hides only where a call is short enough to need several iterations.
template <class ExecSpace, class T>
void one(benchmark::State& state, OrbitalSettings s) {
  const Molecule& m = c60();
  OrbitalMap<T> map = orbital_on_lattice<T>(ExecSpace(), m.basis, m.molden.orbitals[0], s);
  for (auto _ : state) {
    map = orbital_on_lattice<T>(ExecSpace(), m.basis, m.molden.orbitals[0], s);
    benchmark::DoNotOptimize(map.values.data());
  }
  state.counters["basis_evals_per_s"] =
      benchmark::Counter(double(s.lattice.points()) * m.basis.functions(),
                         benchmark::Counter::kIsIterationInvariantRate);
  state.counters["portable"] = is_portable(orbital_implementations, map.impl_used);
  state.SetLabel(map.launch);
}

// Every occupied orbital, one call each (gemm = false) or all in one (gemm = true).
template <class ExecSpace>
void many(benchmark::State& state, OrbitalSettings s, bool gemm) {
  const Molecule& m = c60();
  const auto mos = occupied();
  std::string launch;
  const auto call = [&] {
    if (gemm) {
      const auto maps = orbitals_on_lattice<float>(ExecSpace(), m.basis, mos, s);
      launch = maps.front().launch;
      benchmark::DoNotOptimize(maps.back().values.data());
    } else {
      for (const MolecularOrbital* mo : mos) {
        const auto map = orbital_on_lattice<float>(ExecSpace(), m.basis, *mo, s);
        launch = map.launch;
        benchmark::DoNotOptimize(map.values.data());
      }
    }
  };
  call();
  for (auto _ : state) call();
  state.counters["basis_evals_per_s"] =
      benchmark::Counter(double(s.lattice.points()) * m.basis.functions() * double(mos.size()),
                         benchmark::Counter::kIsIterationInvariantRate);
  state.counters["portable"] = gemm;
  state.SetLabel(launch);
}

template <class ExecSpace>
void register_space(const std::string& space, std::int64_t planes, std::int64_t many_planes) {
  constexpr auto platform = platform_of<ExecSpace>();
  const bool smoke = sizes().smoke;
  OrbitalSettings s;
  s.lattice = smoke ? lattice(0.5, 2) : lattice(0.05, planes);
  for (OrbitalImpl impl : compiled_implementations(orbital_implementations)) {
    if (!orbital_refusal(impl, platform).empty()) continue;
    s.impl = impl;
    const std::string base = "orbital/c60_631gs/" + space + "/" + to_string(impl);
    benchmark::RegisterBenchmark((base + "/single/n:" + size_of(s.lattice)).c_str(),
                                 [s](benchmark::State& st) { one<ExecSpace, float>(st, s); })
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
    if (impl == OrbitalImpl::cuda) {  // C60's tables forced into constant memory (by default read
                                      // through L1)
      OrbitalSettings constant = s;
      constant.constant_bytes_limit = 64 * 1024;
      benchmark::RegisterBenchmark(
          (base + "/single/tables:constant/n:" + size_of(s.lattice)).c_str(),
          [constant](benchmark::State& st) {
            one<ExecSpace, float>(st, constant);
            st.counters["knob_tables"] = 1;  // a forced launch: the study's sweep, not a case
          })
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime();
    }
    benchmark::RegisterBenchmark((base + "/double/n:" + size_of(s.lattice)).c_str(),
                                 [s](benchmark::State& st) { one<ExecSpace, double>(st, s); })
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
  }
  // All occupied orbitals: the platform's fastest one-orbital kernel, 180 calls, against gemm.
  OrbitalSettings m;
  m.lattice = smoke ? lattice(0.5, 2) : lattice(0.2, many_planes);
  const std::string n = "/occupied/n:" + size_of(m.lattice);
  benchmark::RegisterBenchmark(
      ("orbital/c60_631gs_all/" + space + "/" +
       to_string(choose_orbital_impl(platform, OrbitalImpl::automatic)) + n)
          .c_str(),
      [m](benchmark::State& st) { many<ExecSpace>(st, m, false); })
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime();
  benchmark::RegisterBenchmark(("orbital/c60_631gs_all/" + space + "/kokkos_gemm" + n).c_str(),
                               [m](benchmark::State& st) { many<ExecSpace>(st, m, true); })
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime();
}

}  // namespace

void register_orbital_benchmarks() {
#ifdef KOKKOS_ENABLE_OPENMP
  register_space<Kokkos::OpenMP>("OpenMP", 4, 2);
#endif
#ifdef KOKKOS_ENABLE_CUDA
  if (gpu_devices().empty()) return;
  register_space<Kokkos::Cuda>("Cuda", 0, 0);
#endif
}

}  // namespace kmol::bench
