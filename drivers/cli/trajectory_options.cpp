#include "drivers/cli/trajectory_options.hpp"

#include <fmt/core.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <memory>

#include "drivers/cli/option_checks.hpp"
#include "drivers/cli/progress_bar.hpp"
#include "drivers/library/cluster.hpp"
#include "drivers/library/device_policy.hpp"
#include "drivers/library/gpu_runtime.hpp"
#include "kmol/core/errors.hpp"
#include "kmol/core/runtime.hpp"

namespace kmol::cli {

void add_trajectory_options(CLI::App* cmd, TrajectoryOptions& o, std::int64_t default_interval) {
  o.interval = default_interval;
  cmd->add_option("trajectory", o.trajectory,
                  "Trajectory: H5MD, GROMACS XTC, TRR or TNG, or AMBER NetCDF (told by content)")
      ->required();
  cmd->add_option("--group", o.group,
                  "Particle group in the H5MD file (default: the only one, or 'all')");
  cmd->add_option(
      "--top", o.top,
      "Topology, atoms in trajectory order: TPR (names, molecules, charges, masses), PDB, GRO "
      "or PQR");
  cmd->add_option("--frames", o.frames,
                  "Frames start:stop:step (Python slice: stop excluded, negatives count from the "
                  "end; default all)");
  add_time_options(cmd, o.begin, o.end, o.dt);
  cmd->add_option("--rmin", o.r_min, "Smallest distance binned (Angstrom; or 0.1nm, 100pm)");
  cmd->add_option("--rmax", o.r_max,
                  "Largest distance binned (Angstrom; or 1.2nm); default: the first box's limit");
  cmd->add_option("--bins", o.bins, "Number of bins");
  cmd->add_option("--interval", o.interval,
                  "Partial sums are kept per interval of this many frames")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--device", o.device,
                  "auto (GPU if there is one), cpu, gpu or all (GPU and CPU workers)")
      ->check(CLI::IsMember({"auto", "cpu", "gpu", "all"}));
  cmd->add_option("--impl", o.impl,
                  "Pair-histogram implementation: auto, kokkos, host, cuda or cells");
  cmd->add_option("--precision", o.precision, "single or double")
      ->check(CLI::IsMember({"single", "double"}));
  cmd->add_option("--threads", o.threads, "Host threads (default: all cores)");
  cmd->add_option(
         "--workers", o.workers,
         "CPU workers pulling frames: one runs any implementation on all host threads, several "
         "run the host implementation side by side, sharing them")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--readers", o.readers,
                  "Reader threads decoding frames at once (XTC; other formats read with one). "
                  "Default: 1 beside CPU workers, 4 when GPUs count the frames")
      ->check(CLI::PositiveNumber);
  add_pool_options(cmd, o.pool, "frames");
  cmd->add_flag("--no-pbc", o.no_pbc, "Plain distances, ignoring the file's box");
  cmd->add_flag("--resume", o.resume,
                "Require a saved partial run to resume (the same command resumes anyway)");
  cmd->add_flag("--quiet", o.quiet, "No progress bar or summary");
  cmd->add_flag("--allow-empty", o.allow_empty,
                "Write a result with no pair in range (a warning) instead of refusing it");
}

void add_time_options(CLI::App* cmd, std::string& begin, std::string& end, std::string& dt) {
  cmd->add_option("--begin", begin,
                  "First time to read, as gmx -b (the file's time unit: ps for GROMACS files)");
  cmd->add_option("--end", end, "Last time to read, as gmx -e (inclusive)");
  cmd->add_option("--dt", dt,
                  "Only frames whose time from the first frame is a multiple of this, as gmx -dt");
}

void add_one_frame_options(CLI::App* cmd, FrameChoice& choice, const std::string& what) {
  cmd->add_option("--frames,--frame", choice.frames,
                  what + ": the frame to map, 0-based; -1 is the last");
  add_time_options(cmd, choice.begin, choice.end, choice.dt);
}

std::int64_t one_frame(const std::string& path, const FrameChoice& choice,
                       const std::string& command) {
  if (choice.frames.empty() && !choice.by_time()) return 0;
  const auto reader = io::open_trajectory_file(path);
  return choose_one_frame(choice, *reader, command);
}

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
PipelineOptions workers_for(const TrajectoryOptions& o) {
  PipelineOptions p;
  auto bar = std::make_shared<ProgressBar>(!o.quiet && Cluster::root());
  p.on_progress = [bar](const PipelineProgress& progress) { bar->update(progress); };
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

// Decompressing XTC is what limits a GPU (a frame's pairs take a fraction of its decoding), so GPU
// runs decode on several threads; beside CPU workers one reader keeps up with the kernels.
constexpr int gpu_readers = 4;

}  // namespace

PipelineOptions pipeline_workers(const TrajectoryOptions& o, const io::TrajectoryReader& reader) {
  PipelineOptions p = workers_for(o);
  const bool parallel = reader.another_reader() != nullptr;
  if (o.readers > 1 && !parallel)
    throw InputError({reader.path(), "--readers", -1},
                     "several readers need GROMACS XTC; this is " + reader.description() +
                         ", read in order by one");
  bool gpus = false;
  for (const WorkerSpec& w : p.workers) gpus = gpus || w.kind != WorkerKind::cpu;
  p.readers = o.readers > 0 ? o.readers : parallel && gpus ? gpu_readers : 1;
  return p;
}

RunPlan trajectory_plan(const CLI::App& cmd, const TrajectoryOptions& o, const std::string& out,
                        std::vector<std::string> extensions, bool force) {
  RunPlan plan;
  plan.outputs.push_back(
      {out, "--out", std::move(extensions), 0, !given(cmd, "--out") && Cluster::root()});
  plan.inputs = {o.trajectory, o.top};
  plan.force = force;
  return plan;
}

void set_pair_settings(const TrajectoryOptions& o, const Trajectory& t, FrameJob& job) {
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
std::string slice_of(const TrajectoryOptions& o, const Trajectory& t) {
  for (std::size_t p = 0; p < t.frames.size(); ++p)
    if (t.frames[p] != std::int64_t(p)) return o.frame_choice().describe();
  return "first";
}

}  // namespace

std::string run_fingerprint(const std::string& command, const TrajectoryOptions& o,
                            const Trajectory& t) {
  return fmt::format(
      "{} {} frames={} atoms={} group={} top={} slice={} rmin={} rmax={} bins={} interval={} "
      "precision={} pbc={}",
      command, t.reader->path(), t.reader->n_frames(), t.reader->n_atoms(), t.reader->description(),
      o.top, slice_of(o, t), t.r_min, t.r_max, o.bins, o.interval, o.precision, !o.no_pbc);
}

TrajectoryRun run_resumable(Trajectory& t, const FrameJob& job, const TrajectoryOptions& o,
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

ResultOptions result_options(const TrajectoryOptions& o) {
  ResultOptions r;
  r.allow_empty = o.allow_empty;
  return r;
}

void check_counts(const TrajectoryOptions& o, const std::vector<std::uint64_t>& counts,
                  const Trajectory& t, std::int64_t pairs) {
  const std::string warning = check_pair_counts(counts, t.r_min, t.r_max, pairs, result_options(o));
  if (!warning.empty()) fmt::print(stderr, "kmol: warning: {}\n", warning);
}

std::string describe_stats(const PipelineStats& s, std::int64_t frames) {
  // Reading's share of the readers' time: near 100% when they limit the rate.
  const double reader_seconds = s.wall_seconds * std::max(1, s.readers);
  std::string text = fmt::format(
      "{} frames in {:.3f} s ({:.1f} frames/s); reading {:.3f} s{} ({:.0f}% of wall time)", frames,
      s.wall_seconds, s.wall_seconds > 0 ? double(frames) / s.wall_seconds : 0, s.read_seconds,
      s.readers > 1 ? fmt::format(" on {} threads", s.readers) : "",
      reader_seconds > 0 ? 100 * s.read_seconds / reader_seconds : 0);
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
  return text + "; implementation " + s.impl + " (" + s.launch + ")";
}

}  // namespace kmol::cli
