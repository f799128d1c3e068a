#include "drivers/library/trajectory_run.hpp"

#include <fmt/core.h>
#include <unistd.h>

#include <algorithm>

#include "drivers/library/device_policy.hpp"
#include "kmol/core/errors.hpp"

namespace kmol {

void check_bins(std::int32_t bins, std::int64_t histograms, std::int64_t intervals, int workers) {
  if (bins <= 0)
    throw InputError({"", "--bins", -1}, "must be positive, not " + std::to_string(bins));
  const double bytes =
      8.0 * double(bins) * double(histograms) * double(intervals + 2 * workers + 4);
  const double memory = double(sysconf(_SC_PHYS_PAGES)) * double(sysconf(_SC_PAGE_SIZE));
  if (bins > HistogramRange<double>::max_bins || bytes > 0.5 * memory)
    throw InputError(
        {"", "--bins", -1},
        fmt::format(
            "{} bins: the counts would need about {:.3g} GB ({} histograms x {} bins x 8 bytes x "
            "{} copies) of this machine's {:.3g} GB, and one histogram holds at most {} bins",
            bins, bytes * 1e-9, histograms, bins, intervals + 2 * workers + 4, memory * 1e-9,
            HistogramRange<double>::max_bins));
}

namespace {

// --gpus and --simulated-gpus: a raw worker per device (and CPU workers with --device all);
// otherwise --device picks Kokkos's GPU and CPU workers.
PipelineOptions workers_for(const TrajectoryRunOptions& o) {
  PipelineOptions p;
  p.on_progress = o.on_progress;
  if (o.pool.wanted()) {
    if (o.device == "cpu")
      throw InputError({"", "--gpus", -1},
                       "--gpus and --simulated-gpus need --device auto, gpu or all");
    p.workers = pool_workers(o.pool, 0, 0);
    if (o.device == "all")
      for (const WorkerSpec& w : frame_workers(false, std::max(1, o.workers)))
        p.workers.push_back(w);
    return p;
  }
  if (o.pool.inject_failures > 0)
    throw InputError({"", "--inject-failures", -1}, "needs --gpus or --simulated-gpus");
  const DevicePlan devices = plan_devices(device_policy_from_string(o.device));
  p.workers = frame_workers(devices.gpu, devices.cpu ? std::max(1, o.workers) : 0);
  return p;
}

// Reading frames is what limits a GPU (a frame's pairs take a fraction of decompressing an XTC
// frame or reading an H5MD one), so GPU runs read on several threads: half the host's cores, the
// rest left to the GPU threads, the writer and the library's own threads, and at most 8 (more
// take cores the GPU threads need: 16 readers on 16 cores read XTC slower than 8). Beside CPU
// workers one reader keeps up with the kernels.
int gpu_readers() { return std::clamp(int(sysconf(_SC_NPROCESSORS_ONLN)) / 2, 1, 8); }

}  // namespace

PipelineOptions pipeline_workers(const TrajectoryRunOptions& o,
                                 const io::TrajectoryReader& reader) {
  PipelineOptions p = workers_for(o);
  const bool parallel = reader.another_reader() != nullptr;
  if (o.readers > 1 && !parallel)
    throw InputError({reader.path(), "--readers", -1},
                     "several readers need GROMACS XTC or an H5MD file; this is " +
                         reader.description() + ", read in order by one");
  bool gpus = false;
  for (const WorkerSpec& w : p.workers) gpus = gpus || w.kind != WorkerKind::cpu;
  p.readers = o.readers > 0 ? o.readers : parallel && gpus ? gpu_readers() : 1;
  return p;
}

void set_pair_settings(const TrajectoryRunOptions& o, const Trajectory& t, FrameJob& job) {
  job.settings.r_min = t.r_min;
  job.settings.r_max = t.r_max;
  job.settings.n_bins = o.bins;
  job.settings.impl = pair_histogram_impl_from_string(o.impl);
  job.periodic = !o.no_pbc;
  job.precision = o.precision == "double" ? Precision::double_ : Precision::single;
}

namespace {

// The --frames slice as the fingerprint names it: every run over the first frames of the file
// (all of them, or `--frames :N` after a damaged frame N) is "first", so that one resumes the
// frames another saved.
std::string slice_of(const TrajectoryRunOptions& o, const Trajectory& t) {
  for (std::size_t p = 0; p < t.frames.size(); ++p)
    if (t.frames[p] != std::int64_t(p)) return o.frame_choice().describe();
  return "first";
}

}  // namespace

std::string run_fingerprint(const std::string& command, const TrajectoryRunOptions& o,
                            const Trajectory& t) {
  return fmt::format(
      "{} {} frames={} atoms={} group={} top={} slice={} rmin={} rmax={} bins={} interval={} "
      "precision={} pbc={}",
      command, t.reader->path(), t.reader->n_frames(), t.reader->n_atoms(), t.reader->description(),
      o.top, slice_of(o, t), t.r_min, t.r_max, o.bins, o.interval, o.precision, !o.no_pbc);
}

TrajectoryRun run_resumable(Trajectory& t, const FrameJob& job, const TrajectoryRunOptions& o,
                            std::int64_t histograms, const std::string& out,
                            const std::string& fingerprint) {
  const PipelineOptions workers = pipeline_workers(o, *t.reader);
  const std::int64_t positions = std::int64_t(t.frames.size());
  const std::int32_t bins = job.settings.n_bins;
  check_bins(bins, histograms, (positions + o.interval - 1) / o.interval,
             int(workers.workers.size()));
  std::string state_path = partial_state_path(out);
  RunState state =
      resume_or_start(o.resume_policy(), state_path, positions, histograms * bins, fingerprint);
  const PipelineStats stats = run_with_state(t, job, workers, state, state_path, o.quiet);
  return {std::move(state), stats, std::move(state_path)};
}

ResultOptions result_options(const TrajectoryRunOptions& o, const Trajectory& t) {
  ResultOptions r;
  r.allow_empty = o.allow_empty;
  r.input = t.reader->path();
  r.range_origin = t.r_max_origin;
  return r;
}

void check_counts(const TrajectoryRunOptions& o, const std::vector<std::uint64_t>& counts,
                  const Trajectory& t, std::int64_t pairs) {
  const std::string warning =
      check_pair_counts(counts, t.r_min, t.r_max, pairs, result_options(o, t));
  if (!warning.empty()) fmt::print(stderr, "kmol: warning: {}\n", warning);
}

namespace {

// Each stage's mean microseconds of work per frame, and how busy the threads that run it were:
// the stage whose threads are busy near 100% sets the rate.
std::string describe_stages(const PipelineStats& s) {
  if (s.frames <= 0 || s.wall_seconds <= 0) return "";
  const double per_frame = 1e6 / double(s.frames);
  const auto busy = [&](double seconds, int threads) {
    return 100 * seconds / (s.wall_seconds * std::max(1, threads));
  };
  std::string text = fmt::format(
      "\nstages per frame: read {:.1f} us ({} reader{}, busy {:.0f}%), convert {:.1f} us (busy "
      "{:.0f}%), ",
      s.read_seconds * per_frame, s.readers, s.readers > 1 ? "s" : "",
      busy(s.read_seconds, s.readers), s.convert_seconds * per_frame,
      busy(s.convert_seconds, s.readers));
  if (s.upload_seconds > 0)
    text += fmt::format("upload {:.1f} us (GPU busy {:.0f}%), ", s.upload_seconds * per_frame,
                        busy(s.upload_seconds, s.device_workers));
  else if (s.frames_on_gpu > 0)
    text += "upload (in count: the implementation copies each frame itself), ";
  else
    text += "upload 0.0 us (CPU workers count from host memory), ";
  text += fmt::format("count {:.1f} us (", (s.gpu_busy_seconds + s.cpu_busy_seconds) * per_frame);
  if (s.frames_on_gpu > 0)
    text += fmt::format("GPU busy {:.0f}%", busy(s.gpu_busy_seconds, s.device_workers));
  if (s.frames_on_gpu > 0 && s.frames_on_cpu > 0) text += ", ";
  if (s.frames_on_cpu > 0)
    text += fmt::format("CPU workers {:.0f}% of wall time", busy(s.cpu_busy_seconds, 1));
  return text + fmt::format("), reduce {:.1f} us (writer busy {:.0f}%)",
                            s.reduce_seconds * per_frame, busy(s.reduce_seconds, 1));
}

}  // namespace

std::string describe_stats(const PipelineStats& s, std::int64_t frames) {
  // Reading's share of the readers' time (converting included): near 100% when they limit the
  // rate.
  const double reader_seconds = s.wall_seconds * std::max(1, s.readers);
  const double reading = s.read_seconds + s.convert_seconds;
  std::string text = fmt::format(
      "{} frames in {:.3f} s ({:.1f} frames/s); reading {:.3f} s{} ({:.0f}% of wall time)", frames,
      s.wall_seconds, s.wall_seconds > 0 ? double(frames) / s.wall_seconds : 0, reading,
      s.readers > 1 ? fmt::format(" on {} threads", s.readers) : "",
      reader_seconds > 0 ? 100 * reading / reader_seconds : 0);
  if (s.frames_on_gpu > 0)
    text += fmt::format("; {}: {} frames, busy {:.0f}% of wall time",
                        s.device_workers > 1 ? fmt::format("{} GPUs", s.device_workers) : "GPU",
                        s.frames_on_gpu,
                        100 * s.gpu_busy_seconds / std::max(1, s.device_workers) / s.wall_seconds);
  if (s.device_setup_seconds > 0.001)
    text += fmt::format(" (GPU setup before the first frame {:.2f} s)", s.device_setup_seconds);
  if (s.device_failures > 0)
    text += fmt::format("; {} frames redone by another worker after failures", s.device_failures);
  if (s.frames_on_cpu > 0) text += fmt::format("; CPU: {} frames", s.frames_on_cpu);
  return text + "; implementation " + s.impl + " (" + s.launch + ")" + describe_stages(s);
}

}  // namespace kmol
