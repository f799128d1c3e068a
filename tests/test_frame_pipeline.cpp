// The frame pipeline: the same counts whatever the number and kind of workers, every frame
// delivered once (also when a device fails frames that the host then counts), frames read before
// a damaged one still delivered, and a run stopped by its consumer resumable from what it kept.
#include <gtest/gtest.h>

#include <cstdio>
#include <limits>
#include <memory>
#include <random>

#include "drivers/library/frame_pipeline.hpp"
#include "kmol/core/errors.hpp"
#include "kmol/core/io/h5md_writer.hpp"
#include "kmol/core/runtime.hpp"
#include "kmol/core/stop.hpp"
#include "tests/support/refusal.hpp"

namespace kmol {
namespace {

// A gas trajectory of `frames` frames, opened for one test and removed after it.
struct GasFile {
  GasFile(const std::string& name, std::int64_t atoms, std::int64_t frames)
      : path(write_gas(name, atoms, frames)), reader(io::open_trajectory_file(path)) {}
  ~GasFile() { std::remove(path.c_str()); }
  static std::string write_gas(const std::string& name, std::int64_t atoms, std::int64_t frames) {
    const std::string file =
        testing::TempDir() + "kmol_pipeline_" + std::to_string(::getpid()) + "_" + name;
    io::H5mdWriter writer(file, atoms, {});
    std::mt19937_64 random(5);
    std::uniform_real_distribution<double> u(0, 20);
    std::vector<Vec3<double>> p(atoms);
    for (std::int64_t f = 0; f < frames; ++f) {
      for (auto& x : p) x = {u(random), u(random), u(random)};
      writer.append(io::H5mdFrameView<double>{
          f, double(f), BoxSpec::orthorhombic(20 + 0.1 * f, 20, 20), p.data()});
    }
    writer.close();
    return file;
  }
  std::string path;
  std::unique_ptr<io::TrajectoryReader> reader;
};

struct Totals {
  std::vector<std::uint64_t> counts;
  std::vector<int> seen;
  PipelineStats stats;
};

Totals run(io::TrajectoryReader& reader, const FrameJob& job, std::vector<WorkerSpec> workers) {
  PipelineOptions options;
  for (std::int64_t f = 0; f < reader.n_frames(); ++f) options.frames.push_back(f);
  options.workers = std::move(workers);
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
  const GasFile gas("workers.h5", 600, 24);
  io::TrajectoryReader& reader = *gas.reader;
  const FrameJob job = gas_job(600);
  const Totals one = run(reader, job, frame_workers(false, 1));
  EXPECT_EQ(one.seen, std::vector<int>(24, 1));
  std::uint64_t pairs = 0;
  for (auto c : one.counts) pairs += c;
  EXPECT_GT(pairs, 24u * 1000u);
  for (int workers : {2, 3}) {
    const Totals many = run(reader, job, frame_workers(false, workers));
    EXPECT_EQ(many.counts, one.counts) << workers << " CPU workers";
    EXPECT_EQ(many.seen, one.seen);
  }
  if (!gpu_devices().empty()) {
    for (int cpu : {0, 1, 2}) {
      const Totals mixed = run(reader, job, frame_workers(true, cpu));
      EXPECT_EQ(mixed.counts, one.counts) << "GPU worker with " << cpu << " CPU workers";
      EXPECT_GT(mixed.stats.frames_on_gpu, 0);
    }
  } else {
    std::printf("no GPU: CPU plus GPU workers not compared here\n");
  }
}

TEST(FramePipeline, FramesBeforeAnErrorAreDelivered) {
  const GasFile gas("error.h5", 100, 6);
  io::TrajectoryReader& reader = *gas.reader;
  const FrameJob job = gas_job(100);
  PipelineOptions options;
  options.frames = {0, 1, 2, 99};  // the file has 6 frames
  options.workers = frame_workers(false, 2);
  int delivered = 0;
  options.on_result = [&](const FrameResult&) { ++delivered; };
  const std::string message = test::refusal([&] { run_frame_pipeline(reader, job, options); });
  EXPECT_NE(message.find("[99] no such frame"), std::string::npos) << message;
  EXPECT_EQ(delivered, 3);
}

// The frames of another reader, frame `damaged` without its box (as a zero XTC box reads), or
// with atom `nan_atom` not a number (as a format without its own check would read it).
class DamagedFrame final : public io::TrajectoryReader {
 public:
  DamagedFrame(io::TrajectoryReader& r, std::int64_t damaged, std::int64_t nan_atom = -1)
      : r_(r), damaged_(damaged), nan_atom_(nan_atom) {}
  const std::string& path() const override { return r_.path(); }
  std::string description() const override { return r_.description(); }
  std::int64_t n_frames() const override { return r_.n_frames(); }
  std::int64_t n_atoms() const override { return r_.n_atoms(); }
  BoxKind box_kind() const override { return r_.box_kind(); }
  io::FrameInfo read_frame(std::int64_t t, Vec3<float>* p) override {
    return damaged(t, r_.read_frame(t, p), p);
  }
  io::FrameInfo read_frame(std::int64_t t, Vec3<double>* p) override {
    return damaged(t, r_.read_frame(t, p), p);
  }
  io::FrameInfo frame_info(std::int64_t t) override {
    return damaged(t, r_.frame_info(t), static_cast<Vec3<float>*>(nullptr));
  }

 private:
  template <class T>
  io::FrameInfo damaged(std::int64_t t, io::FrameInfo info, Vec3<T>* p) const {
    if (t != damaged_) return info;
    if (nan_atom_ < 0) info.box = BoxSpec::none();
    if (nan_atom_ >= 0 && p != nullptr) p[nan_atom_].y = std::numeric_limits<T>::quiet_NaN();
    return info;
  }
  io::TrajectoryReader& r_;
  std::int64_t damaged_, nan_atom_;
};

TEST(FramePipeline, AFrameWithoutTheBoxOfAPeriodicRunIsRefused) {
  const GasFile gas("boxless.h5", 100, 6);
  DamagedFrame reader(*gas.reader, 3);
  FrameJob job = gas_job(100);
  PipelineOptions options;
  options.frames = {0, 1, 2, 3, 4, 5};
  options.workers = frame_workers(false, 1);
  int delivered = 0;
  options.on_result = [&](const FrameResult&) { ++delivered; };
  const std::string message = test::refusal([&] { run_frame_pipeline(reader, job, options); });
  EXPECT_NE(
      message.find("frame: [3] has no periodic box, but the trajectory's first frame has one"),
      std::string::npos)
      << message;
  EXPECT_EQ(delivered, 3);
  job.periodic = false;  // plain distances: no box needed
  delivered = 0;
  run_frame_pipeline(reader, job, options);
  EXPECT_EQ(delivered, 6);
}

// Every worker counts a frame's sets only once its reader found them finite: a GPU worker takes
// their extent from the reader rather than from the device.
TEST(FramePipeline, AFrameWithANonFiniteCoordinateIsRefusedNamingTheAtom) {
  const GasFile gas("nan.h5", 100, 6);
  DamagedFrame reader(*gas.reader, 4, 7);
  const FrameJob job = gas_job(100);
  std::vector<std::vector<WorkerSpec>> workers = {frame_workers(false, 1)};
  if (!gpu_devices().empty()) workers.push_back(frame_workers(true, 0));
  for (const auto& w : workers) {
    PipelineOptions options;
    options.frames = {0, 1, 2, 3, 4, 5};
    options.workers = w;
    options.readers = 1;
    int delivered = 0;
    options.on_result = [&](const FrameResult&) { ++delivered; };
    const std::string message = test::refusal([&] { run_frame_pipeline(reader, job, options); });
    EXPECT_NE(message.find("frame: [4] atom 7 has a non-finite coordinate"), std::string::npos)
        << message;
    EXPECT_EQ(delivered, 4);
  }
}

TEST(FramePipeline, FramesAFailingDeviceDropsAreCountedOnceByTheHost) {
  const GasFile gas("failing.h5", 400, 16);
  io::TrajectoryReader& reader = *gas.reader;
  const FrameJob job = gas_job(400);
  const Totals reference = run(reader, job, frame_workers(false, 1));
  // A device failing its first five frames, and the host standing by for them.
  const Totals failing = run(reader, job, {WorkerSpec{WorkerKind::simulated_gpu, -1, 1, 5}});
  EXPECT_EQ(failing.counts, reference.counts);
  EXPECT_EQ(failing.seen, std::vector<int>(16, 1));
  EXPECT_EQ(failing.stats.device_failures, 5);
  EXPECT_EQ(failing.stats.frames_on_cpu, 5);
  EXPECT_EQ(failing.stats.frames_on_gpu, 11);
  // Two devices failing, one CPU worker beside them taking frames too.
  const Totals mixed =
      run(reader, job,
          {WorkerSpec{WorkerKind::simulated_gpu, -1, 1, 3},
           WorkerSpec{WorkerKind::simulated_gpu, -1, 1, 2}, frame_workers(false, 1).front()});
  EXPECT_EQ(mixed.counts, reference.counts);
  EXPECT_EQ(mixed.seen, std::vector<int>(16, 1));
  // A device fails as many frames as it tried, up to its own; the CPU worker may take them all.
  EXPECT_LE(mixed.stats.device_failures, 5);
}

// A stop raised where a frame is delivered (a signal, checked by the consumer) ends the run with
// nothing delivered after it; a second run over the frames not kept completes the first exactly.
TEST(FramePipeline, AStoppedRunResumesFromTheFramesItKept) {
  const GasFile gas("stop.h5", 300, 30);
  io::TrajectoryReader& reader = *gas.reader;
  const FrameJob job = gas_job(300);
  const Totals whole = run(reader, job, frame_workers(false, 1));
  for (auto workers : {frame_workers(false, 1), frame_workers(false, 3),
                       std::vector<WorkerSpec>{{WorkerKind::simulated_gpu, -1, 1, 2},
                                               {WorkerKind::simulated_gpu, -1, 1, 0}}}) {
    PipelineOptions options;
    for (std::int64_t f = 0; f < 30; ++f) options.frames.push_back(f);
    options.workers = workers;
    std::vector<std::uint64_t> counts(std::size_t(job.settings.n_bins), 0);
    std::vector<char> kept(30, 0);
    int delivered = 0;
    options.on_result = [&](const FrameResult& r) {
      if (delivered == 12) throw Interrupted(2, "stopped");
      ++delivered;
      kept[std::size_t(r.position)] = 1;
      for (std::size_t k = 0; k < counts.size(); ++k) counts[k] += r.counts[k];
    };
    EXPECT_THROW(run_frame_pipeline(reader, job, options), Interrupted);
    EXPECT_EQ(delivered, 12);
    options.skip = kept;
    options.on_result = [&](const FrameResult& r) {
      EXPECT_FALSE(kept[std::size_t(r.position)]) << "frame " << r.position << " counted twice";
      kept[std::size_t(r.position)] = 1;
      for (std::size_t k = 0; k < counts.size(); ++k) counts[k] += r.counts[k];
    };
    run_frame_pipeline(reader, job, options);
    EXPECT_EQ(kept, std::vector<char>(30, 1));
    EXPECT_EQ(counts, whole.counts) << workers.size() << " workers";
  }
}

}  // namespace
}  // namespace kmol
