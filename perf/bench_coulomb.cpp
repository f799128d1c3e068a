// Potential maps: rates in atom-point evaluations per second (direct, mdh) or lattice points per
// second (cutoff), copies to and from the device included, for every implementation on every
// backend, with the straightforward scalar loops they are compared with measured in the same run.
#include <benchmark/benchmark.h>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>
#include <vector>

#include "kernels/coulomb/coulomb.hpp"
#include "kernels/coulomb/implementations.hpp"
#include "kernels/coulomb/selection.hpp"
#include "kernels/coulomb/units.hpp"
#include "kernels/coulomb/water_box.hpp"
#include "kmol/core/execution_space.hpp"
#include "kmol/core/runtime.hpp"
#include "perf/bench_config.hpp"

namespace kmol::bench {
namespace {

struct Problem {
  std::string name;
  CoulombSettings settings;
  std::vector<Vec3<float>> xyz;
  std::vector<float> q, r;
  double evaluations = 0;  // per map: points x atoms (cutoff: points)
  std::string size;        // the lattice, the n: segment of the name (docs/study.md)
  bool too_slow_for_portable_on_host = false;
};

// The reference water box (10^6 A^3, 0.1 atoms / A^3 at full size), coordinates in float.
Problem water(const std::string& name, std::int64_t molecules, double length) {
  const auto box = coulomb::water_box(molecules, length, 2024);
  Problem p;
  p.name = name;
  for (std::size_t a = 0; a < box.positions.size(); ++a) {
    p.xyz.push_back(box.positions[a].cast<float>());
    p.q.push_back(float(box.charges[a]));
    p.r.push_back(float(box.radii[a]));
  }
  return p;
}

double face_points(const Grid& l) {
  const auto [nx, ny, nz] = l.counts;
  return double(nx * ny * nz - std::max<std::int64_t>(0, nx - 2) *
                                   std::max<std::int64_t>(0, ny - 2) *
                                   std::max<std::int64_t>(0, nz - 2));
}

// Rates of the scalar loops, measured first (benchmarks run in registration order).
double& scalar_rate(CoulombMethod m) {
  static double rates[3] = {0, 0, 0};
  return rates[int(m)];
}

// The straightforward single-threaded loop in double precision over `points` lattice points:
// what the fast versions are compared with.
void scalar_loop(benchmark::State& state, const Problem& p, std::int64_t points) {
  const Grid& l = p.settings.lattice;
  const bool mdh = p.settings.method == CoulombMethod::mdh;
  const double kappa =
      coulomb::debye_kappa(p.settings.ionic_strength, p.settings.temperature, 78.54);
  double total = 0;
  const auto start = std::chrono::steady_clock::now();
  for (auto _ : state) {
    for (std::int64_t s = 0; s < points; ++s) {
      const double x = l.origin.x + double(s % l.counts[0]) * l.spacing[0], y = l.origin.y,
                   z = l.origin.z;
      double v = 0;
      for (std::size_t a = 0; a < p.xyz.size(); ++a) {
        const double dx = p.xyz[a].x - x, dy = p.xyz[a].y - y, dz = p.xyz[a].z - z;
        const double d = std::sqrt(dx * dx + dy * dy + dz * dz);
        v += mdh ? p.q[a] * std::exp(-kappa * (d - p.r[a])) / (d * (1 + kappa * p.r[a]))
                 : p.q[a] / d;
      }
      total += v;
    }
    benchmark::DoNotOptimize(total);
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double evaluations = double(points) * double(p.xyz.size());
  state.counters["evals_per_s"] =
      benchmark::Counter(evaluations, benchmark::Counter::kIsIterationInvariantRate);
  scalar_rate(p.settings.method) = evaluations * double(state.iterations()) / seconds;
}

template <class ExecSpace, class T>
void run(benchmark::State& state, const Problem& p, CoulombSettings s) {
  std::vector<Vec3<T>> xyz;
  std::vector<T> q(p.q.begin(), p.q.end()), r(p.r.begin(), p.r.end());
  for (const auto& v : p.xyz) xyz.push_back(v.template cast<T>());
  const CoulombInput<T> input{xyz.data(), q.data(), r.data(), std::int64_t(xyz.size())};
  PotentialMap<T> map;
  for (auto _ : state) {
    map = coulomb_potential(ExecSpace(), input, s);
    benchmark::DoNotOptimize(map.values.data());
  }
  const bool points_only = s.method == CoulombMethod::cutoff;
  state.counters[points_only ? "points_per_s" : "evals_per_s"] =
      benchmark::Counter(p.evaluations, benchmark::Counter::kIsIterationInvariantRate);
  if (!points_only && scalar_rate(s.method) > 0)  // this rate over the scalar loop's
    state.counters["vs_scalar_double"] = benchmark::Counter(
        p.evaluations / scalar_rate(s.method), benchmark::Counter::kIsIterationInvariantRate);
  state.SetLabel(map.launch);
}

template <class ExecSpace>
void register_space(const std::string& space, const std::vector<Problem>& problems) {
  constexpr auto platform = platform_of<ExecSpace>();
  for (const Problem& p : problems) {
    CoulombSettings s = p.settings;
    const CoulombShape shape{s.method,     std::int64_t(p.xyz.size()), s.lattice.points(),
                             s.faces_only, s.lattice.spacing[0],       s.cutoff};
    for (CoulombImpl impl : compiled_implementations(coulomb_implementations)) {
      if (!coulomb_refusal(impl, shape, platform).empty()) continue;
      // The portable cutoff on the full box takes tens of seconds a map on 2 cores, so on CPUs it
      // is compared with the others on a slab of the box (points/s do not depend on it).
      if (impl == CoulombImpl::kokkos && platform == Platform::host &&
          p.too_slow_for_portable_on_host)
        continue;
      s.impl = impl;
      for (int variant = 0; variant < 3; ++variant) {
        s.compensated = variant == 1;
        const std::string name = "coulomb/" + p.name + "/" + space + "/" + to_string(impl) +
                                 (variant == 2   ? "/double"
                                  : variant == 1 ? "/single_compensated"
                                                 : "/single") +
                                 "/n:" + p.size;
        benchmark::RegisterBenchmark(name.c_str(),
                                     [&p, s, variant](benchmark::State& st) {
                                       if (variant == 2)
                                         run<ExecSpace, double>(st, p, s);
                                       else
                                         run<ExecSpace, float>(st, p, s);
                                     })
            ->Unit(benchmark::kMillisecond)
            ->UseRealTime();
      }
    }
  }
}

}  // namespace

void register_coulomb_benchmarks() {
  const bool smoke = sizes().smoke;
  static std::vector<Problem> host_problems, gpu_problems;
  // direct: the full water box against a block of lattice points.
  auto direct = [&](std::int64_t nx, std::int64_t ny, std::int64_t nz) {
    Problem p = smoke ? water("direct", 300, 20) : water("direct", 32200, 100);
    p.settings.method = CoulombMethod::direct;
    p.settings.lattice = {{10, 10, 10}, {0.5, 0.5, 0.5}, {nx, ny, nz}};
    p.size = std::to_string(nx) + "x" + std::to_string(ny) + "x" + std::to_string(nz);
    p.evaluations = double(p.settings.lattice.points()) * double(p.xyz.size());
    return p;
  };
  // cutoff: Rodrigues et al.'s test, the whole box at 0.5 A with a 12 A cutoff, or `planes` planes
  // of it through the middle of the box.
  auto cutoff = [&](std::int64_t planes) {
    Problem p = smoke ? water("cutoff", 300, 20) : water("cutoff", 32200, 100);
    const std::int64_t n = smoke ? 21 : 201;
    const std::int64_t nz = std::min(n, planes);
    p.settings.method = CoulombMethod::cutoff;
    p.settings.cutoff = 12;
    p.settings.lattice = {{0, 0, 0.5 * double(n - nz) / 2}, {0.5, 0.5, 0.5}, {n, n, nz}};
    p.evaluations = double(p.settings.lattice.points());
    p.size = nz == n ? std::to_string(n) + "^3"
                     : std::to_string(n) + "x" + std::to_string(n) + "x" + std::to_string(nz);
    p.too_slow_for_portable_on_host = nz == n && !smoke;
    return p;
  };
  // mdh: the six faces of a 193^3 lattice around 100,000 atoms (APBS' boundary condition).
  auto mdh = [&] {
    Problem p = smoke ? water("mdh_faces", 300, 20) : water("mdh_faces", 33334, 100);
    const std::int64_t n = smoke ? 17 : 193;
    p.settings.method = CoulombMethod::mdh;
    p.settings.ionic_strength = 0.15;
    p.settings.faces_only = true;
    const double spacing = smoke ? 1.5 : 0.6;
    const double origin = 50 - 0.5 * spacing * double(n - 1);
    p.settings.lattice = {{origin, origin, origin}, {spacing, spacing, spacing}, {n, n, n}};
    p.size = std::to_string(n) + "^3";
    p.evaluations = face_points(p.settings.lattice) * double(p.xyz.size());
    return p;
  };
  host_problems = {direct(32, 16, 8), cutoff(201), cutoff(8), mdh()};
  gpu_problems = {direct(256, 128, 64), cutoff(201), mdh()};
  // The straightforward loops first: one row of points each (their rates do not depend on how
  // many).
  for (const Problem* p : {&host_problems[0], &host_problems.back()}) {
    const std::string name = "coulomb/" + p->name + "/host/scalar_loop/double/n:" + p->size;
    benchmark::RegisterBenchmark(
        name.c_str(), [p, smoke](benchmark::State& st) { scalar_loop(st, *p, smoke ? 4 : 16); })
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
  }
#ifdef KOKKOS_ENABLE_OPENMP
  register_space<Kokkos::OpenMP>("OpenMP", host_problems);
#endif
#ifdef KOKKOS_ENABLE_CUDA
  if (gpu_devices().empty()) return;
  register_space<Kokkos::Cuda>("Cuda", gpu_problems);
#endif
}

}  // namespace kmol::bench
