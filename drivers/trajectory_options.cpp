#include "drivers/trajectory_options.hpp"

#include <fmt/core.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>

#include "drivers/cluster.hpp"
#include "drivers/gpu_runtime.hpp"
#include "kmol/core/errors.hpp"
#include "kmol/core/io/units.hpp"
#include "kmol/core/runtime.hpp"

namespace kmol::cli {

void add_trajectory_options(CLI::App* cmd, TrajectoryOptions& o, std::int64_t default_interval) {
  o.interval = default_interval;
  cmd->add_option("trajectory", o.trajectory,
                  "H5MD trajectory (tools/convert-to-h5md converts others)")
      ->required();
  cmd->add_option("--group", o.group,
                  "Particle group in the H5MD file (default: the only one, or 'all')");
  cmd->add_option(
      "--top", o.top,
      "Topology with atom and residue names: PDB, GRO or PQR, atoms in trajectory order");
  cmd->add_option("--frames", o.frames,
                  "Frames start:stop:step (Python slice: stop excluded; default all)");
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
  cmd->add_option("--workers", o.workers,
                  "CPU workers pulling frames (their kernels share the host threads)")
      ->check(CLI::NonNegativeNumber);
  add_pool_options(cmd, o.pool, "frames");
  cmd->add_flag("--no-pbc", o.no_pbc, "Plain distances, ignoring the file's box");
  cmd->add_flag("--resume", o.resume,
                "Require a saved partial run to resume (the same command resumes anyway)");
  cmd->add_flag("--quiet", o.quiet, "No progress bar or summary");
}

std::vector<std::int64_t> frame_list(const std::string& slice, std::int64_t n) {
  auto fail = [&](const std::string& why) {
    throw InputError({"", "--frames", -1},
                     "'" + slice + "': " + why + " (expected start:stop:step or one frame)");
  };
  std::vector<std::string> parts{""};
  for (char c : slice) {
    if (c == ':')
      parts.emplace_back();
    else
      parts.back() += c;
  }
  if (parts.size() > 3) fail("too many ':'");
  std::vector<std::optional<std::int64_t>> v;
  for (const auto& p : parts) {
    if (p.empty()) {
      v.push_back(std::nullopt);
      continue;
    }
    char* end = nullptr;
    const long long x = std::strtoll(p.c_str(), &end, 10);
    if (*end != '\0') fail("'" + p + "' is not an integer");
    v.push_back(x);
  }
  auto wrap = [&](std::int64_t x) { return x < 0 ? x + n : x; };
  std::vector<std::int64_t> frames;
  if (parts.size() == 1) {
    if (!v[0]) fail("empty");
    const std::int64_t f = wrap(*v[0]);
    if (f < 0 || f >= n) fail("the file has " + std::to_string(n) + " frames");
    return {f};
  }
  const std::int64_t step = parts.size() == 3 && v[2] ? *v[2] : 1;
  if (step <= 0) fail("step must be positive");
  const std::int64_t start = std::clamp<std::int64_t>(v[0] ? wrap(*v[0]) : 0, 0, n);
  const std::int64_t stop = std::clamp<std::int64_t>(v[1] ? wrap(*v[1]) : n, 0, n);
  for (std::int64_t f = start; f < stop; f += step) frames.push_back(f);
  if (frames.empty()) fail("selects no frames of the " + std::to_string(n) + " in the file");
  return frames;
}

Trajectory open_trajectory(const TrajectoryOptions& o) {
  Trajectory t;
  t.reader = std::make_unique<io::H5mdReader>(o.trajectory, o.group);
  io::H5mdReader& r = *t.reader;
  if (!o.quiet)
    for (const auto& w : r.warnings()) fmt::print(stderr, "kmol: warning: {}\n", w);
  if (r.n_frames() == 0)
    throw InputError({o.trajectory, "position/value", -1}, "the trajectory has no frames");
  t.frames = frame_list(o.frames, r.n_frames());
  t.atoms.n_atoms = r.n_atoms();
  t.atoms.species = r.species();
  t.atoms.species_names = r.species_names();
  if (!o.top.empty()) {
    t.topology = std::make_unique<io::Topology>(io::read_topology(o.top));
    if (std::int64_t(t.topology->size()) != r.n_atoms())
      throw InputError({o.top, "", -1}, "has " + std::to_string(t.topology->size()) +
                                            " atoms, the trajectory " +
                                            std::to_string(r.n_atoms()));
    t.atoms.names = t.topology->names;
    t.atoms.resnames = t.topology->resnames;
    t.atoms.resids = t.topology->resids;
  }
  if (!o.no_pbc && r.box_kind() == BoxKind::none)
    throw InputError({o.trajectory, "particles/" + r.particle_group() + "/box", -1},
                     "the trajectory has no periodic box, but periodic distances are asked for "
                     "(use --no-pbc for "
                     "plain distances)");
  t.first_box = o.no_pbc ? BoxSpec::none() : r.frame_info(t.frames.front()).box;
  t.r_min = io::parse_length(o.r_min, "--rmin");
  if (o.r_max.empty()) {
    if (t.first_box.kind == BoxKind::none)
      throw InputError({"", "--rmax", -1}, "required without a periodic box");
    t.r_max = 0.999999 * inscribed_radius(validated(t.first_box));
  } else {
    t.r_max = io::parse_length(o.r_max, "--rmax");
  }
  if (!(t.r_max > t.r_min) || t.r_min < 0)
    throw InputError(
        {"", "--rmax", -1},
        fmt::format("must exceed --rmin ({} Angstrom) and --rmin must not be negative", t.r_min));
  if (t.first_box.kind != BoxKind::none) {
    const double limit = inscribed_radius(validated(t.first_box));
    if (t.r_max > limit)
      throw InputError(
          {o.trajectory, "--rmax", long(t.frames.front())},
          fmt::format(
              "{} Angstrom exceeds the radius of the largest sphere inside the box of this frame "
              "({:.6f} Angstrom), the limit of the minimum-image convention",
              t.r_max, limit));
  }
  return t;
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

const std::vector<std::int32_t>& grouping(const Trajectory& t, const std::string& kind) {
  if (!t.topology)
    throw InputError({"", "--exclude-same", -1},
                     kind + "s come from a topology: give one with --top (PDB, GRO or PQR)");
  return kind == "residue" ? t.topology->residues : t.topology->molecules;
}

PipelineOptions pipeline_workers(const TrajectoryOptions& o) {
  PipelineOptions p;
  if (o.pool.wanted()) {  // device workers (several GPUs)
    if (o.device == "cpu")
      throw InputError({"", "--gpus", -1},
                       "--gpus and --simulated-gpus need --device auto, gpu or all");
    p.devices = pool_workers(o.pool, 0, 0);
    p.cpu_workers = o.device == "all" ? std::max(1, o.workers) : 0;
    return p;
  }
  if (o.pool.inject_failures > 0)
    throw InputError({"", "--inject-failures", -1}, "needs --gpus or --simulated-gpus");
  const bool have_gpu = !gpu_devices().empty();
  if ((o.device == "gpu" || o.device == "all") && !have_gpu)
    throw UnsupportedError("--device " + o.device + ": no GPU (this build: " +
                           fmt::format("{}", fmt::join(enabled_backends(), ", ")) + ")");
  const bool gpu = o.device == "gpu" || o.device == "all" || (o.device == "auto" && have_gpu);
  const bool cpu = o.device == "cpu" || o.device == "all" || (o.device == "auto" && !have_gpu);
  p.gpu_workers = gpu ? 1 : 0;
  p.cpu_workers = cpu ? std::max(1, o.workers) : 0;
  return p;
}

RunState resume_or_start(const TrajectoryOptions& o, const std::string& state_path,
                         std::int64_t positions, std::int64_t values,
                         const std::string& fingerprint) {
  std::optional<RunState> saved;
  try {
    saved = RunState::load(state_path, fingerprint);
  } catch (const InputError& e) {
    // A partial run of other options (or a damaged one) is replaced, unless --resume asks for it.
    if (o.resume) throw;
    if (!o.quiet) fmt::print(stderr, "kmol: warning: {}; starting afresh\n", e.what());
  }
  if (o.resume) {
    // Under MPI a rank can be stopped before its first save while others saved: it starts
    // afresh. Only a job with nothing saved anywhere is refused.
    std::vector<char> saved_somewhere{char(saved ? 1 : 0)};
    Cluster::max(saved_somewhere);
    if (!saved_somewhere[0])
      throw InputError({state_path, "", -1}, "--resume: no saved partial run");
    if (!saved && !o.quiet)
      fmt::print(stderr, "kmol: {}: nothing saved by this rank; its frames start afresh\n",
                 state_path);
  }
  if (!saved) return RunState(positions, values, o.interval, fingerprint);
  if (saved->positions() != positions)
    throw InputError({state_path, "", -1}, "saved state does not match the frames");
  if (!o.quiet)
    fmt::print(stderr, "kmol: resuming from {}: {} of {} frames already done\n", state_path,
               saved->frames_done(), positions);
  return std::move(*saved);
}

namespace {

// A one-line progress bar with frames/s and the time left, redrawn at most 5 times a second.
class ProgressBar {
 public:
  explicit ProgressBar(bool enabled) : enabled_(enabled && isatty(STDERR_FILENO)) {}
  void update(const PipelineProgress& p) {
    if (!enabled_) return;
    if (p.done < p.total && p.seconds - last_ < 0.2) return;
    last_ = p.seconds;
    const int width = 30, filled = p.total > 0 ? int(width * p.done / p.total) : width;
    const double rate = p.seconds > 0 ? double(p.done - first_done(p)) / p.seconds : 0;
    const double left = rate > 0 ? double(p.total - p.done) / rate : 0;
    fmt::print(stderr, "\r[{}{}] {}/{} frames  {:.1f} frames/s  ETA {:.0f} s ",
               std::string(filled, '#'), std::string(width - filled, '.'), p.done, p.total, rate,
               left);
    if (p.done == p.total) fmt::print(stderr, "\n");
  }

 private:
  std::int64_t first_done(const PipelineProgress& p) {
    if (start_done_ < 0) start_done_ = p.done - 1;
    return start_done_;
  }
  bool enabled_;
  double last_ = -1;
  std::int64_t start_done_ = -1;
};

}  // namespace

PipelineStats run_with_state(Trajectory& t, const FrameJob& job, PipelineOptions pipeline,
                             RunState& state, const std::string& state_path, bool quiet) {
  pipeline.frames = t.frames;
  pipeline.skip = state.done();
  // Under MPI each rank takes every P-th frame; the states are combined at the end.
  for (std::size_t p = 0; p < pipeline.skip.size(); ++p)
    if (std::int64_t(p) % Cluster::size() != Cluster::rank()) pipeline.skip[p] = 1;
  ProgressBar bar(!quiet && Cluster::root());
  using Clock = std::chrono::steady_clock;
  auto last_save = Clock::now();
  double save_cost = 0;
  pipeline.on_result = [&](const FrameResult& r) {
    state.add(r);
    // Saving costs time: at most every second, and no more than a tenth of the run.
    const double since = std::chrono::duration<double>(Clock::now() - last_save).count();
    if (since >= std::max(1.0, 10 * save_cost)) {
      const auto begin = Clock::now();
      state.save(state_path);
      last_save = Clock::now();
      save_cost = std::chrono::duration<double>(last_save - begin).count();
    }
  };
  pipeline.on_progress = [&](const PipelineProgress& p) { bar.update(p); };
  try {
    const PipelineStats stats = run_frame_pipeline(*t.reader, job, pipeline);
    state.reduce_over_ranks();
    return stats;
  } catch (...) {
    if (state.frames_done() > 0) state.save(state_path);
    if (!quiet && state.frames_done() > 0)
      fmt::print(stderr, "\nkmol: {} frames done are saved in {}; the same command resumes\n",
                 state.frames_done(), state_path);
    throw;
  }
}

std::string partial_state_path(const std::string& out) {
  if (Cluster::size() <= 1) return out + ".kmol-partial.h5";
  return fmt::format("{}.kmol-partial.rank{}of{}.h5", out, Cluster::rank(), Cluster::size());
}

std::string describe_stats(const PipelineStats& s, std::int64_t frames) {
  std::string text = fmt::format(
      "{} frames in {:.3f} s ({:.1f} frames/s); reading {:.3f} s ({:.0f}% of wall time)", frames,
      s.wall_seconds, s.wall_seconds > 0 ? double(frames) / s.wall_seconds : 0, s.read_seconds,
      s.wall_seconds > 0 ? 100 * s.read_seconds / s.wall_seconds : 0);
  if (s.frames_on_gpu > 0)
    text += fmt::format("; {}: {} frames, busy {:.0f}% of wall time",
                        s.device_workers > 1 ? fmt::format("{} GPUs", s.device_workers) : "GPU",
                        s.frames_on_gpu,
                        100 * s.gpu_busy_seconds / std::max(1, s.device_workers) / s.wall_seconds);
  if (s.device_setup_seconds > 0.001)
    text += fmt::format(" (GPU setup before the first frame {:.2f} s)", s.device_setup_seconds);
  if (s.device_failures > 0)
    text += fmt::format("; {} frames redone on the host after device failures", s.device_failures);
  if (s.frames_on_cpu > 0) text += fmt::format("; CPU: {} frames", s.frames_on_cpu);
  return text + "; implementation " + s.impl + " (" + s.launch + ")";
}

void write_atomically(const std::string& path,
                      const std::function<void(const std::string&)>& write) {
  const std::string temporary = path + ".tmp-" + std::to_string(getpid());
  try {
    write(temporary);
  } catch (...) {
    std::remove(temporary.c_str());
    throw;
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    std::remove(temporary.c_str());
    throw InputError({path, "", -1}, "cannot write the output file");
  }
}

}  // namespace kmol::cli
