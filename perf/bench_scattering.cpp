// Scattering: one frame's whole cost, the species-pair partial histograms (single precision, as
// kmol scattering counts a trajectory's frames) and the Debye transform with its error estimate
// and Guinier fit, for a solute in vacuum (every pair) and a periodic water-like box (pairs within
// half the box), on Kokkos' default execution space (the GPU of a CUDA build), to
// q = 1/Angstrom (101 points). frames_per_s and pairs_per_s are the rates.
#include <benchmark/benchmark.h>

#include <Kokkos_Core.hpp>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "drivers/library/scattering_job.hpp"
#include "kernels/pair_histogram/pair_histogram.hpp"
#include "perf/bench_config.hpp"

namespace kmol::bench {
namespace {

// n atoms of a protein's mix (C, N, O, S, H) at water's atom density 0.1 / Angstrom^3: a ball for
// a solute, a cube for a periodic box.
struct Frame {
  std::vector<Vec3<double>> xyz;
  std::vector<Vec3<float>> xyz_single;
  AtomIdentity atoms;
  BoxSpec box = BoxSpec::none();
};

Frame make_frame(std::int64_t n, bool periodic) {
  std::mt19937_64 rng(17);
  const double length = std::cbrt(double(n) / 0.1);
  std::uniform_real_distribution<double> u(0, length);
  const char* mix[] = {"C", "H", "N", "H", "O", "C", "H", "S", "H", "O"};
  Frame f;
  const Vec3<double> centre{0.5 * length, 0.5 * length, 0.5 * length};
  const double radius = std::cbrt(3.0 * double(n) / (4 * M_PI * 0.1));
  while (std::int64_t(f.xyz.size()) < n) {
    const Vec3<double> r{u(rng), u(rng), u(rng)};
    if (!periodic && norm2(r - centre) > radius * radius) continue;
    f.xyz.push_back(r);
    f.xyz_single.push_back({float(r.x), float(r.y), float(r.z)});
    f.atoms.elements.push_back(mix[f.xyz.size() % 10]);
  }
  if (periodic) f.box = BoxSpec::orthorhombic(length, length, length);
  return f;
}

void scattering_frame(benchmark::State& state, std::int64_t n, bool periodic) {
  const Frame f = make_frame(n, periodic);
  ScatteringSettings s;
  s.q_max = 1.0;
  s.q_bins = 101;
  ScatteringJob job(s, f.atoms, {}, f.xyz, f.box);
  PairHistogramInput<float> input = one_set(f.xyz_single.data(), n);
  input.species = job.types().of_atom.data();
  const PairHistogramSettings settings = job.count_settings(f.box);
  const Kokkos::DefaultExecutionSpace space;
  const double inverse_volume = periodic ? 1.0 / volume(validated(f.box)) : 0.0;
  std::string impl;
  for (auto _ : state) {
    const PairHistogramResult counts = pair_histogram(space, input, settings);
    ScatteringJob frame_job = job;
    frame_job.add_counts(counts.counts, 1, inverse_volume);
    benchmark::DoNotOptimize(frame_job.result().intensity.data());
    impl = to_string(counts.impl_used);
  }
  const double r = job.range().r_max;
  const double pairs = periodic ? 0.5 * double(n) * (double(n) - 1) *
                                      (4.0 / 3.0 * M_PI * r * r * r) / volume(validated(f.box))
                                : 0.5 * double(n) * (double(n) - 1);
  state.counters["frames_per_s"] =
      benchmark::Counter(1, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["pairs_per_s"] =
      benchmark::Counter(pairs, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["bins"] = double(job.range().bins) * job.types().pairs();
  state.SetLabel(impl + ", " + std::to_string(job.types().size()) + " types");
}

}  // namespace

void register_scattering_benchmarks(std::int64_t atoms) {
  for (std::int64_t n : {atoms / 10, atoms})
    for (bool periodic : {false, true})
      benchmark::RegisterBenchmark(
          ("Scattering/" + std::string(periodic ? "periodic" : "solute") + "/" + std::to_string(n))
              .c_str(),
          [n, periodic](benchmark::State& state) { scattering_frame(state, n, periodic); })
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime();
}

}  // namespace kmol::bench
