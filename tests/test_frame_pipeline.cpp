// The frame pipeline: the same counts whatever the number and kind of workers, every frame
// delivered once, and frames read before a damaged one still delivered.
#include <gtest/gtest.h>

#include <cstdio>
#include <random>

#include "drivers/library/frame_pipeline.hpp"
#include "kmol/core/errors.hpp"
#include "kmol/core/io/h5md_writer.hpp"
#include "kmol/core/runtime.hpp"

namespace kmol {
namespace {

std::string write_gas(const std::string& name, std::int64_t atoms, std::int64_t frames) {
  const std::string path =
      testing::TempDir() + "kmol_pipeline_" + std::to_string(::getpid()) + "_" + name;
  io::H5mdWriter writer(path, atoms, {});
  std::mt19937_64 random(5);
  std::uniform_real_distribution<double> u(0, 20);
  std::vector<Vec3<double>> p(atoms);
  for (std::int64_t f = 0; f < frames; ++f) {
    for (auto& x : p) x = {u(random), u(random), u(random)};
    writer.append(io::H5mdFrameView<double>{f, double(f),
                                            BoxSpec::orthorhombic(20 + 0.1 * f, 20, 20), p.data()});
  }
  writer.close();
  return path;
}

struct Totals {
  std::vector<std::uint64_t> counts;
  std::vector<int> seen;
  PipelineStats stats;
};

Totals run(io::TrajectoryReader& reader, const FrameJob& job, int cpu, int gpu) {
  PipelineOptions options;
  for (std::int64_t f = 0; f < reader.n_frames(); ++f) options.frames.push_back(f);
  options.cpu_workers = cpu;
  options.gpu_workers = gpu;
  Totals t;
  t.counts.assign(std::size_t(job.settings.n_bins), 0);
  t.seen.assign(options.frames.size(), 0);
  options.on_result = [&](const FrameResult& r) {
    for (std::size_t k = 0; k < t.counts.size(); ++k) t.counts[k] += r.counts[k];
    ++t.seen[r.position];
  };
  t.stats = run_frame_pipeline(reader, job, options);
  return t;
}

FrameJob gas_job(std::int64_t atoms) {
  FrameJob job;
  for (std::int64_t i = 0; i < atoms; ++i) (i % 3 == 0 ? job.atoms_b : job.atoms_a).push_back(i);
  job.settings.r_max = 9;
  job.settings.n_bins = 90;
  return job;
}

TEST(FramePipeline, CountsDoNotDependOnTheWorkers) {
  const std::string path = write_gas("workers.h5", 600, 24);
  const auto opened = io::open_trajectory_file(path);
  io::TrajectoryReader& reader = *opened;
  const FrameJob job = gas_job(600);
  const Totals one = run(reader, job, 1, 0);
  EXPECT_EQ(one.seen, std::vector<int>(24, 1));
  std::uint64_t pairs = 0;
  for (auto c : one.counts) pairs += c;
  EXPECT_GT(pairs, 24u * 1000u);
  for (int workers : {2, 3}) {
    const Totals many = run(reader, job, workers, 0);
    EXPECT_EQ(many.counts, one.counts) << workers << " CPU workers";
    EXPECT_EQ(many.seen, one.seen);
  }
  if (!gpu_devices().empty()) {
    for (int cpu : {0, 1, 2}) {
      const Totals mixed = run(reader, job, cpu, 1);
      EXPECT_EQ(mixed.counts, one.counts) << "GPU worker with " << cpu << " CPU workers";
      EXPECT_GT(mixed.stats.frames_on_gpu, 0);
    }
  } else {
    std::printf("no GPU: CPU plus GPU workers not compared here\n");
  }
  std::remove(path.c_str());
}

TEST(FramePipeline, FramesBeforeAnErrorAreDelivered) {
  const std::string path = write_gas("error.h5", 100, 6);
  const auto opened = io::open_trajectory_file(path);
  io::TrajectoryReader& reader = *opened;
  const FrameJob job = gas_job(100);
  PipelineOptions options;
  options.frames = {0, 1, 2, 99};  // the file has 6 frames
  options.cpu_workers = 2;
  int delivered = 0;
  options.on_result = [&](const FrameResult&) { ++delivered; };
  try {
    run_frame_pipeline(reader, job, options);
    ADD_FAILURE() << "frame 99 was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("[99] no such frame"), std::string::npos) << e.what();
  }
  EXPECT_EQ(delivered, 3);
  std::remove(path.c_str());
}

}  // namespace
}  // namespace kmol
