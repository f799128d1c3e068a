// rand48: numbers written to memory per second, kmol's parallel glibc sequence against glibc's
// own lrand48 in one thread; 32-bit numbers from Kokkos' XorShift64 generators, through kmol's
// streams (kernels/rng/xorshift_fill.hpp) and Kokkos' own fill_random, against (CUDA builds)
// cuRAND's XORWOW.
#include <benchmark/benchmark.h>
#include <stdlib.h>

#include <Kokkos_Core.hpp>
#include <Kokkos_Random.hpp>

#include <string>
#include <vector>

#include "kernels/rng/rand48_fill.hpp"
#include "kernels/rng/xorshift_fill.hpp"
#include "perf/bench_config.hpp"
#ifdef KMOL_HAVE_CUDA
#include <curand.h>
#include <dlfcn.h>
#endif

namespace kmol::bench {
namespace {

// The rate, and for the study (docs/study.md) the bytes each number stores and whether the code
// is Kokkos' (portable).
void set_rate(benchmark::State& state, std::int64_t n, const std::string& label, std::size_t bytes,
              bool portable) {
  state.counters["numbers_per_s"] =
      benchmark::Counter(double(n), benchmark::Counter::kIsIterationInvariantRate);
  state.counters["dram_bytes_per_item"] = double(bytes);
  state.counters["portable"] = portable;
  state.SetLabel(label);
}

template <class ExecSpace, class T>
void kmol_rand48(benchmark::State& state, Rand48Kind kind, std::int64_t n) {
  const ExecSpace space;
  Kokkos::View<T*, typename ExecSpace::memory_space> out(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("out")), n);
  Rand48FillResult r;
  std::uint64_t seed = rand48_seed_state(1);
  for (auto _ : state) {
    r = rand48_fill(space, seed, kind, out);
    space.fence();
    seed = r.state_after;
  }
  set_rate(state, n, std::to_string(r.streams) + " " + to_string(r.layout) + " streams", sizeof(T),
           true);
}

void glibc_lrand48(benchmark::State& state, std::int64_t n) {
  std::vector<std::int32_t> out(static_cast<std::size_t>(n));
  srand48(1);
  for (auto _ : state) {
    for (auto& x : out) x = std::int32_t(lrand48());
    benchmark::DoNotOptimize(out.data());
  }
  set_rate(state, n, "one thread", sizeof(std::int32_t), false);
}

template <class ExecSpace>
void kmol_xorshift64(benchmark::State& state, std::int64_t n) {
  const ExecSpace space;
  Kokkos::View<std::uint32_t*, typename ExecSpace::memory_space> out(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("out")), n);
  const XorShift64Streams<ExecSpace> streams(space, 1);
  for (auto _ : state) {
    streams.fill(out);
    space.fence();
  }
  set_rate(state, n,
           std::to_string(streams.streams()) +
               (XorShift64Streams<ExecSpace>::blocked ? " blocked" : " interleaved") + " streams",
           sizeof(std::uint32_t), true);
}

template <class ExecSpace>
void kokkos_xorshift64(benchmark::State& state, std::int64_t n) {
  const ExecSpace space;
  Kokkos::View<std::uint32_t*, typename ExecSpace::memory_space> out(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("out")), n);
  Kokkos::Random_XorShift64_Pool<ExecSpace> pool(1);
  for (auto _ : state) {
    Kokkos::fill_random(out, pool, std::uint32_t(0x7fffffff));
    space.fence();
  }
  set_rate(state, n, "Kokkos::fill_random", sizeof(std::uint32_t), true);
}

#ifdef KMOL_HAVE_CUDA
// cuRAND is opened at run time: its 97 MB library is not carried to the GPU machines, which use
// their own when they have one (the benchmark reports an error otherwise).
struct Curand {
  decltype(&curandCreateGenerator) create = nullptr;
  decltype(&curandSetPseudoRandomGeneratorSeed) seed = nullptr;
  decltype(&curandGenerate) generate = nullptr;
  decltype(&curandDestroyGenerator) destroy = nullptr;

  static const Curand* load() {
    static const Curand loaded = [] {
      Curand c;
      if (void* lib = dlopen("libcurand.so.10", RTLD_NOW | RTLD_LOCAL)) {
        c.create = reinterpret_cast<decltype(c.create)>(dlsym(lib, "curandCreateGenerator"));
        c.seed =
            reinterpret_cast<decltype(c.seed)>(dlsym(lib, "curandSetPseudoRandomGeneratorSeed"));
        c.generate = reinterpret_cast<decltype(c.generate)>(dlsym(lib, "curandGenerate"));
        c.destroy = reinterpret_cast<decltype(c.destroy)>(dlsym(lib, "curandDestroyGenerator"));
      }
      return c;
    }();
    return loaded.create && loaded.seed && loaded.generate && loaded.destroy ? &loaded : nullptr;
  }
};

void curand_xorwow(benchmark::State& state, std::int64_t n) {
  const Curand* curand = Curand::load();
  if (!curand) {
    state.SkipWithError("libcurand.so.10 not found on this machine");
    return;
  }
  Kokkos::View<unsigned int*, Kokkos::CudaSpace> out(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("out")), n);
  curandGenerator_t generator;
  if (curand->create(&generator, CURAND_RNG_PSEUDO_XORWOW) != CURAND_STATUS_SUCCESS) {
    state.SkipWithError("curandCreateGenerator failed");
    return;
  }
  curand->seed(generator, 1);
  curand->generate(generator, out.data(), std::size_t(n));  // set-up kernels outside the timing
  Kokkos::Cuda().fence();
  for (auto _ : state) {
    curand->generate(generator, out.data(), std::size_t(n));
    Kokkos::Cuda().fence();
  }
  curand->destroy(generator);
  set_rate(state, n, "curandGenerate 32-bit", sizeof(unsigned int), false);
}
#endif

template <class ExecSpace>
void register_space(const std::string& space, std::int64_t n) {
  const std::string suffix = "/n:" + std::to_string(n);
  benchmark::RegisterBenchmark(("rand48/" + space + "/kmol/lrand48" + suffix).c_str(),
                               [=](benchmark::State& st) {
                                 kmol_rand48<ExecSpace, std::int32_t>(st, Rand48Kind::lrand48, n);
                               })
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark(
      ("rand48/" + space + "/kmol/drand48" + suffix).c_str(),
      [=](benchmark::State& st) { kmol_rand48<ExecSpace, double>(st, Rand48Kind::drand48, n); })
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark(("rand48/" + space + "/kmol_xorshift64" + suffix).c_str(),
                               [=](benchmark::State& st) { kmol_xorshift64<ExecSpace>(st, n); })
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark(("rand48/" + space + "/kokkos_xorshift64" + suffix).c_str(),
                               [=](benchmark::State& st) { kokkos_xorshift64<ExecSpace>(st, n); })
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
}

}  // namespace

void register_rand48_benchmarks() {
  const Sizes& z = sizes();
  benchmark::RegisterBenchmark(
      ("rand48/host/glibc/lrand48/n:" + std::to_string(z.rand48_host)).c_str(),
      [n = z.rand48_host](benchmark::State& st) { glibc_lrand48(st, n); })
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
#ifdef KOKKOS_ENABLE_OPENMP
  register_space<Kokkos::OpenMP>("OpenMP", z.rand48_host);
#endif
#ifdef KOKKOS_ENABLE_CUDA
  register_space<Kokkos::Cuda>("Cuda", z.rand48_gpu);
  benchmark::RegisterBenchmark(
      ("rand48/Cuda/curand_xorwow/n:" + std::to_string(z.rand48_gpu)).c_str(),
      [n = z.rand48_gpu](benchmark::State& st) { curand_xorwow(st, n); })
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
#endif
}

}  // namespace kmol::bench
