// The worker pool and its decompositions: every unit runs once, failed units are redone elsewhere,
// and pair histograms (tiles x regions), potential maps (slabs) and trajectories (frames) split
// over several workers give the single run's result exactly. Simulated GPUs (host workers) run
// everywhere; the MultiGpu tests need two GPUs and skip otherwise.
#include <gtest/gtest.h>
#include <unistd.h>

#include <Kokkos_Core.hpp>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <thread>

#include "drivers/library/example_systems.hpp"
#include "drivers/library/frame_pipeline.hpp"
#include "drivers/library/gpu_runtime.hpp"
#include "drivers/library/pool_pair_histogram.hpp"
#include "drivers/library/pool_potential.hpp"
#include "drivers/library/worker_pool.hpp"
#include "kernels/coulomb/coulomb.hpp"
#include "kmol/core/io/h5md_writer.hpp"

namespace kmol {
namespace {

std::vector<WorkerSpec> simulated(int devices, int cpu_workers, int fail_first = 0) {
  std::vector<WorkerSpec> w(std::size_t(devices), WorkerSpec{WorkerKind::simulated_gpu, -1, 1, 0});
  for (int k = 0; k < cpu_workers; ++k) w.push_back({WorkerKind::cpu, -1, 2, 0});
  if (!w.empty()) w.front().fail_first_units = fail_first;
  return w;
}

TEST(WorkerPool, EveryUnitRunsOnceOnSeveralWorkers) {
  WorkerPool pool(simulated(3, 1));
  for (std::int64_t n : {1, 7, 1000}) {
    std::vector<std::atomic<int>> runs(static_cast<std::size_t>(n));
    std::vector<std::atomic<int>> by_worker(4);
    pool.run(n, [&](const WorkerContext& w, std::int64_t u) {
      ++runs[std::size_t(u)];
      ++by_worker[std::size_t(w.index)];
    });
    for (std::int64_t u = 0; u < n; ++u)
      EXPECT_EQ(runs[std::size_t(u)].load(), 1) << "unit " << u << " of " << n;
  }
  std::int64_t units = 0;
  for (const WorkerStats& s : pool.stats()) units += s.units;
  EXPECT_EQ(units, 1008);
}

TEST(WorkerPool, FailedUnitsAreRedoneByOtherWorkers) {
  WorkerPool pool(simulated(2, 1, 3));  // worker 0 throws on its first three units
  std::vector<std::atomic<int>> done(50);
  std::atomic<bool> worker_0_started{false};
  pool.run(50, [&](const WorkerContext& w, std::int64_t u) {
    // Units take a while, and the others wait for worker 0 to join, so that it meets its failures.
    if (w.index == 0) worker_0_started = true;
    while (!worker_0_started) std::this_thread::yield();
    std::this_thread::sleep_for(std::chrono::microseconds(300));
    if (u == 17 && w.index == 1) throw std::runtime_error("out of memory on worker 1");
    ++done[std::size_t(u)];
  });
  for (std::size_t u = 0; u < done.size(); ++u) EXPECT_EQ(done[u].load(), 1) << "unit " << u;
  const auto stats = pool.stats();
  EXPECT_EQ(stats[0].failures, 3);
  EXPECT_LE(stats[1].failures, 1);
}

TEST(WorkerPool, AUnitFailingEverywhereFailsTheBatchAndThePoolStaysUsable) {
  WorkerPool pool(simulated(2, 1));
  std::atomic<int> attempts{0};
  EXPECT_THROW(pool.run(20,
                        [&](const WorkerContext&, std::int64_t u) {
                          if (u == 5) {
                            ++attempts;
                            throw std::runtime_error("bad unit");
                          }
                        }),
               std::runtime_error);
  EXPECT_EQ(attempts.load(), 3);  // once on each worker, then the batch fails
  std::atomic<int> ran{0};
  pool.run(10, [&](const WorkerContext&, std::int64_t) { ++ran; });
  EXPECT_EQ(ran.load(), 10);
}

TEST(WorkerPool, APortableCpuWorkerRunsOnTheCallingThread) {
  std::vector<WorkerSpec> workers = simulated(2, 0);
  workers.push_back({WorkerKind::cpu, -1, 2, 0, true});
  EXPECT_THROW(WorkerPool(std::vector<WorkerSpec>{workers[2], workers[2]}), std::invalid_argument);
  WorkerPool pool(workers);
  const std::thread::id caller = std::this_thread::get_id();
  std::atomic<int> on_caller{0}, elsewhere{0}, by_portable{0};
  pool.run(300, [&](const WorkerContext& w, std::int64_t) {
    std::this_thread::sleep_for(std::chrono::microseconds(100));
    ++(std::this_thread::get_id() == caller ? on_caller : elsewhere);
    by_portable += w.index == 2 ? 1 : 0;
  });
  EXPECT_EQ(on_caller.load(), by_portable.load());
  EXPECT_GT(on_caller.load(), 0);
  EXPECT_EQ(on_caller + elsewhere, 300);
}

TEST(WorkerPool, AStandbyWorkerTakesOnlyFailedUnits) {
  std::vector<WorkerSpec> workers = simulated(1, 0, 4);  // fails its first four units
  workers.push_back({WorkerKind::cpu, -1, 1, 0, false, true});
  WorkerPool pool(workers);
  std::vector<std::atomic<int>> done(40);
  std::atomic<int> by_standby{0};
  pool.run(40, [&](const WorkerContext& w, std::int64_t u) {
    ++done[std::size_t(u)];
    by_standby += w.index == 1 ? 1 : 0;
  });
  for (std::size_t u = 0; u < done.size(); ++u) EXPECT_EQ(done[u].load(), 1) << "unit " << u;
  EXPECT_EQ(by_standby.load(), 4);
  EXPECT_EQ(pool.stats()[0].units, 36);
}

// The rates of a first batch make a slow worker leave a short batch to the fast one instead of
// ending it with its own slow unit.
TEST(WorkerPool, ASlowWorkerLeavesTheLastUnitsToFasterOnes) {
  WorkerPool pool(simulated(1, 1));  // worker 0 fast, worker 1 slow
  std::atomic<int> started{0};
  const auto work = [&](const WorkerContext& w, std::int64_t) {
    if (started < 2) {  // both take a first unit, so both have a rate
      ++started;
      const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(2);
      while (started < 2 && std::chrono::steady_clock::now() < give_up) std::this_thread::yield();
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(w.index == 0 ? 1 : 40));
  };
  pool.run(30, work);
  ASSERT_GT(pool.stats()[1].units, 0);
  const std::int64_t slow_units = pool.stats()[1].units;
  pool.run(3, work);
  // Batches of one unit wake one worker; the slow one, woken alone, wakes the others.
  for (int k = 0; k < 10; ++k) pool.run(1, work);
  EXPECT_EQ(pool.stats()[1].units, slow_units);
  EXPECT_EQ(pool.stats()[0].units + slow_units, 43);
}

std::vector<Vec3<double>> gas(std::int64_t n, double side, std::uint64_t seed) {
  return ideal_gas(n, side, seed).positions;
}

template <class T>
std::vector<Vec3<T>> as(const std::vector<Vec3<double>>& p) {
  std::vector<Vec3<T>> out;
  for (const auto& x : p) out.push_back(x.template cast<T>());
  return out;
}

PairHistogramSettings box_settings(BoxSpec box, double r_max, std::int32_t bins) {
  PairHistogramSettings s;
  s.box = box;
  s.r_max = r_max;
  s.n_bins = bins;
  return s;
}

// The pool's counts for every tiling and region count equal pair_histogram's on the host.
template <class T>
void expect_pool_equals_single(const PairHistogramInput<T>& input, const PairHistogramSettings& s,
                               const char* what, int fail_first = 1) {
  const PairHistogramResult single = pair_histogram(Kokkos::DefaultHostExecutionSpace(), input, s);
  std::uint64_t total = 0;
  for (auto c : single.counts) total += c;
  ASSERT_GT(total, 0u) << what;
  WorkerPool pool(simulated(3, 1, fail_first));
  for (std::int32_t regions : {1, 3})
    for (std::int64_t per_worker : {1, 5}) {
      const PairHistogramResult split =
          pair_histogram_on_pool(pool, input, s, TileOptions{per_worker, regions});
      EXPECT_EQ(split.counts, single.counts) << what << ": " << split.launch;
    }
}

TEST(PoolPairHistogram, OneSetInEveryBoxEqualsTheSingleRun) {
  const auto p = gas(1500, 20, 1);
  const auto f = as<float>(p);
  expect_pool_equals_single(one_set(f.data(), 1500),
                            box_settings(BoxSpec::orthorhombic(20, 20, 20), 9.99, 77), "ortho");
  expect_pool_equals_single(
      one_set(f.data(), 1500),
      box_settings(BoxSpec::triclinic({20, 0, 0}, {3, 20, 0}, {2, 4, 20}), 8.5, 50), "triclinic");
  expect_pool_equals_single(one_set(p.data(), 1500), box_settings(BoxSpec::none(), 30, 300),
                            "no box, double");
}

TEST(PoolPairHistogram, TwoSetsWithExclusionsAndSpeciesEqualTheSingleRun) {
  const auto a = as<float>(gas(700, 18, 2)), b = as<float>(gas(900, 18, 3));
  std::vector<std::int32_t> mol_a(700), mol_b(900), species(700);
  for (int i = 0; i < 700; ++i) mol_a[std::size_t(i)] = i / 3, species[std::size_t(i)] = i % 3;
  for (int j = 0; j < 900; ++j) mol_b[std::size_t(j)] = j / 4;
  const auto s = box_settings(BoxSpec::orthorhombic(18, 18, 18), 8.9, 60);
  auto two = two_sets(a.data(), 700, b.data(), 900);
  expect_pool_equals_single(two, s, "two sets");
  two.molecule_a = mol_a.data();
  two.molecule_b = mol_b.data();
  expect_pool_equals_single(two, s, "two sets, exclusions");
  auto one = one_set(a.data(), 700);
  one.molecule_a = mol_a.data();
  expect_pool_equals_single(one, s, "one set, exclusions");
  one.species = species.data();
  auto with_species = s;
  with_species.n_species = 3;
  expect_pool_equals_single(one, with_species, "one set, species and exclusions");
}

// A potential map by `method` (cutoff radius `cutoff`) over `lattice`.
CoulombSettings potential_over(CoulombMethod method, double cutoff, const Grid& lattice) {
  CoulombSettings s;
  s.method = method;
  s.cutoff = cutoff;
  s.lattice = lattice;
  return s;
}

TEST(PoolPotential, SlabsEqualTheSingleRun) {
  const auto p = as<float>(gas(300, 16, 4));
  std::vector<float> q(300), r(300, 1.5f);
  for (int i = 0; i < 300; ++i) q[std::size_t(i)] = (i % 2 ? 0.4f : -0.4f) + 0.01f * float(i % 7);
  const CoulombInput<float> input{p.data(), q.data(), r.data(), 300};
  for (auto method : {CoulombMethod::direct, CoulombMethod::cutoff, CoulombMethod::mdh}) {
    CoulombSettings s = potential_over(method, 6, {{-2, -2, -2}, {0.9, 0.9, 0.9}, {21, 22, 23}});
    s.impl = CoulombImpl::host;
    const PotentialMap<float> single =
        coulomb_potential(Kokkos::DefaultHostExecutionSpace(), input, s);
    WorkerPool pool(simulated(2, 1, 1));
    for (std::int64_t slabs : {1, 4, 23}) {
      const PotentialMap<float> split = coulomb_potential_on_pool(pool, input, s, slabs);
      EXPECT_EQ(split.values, single.values) << to_string(method) << ", " << slabs << " slabs";
    }
  }
}

std::string write_gas_trajectory(std::int64_t atoms, std::int64_t frames) {
  const std::string path = testing::TempDir() + "kmol_pool_" + std::to_string(::getpid()) + ".h5";
  io::H5mdWriter writer(path, atoms, {});
  std::vector<Vec3<double>> p;
  for (std::int64_t f = 0; f < frames; ++f) {
    p = gas(atoms, 20, std::uint64_t(10 + f));
    writer.append(io::H5mdFrameView<double>{
        f, double(f), BoxSpec::orthorhombic(20, 20 + 0.1 * double(f), 20), p.data()});
  }
  writer.close();
  return path;
}

std::vector<std::uint64_t> pipeline_counts(io::TrajectoryReader& reader, const FrameJob& job,
                                           PipelineOptions options,
                                           PipelineStats* stats = nullptr) {
  for (std::int64_t f = 0; f < reader.n_frames(); ++f) options.frames.push_back(f);
  std::vector<std::uint64_t> counts(std::size_t(job.settings.n_bins), 0);
  options.on_result = [&](const FrameResult& r) {
    for (std::size_t k = 0; k < counts.size(); ++k) counts[k] += r.counts[k];
  };
  const PipelineStats s = run_frame_pipeline(reader, job, options);
  if (stats != nullptr) *stats = s;
  return counts;
}

// The counts of one CPU worker: the reference every pool of workers must equal.
std::vector<std::uint64_t> cpu_counts(io::TrajectoryReader& reader, const FrameJob& job) {
  PipelineOptions cpu;
  cpu.workers = frame_workers(false, 1);
  return pipeline_counts(reader, job, cpu);
}

FrameJob gas_frames_job(std::int64_t atoms) {
  FrameJob job;
  for (std::int64_t i = 0; i < atoms; ++i) job.atoms_a.push_back(i);
  job.settings.r_max = 9.5;
  job.settings.n_bins = 95;
  return job;
}

TEST(PoolFrames, DeviceWorkersWithAFailingDeviceCountEveryFrameOnce) {
  const std::string path = write_gas_trajectory(500, 20);
  const auto opened = io::open_trajectory_file(path);
  io::TrajectoryReader& reader = *opened;
  const FrameJob job = gas_frames_job(500);
  const auto reference = cpu_counts(reader, job);
  PipelineOptions one;  // a single device takes every frame: exactly its first two fail
  one.workers = simulated(1, 0, 2);
  PipelineStats stats;
  EXPECT_EQ(pipeline_counts(reader, job, one, &stats), reference);
  EXPECT_EQ(stats.frames_on_gpu + stats.frames_on_cpu, 20);
  EXPECT_EQ(stats.device_failures, 2);
  PipelineOptions devices;
  devices.workers = simulated(3, 0, 2);
  EXPECT_EQ(pipeline_counts(reader, job, devices), reference);
  devices.workers.push_back(frame_workers(false, 1).front());
  EXPECT_EQ(pipeline_counts(reader, job, devices), reference);
  std::remove(path.c_str());
}

// Two real GPUs (the raw CUDA kernels, one thread per device).
bool two_gpus() {
  if (cuda_device_count() >= 2) return true;
  std::printf("fewer than 2 GPUs: skipped\n");
  return false;
}

TEST(MultiGpu, PairHistogramTilesEqualTheSingleGpuAndHostRuns) {
  if (!two_gpus()) GTEST_SKIP() << "needs 2 GPUs";
  const auto a = as<float>(gas(20000, 60, 5)), b = as<float>(gas(30000, 60, 6));
  for (const auto& s : {box_settings(BoxSpec::orthorhombic(60, 60, 60), 29.9, 5000),
                        box_settings(BoxSpec::none(), 104, 100000)}) {
    const auto input = two_sets(a.data(), 20000, b.data(), 30000);
    const PairHistogramResult host = pair_histogram(Kokkos::DefaultHostExecutionSpace(), input, s);
    WorkerPool one(machine_workers({0}, 0, 0));
    const PairHistogramResult single = pair_histogram_on_pool(one, input, s);
    EXPECT_EQ(single.counts, host.counts);
    auto workers = machine_workers(cuda_devices(0), 0, 0);
    workers.front().fail_first_units = 1;
    WorkerPool all(workers);
    for (std::int32_t regions : {1, 4}) {
      const PairHistogramResult split =
          pair_histogram_on_pool(all, input, s, TileOptions{3, regions});
      EXPECT_EQ(split.counts, host.counts) << split.launch;
    }
    const auto one_set_input = one_set(a.data(), 20000);
    EXPECT_EQ(pair_histogram_on_pool(all, one_set_input, s).counts,
              pair_histogram(Kokkos::DefaultHostExecutionSpace(), one_set_input, s).counts);
  }
}

TEST(MultiGpu, PotentialSlabsEqualTheSingleGpuRun) {
  if (!two_gpus()) GTEST_SKIP() << "needs 2 GPUs";
  const auto p = as<float>(gas(5000, 40, 7));
  std::vector<float> q(5000), r(5000, 1.5f);
  for (int i = 0; i < 5000; ++i) q[std::size_t(i)] = i % 2 ? 0.5f : -0.5f;
  const CoulombInput<float> input{p.data(), q.data(), r.data(), 5000};
  for (auto method : {CoulombMethod::direct, CoulombMethod::cutoff}) {
    const CoulombSettings s =
        potential_over(method, 8, {{-5, -5, -5}, {0.5, 0.5, 0.5}, {100, 100, 101}});
    WorkerPool one(machine_workers({0}, 0, 0));
    const PotentialMap<float> single = coulomb_potential_on_pool(one, input, s, 1);
    auto workers = machine_workers(cuda_devices(0), 0, 0);
    workers.front().fail_first_units = 1;
    WorkerPool all(workers);
    EXPECT_EQ(coulomb_potential_on_pool(all, input, s).values, single.values) << to_string(method);
  }
}

TEST(MultiGpu, TrajectoryFramesOnEveryGpuEqualTheCpuRun) {
  if (!two_gpus()) GTEST_SKIP() << "needs 2 GPUs";
  const std::string path = write_gas_trajectory(3000, 12);
  const auto opened = io::open_trajectory_file(path);
  io::TrajectoryReader& reader = *opened;
  const FrameJob job = gas_frames_job(3000);
  const auto reference = cpu_counts(reader, job);
  PipelineOptions gpus;
  gpus.workers = machine_workers(cuda_devices(0), 0, 0);
  gpus.workers.front().fail_first_units = 1;
  PipelineStats stats;
  EXPECT_EQ(pipeline_counts(reader, job, gpus, &stats), reference);
  EXPECT_EQ(stats.device_failures, 1);
  std::remove(path.c_str());
}

}  // namespace
}  // namespace kmol
