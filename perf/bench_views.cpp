// What a Kokkos application saves by passing coordinates it already holds in the execution
// space's memory (views.hpp) instead of host arrays: one frame of `atoms` atoms at water's atom
// density (0.1 / A^3, uniform), the same implementation either way, so the difference is the
// host-side checks and preparation and the transfer to the device.
//   views/<algorithm>/host_arrays/<space>:  the host-pointer entry point on pageable host memory
//   views/<algorithm>/device_view/<space>:  the View entry point on a View in the space's memory
//   views/transfer/<space>:                 the frame's coordinates copied host to space alone
// pair_histogram: cells, r_max 10 A, 200 bins; density: kokkos, 2 A lattice over the box;
// potential: kokkos cutoff (8 A) on a 4 A lattice over the box.
#include <benchmark/benchmark.h>

#include <Kokkos_Core.hpp>

#include <cmath>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "kernels/coulomb/views.hpp"
#include "kernels/density/views.hpp"
#include "kernels/pair_histogram/views.hpp"
#include "kmol/core/runtime.hpp"
#include "perf/bench_config.hpp"

namespace kmol::bench {
namespace {

struct Frame {
  double box = 0;
  std::vector<Vec3<float>> xyz;
  std::vector<float> charges, radii;
};

Frame water_density_frame(std::int64_t atoms) {
  Frame f;
  f.box = std::cbrt(double(atoms) / 0.1);
  std::mt19937_64 gen(20);
  std::uniform_real_distribution<float> where(0.0f, float(f.box) * 0.999f), radius(1.2f, 1.8f);
  for (std::int64_t a = 0; a < atoms; ++a) {
    f.xyz.push_back({where(gen), where(gen), where(gen)});
    f.charges.push_back(a % 3 == 0 ? -0.834f : 0.417f);  // TIP3P's oxygen and hydrogens
    f.radii.push_back(radius(gen));
  }
  return f;
}

Grid box_grid(const Frame& f, double spacing) {
  Grid g;
  const std::int64_t n = std::int64_t(std::floor(f.box / spacing)) + 1;
  g.spacing = {spacing, spacing, spacing};
  g.counts = {n, n, n};
  return g;
}

template <class ExecSpace, class V>
Kokkos::View<V*, typename ExecSpace::memory_space> in_space(const std::vector<V>& host) {
  Kokkos::View<V*, typename ExecSpace::memory_space> out("kmol::bench::frame", host.size());
  Kokkos::deep_copy(out, Kokkos::View<const V*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                             host.data(), host.size()));
  return out;
}

// Runs `call` per iteration (it fences), with the frame's size as counters.
template <class Call>
void timed(benchmark::State& state, const Frame& f, Call&& call) {
  for (auto _ : state) call();
  state.counters["atoms"] = double(f.xyz.size());
  state.counters["frame_MB"] = double(f.xyz.size() * sizeof(Vec3<float>)) * 1e-6;
}

template <class ExecSpace>
void register_space(const std::string& space_name, std::int64_t atoms) {
  const auto frame = std::make_shared<Frame>(water_density_frame(atoms));
  const std::string tail = "/" + space_name;
  auto add = [](const std::string& name, auto&& body) {
    benchmark::RegisterBenchmark(name.c_str(), body)->UseRealTime()->Unit(benchmark::kMillisecond);
  };

  PairHistogramSettings pairs;
  pairs.box = BoxSpec::orthorhombic(frame->box, frame->box, frame->box);
  pairs.r_max = 10;
  pairs.n_bins = 200;
  pairs.impl = PairHistogramImpl::cells;
  add("views/pair_histogram/host_arrays" + tail, [frame, pairs](benchmark::State& state) {
    timed(state, *frame, [&] {
      pair_histogram(ExecSpace(), one_set(frame->xyz.data(), std::int64_t(frame->xyz.size())),
                     pairs);
    });
  });
  add("views/pair_histogram/device_view" + tail, [frame, pairs](benchmark::State& state) {
    const auto xyz = in_space<ExecSpace>(frame->xyz);
    timed(state, *frame, [&] { pair_histogram(ExecSpace(), xyz, pairs); });
  });

  DensitySettings density;
  density.grid = box_grid(*frame, 2.0);
  density.impl = DensityImpl::kokkos;
  add("views/density/host_arrays" + tail, [frame, density](benchmark::State& state) {
    const DensityInput input{frame->xyz.data(), frame->radii.data(),
                             std::int64_t(frame->xyz.size())};
    timed(state, *frame, [&] { gaussian_density(ExecSpace(), input, density); });
  });
  add("views/density/device_view" + tail, [frame, density](benchmark::State& state) {
    const auto xyz = in_space<ExecSpace>(frame->xyz);
    const auto radii = in_space<ExecSpace>(frame->radii);
    timed(state, *frame, [&] { gaussian_density(ExecSpace(), xyz, radii, density); });
  });

  CoulombSettings potential;
  potential.method = CoulombMethod::cutoff;
  potential.cutoff = 8;
  potential.lattice = box_grid(*frame, 4.0);
  potential.impl = CoulombImpl::kokkos;
  add("views/potential_cutoff/host_arrays" + tail, [frame, potential](benchmark::State& state) {
    const CoulombInput<float> input{frame->xyz.data(), frame->charges.data(), nullptr,
                                    std::int64_t(frame->xyz.size())};
    timed(state, *frame, [&] { coulomb_potential(ExecSpace(), input, potential); });
  });
  add("views/potential_cutoff/device_view" + tail, [frame, potential](benchmark::State& state) {
    const auto xyz = in_space<ExecSpace>(frame->xyz);
    const auto q = in_space<ExecSpace>(frame->charges);
    timed(state, *frame, [&] { coulomb_potential(ExecSpace(), xyz, q, potential); });
  });

  add("views/transfer" + tail, [frame](benchmark::State& state) {
    Kokkos::View<Vec3<float>*, typename ExecSpace::memory_space> xyz("kmol::bench::xyz",
                                                                     frame->xyz.size());
    const Kokkos::View<const Vec3<float>*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> host(
        frame->xyz.data(), frame->xyz.size());
    timed(state, *frame, [&] {
      Kokkos::deep_copy(ExecSpace(), xyz, host);
      ExecSpace().fence();
    });
  });
}

}  // namespace

void register_views_benchmarks(std::int64_t atoms) {
  register_space<Kokkos::DefaultHostExecutionSpace>(Kokkos::DefaultHostExecutionSpace::name(),
                                                    atoms);
#ifdef KOKKOS_ENABLE_CUDA
  if (!gpu_devices().empty()) register_space<Kokkos::Cuda>("Cuda", atoms);
#endif
}

}  // namespace kmol::bench
