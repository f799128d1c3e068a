#include "drivers/cli/trajectory_options.hpp"

#include <memory>

#include "drivers/cli/common_options.hpp"
#include "drivers/cli/option_checks.hpp"
#include "drivers/cli/progress_bar.hpp"
#include "drivers/library/cluster.hpp"

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
  add_precision_option(cmd, o.precision);
  add_threads_option(cmd, o.threads);
  cmd->add_option(
         "--workers", o.workers,
         "CPU workers pulling frames: one runs any implementation on all host threads, several "
         "run the host implementation side by side, sharing them")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--readers", o.readers,
                  "Reader threads decoding frames at once (XTC and H5MD; other formats read with "
                  "one). Default: 1 beside CPU workers; when GPUs count the frames, half the "
                  "host's cores, at most 8")
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

std::function<void(const PipelineProgress&)> progress_bar(const TrajectoryOptions& o) {
  auto bar = std::make_shared<ProgressBar>(!o.quiet && Cluster::root());
  return [bar](const PipelineProgress& progress) { bar->update(progress); };
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

}  // namespace kmol::cli
