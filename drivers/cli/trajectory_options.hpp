#pragma once
// The options `kmol rdf` and `kmol histograms` share: the trajectory source, lengths with units,
// bins, workers and devices, resuming, and the progress bar.
#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "drivers/cli/pool_options.hpp"
#include "drivers/library/atomic_write.hpp"
#include "drivers/library/exclusion.hpp"
#include "drivers/library/frame_pipeline.hpp"
#include "drivers/library/result_check.hpp"
#include "drivers/library/resumable_run.hpp"
#include "drivers/library/selection.hpp"
#include "drivers/library/trajectory.hpp"
#include "kmol/core/preflight.hpp"

namespace kmol::cli {

struct TrajectoryOptions : TrajectorySource {
  std::int32_t bins = 200;
  std::int64_t interval = 100;
  std::string device = "auto", impl = "auto", precision = "single";
  int threads = -1, workers = 1;
  int readers = 0;   // 0: chosen by the workers (pipeline_workers)
  PoolOptions pool;  // --gpus N: one device worker per GPU on raw CUDA
  bool resume = false;
  bool allow_empty = false;  // an empty result is written with a warning instead of refused

  ResumePolicy resume_policy() const { return {resume, quiet, interval}; }
};

void add_trajectory_options(CLI::App* command, TrajectoryOptions& options,
                            std::int64_t default_interval);

// --begin, --end and --dt: frames by time (frame_list.hpp), for every trajectory command.
void add_time_options(CLI::App* command, std::string& begin, std::string& end, std::string& dt);

// --frames (alias --frame) and --begin/--end/--dt for a command that maps one frame (potential,
// surf, cc without --timeline); `what` says which inputs they apply to.
void add_one_frame_options(CLI::App* command, FrameChoice& choice, const std::string& what);

// The frame of `path` a one-frame command maps: frame 0 when the choice is empty.
std::int64_t one_frame(const std::string& path, const FrameChoice& choice,
                       const std::string& command);

// Refuses bin counts that are not positive or whose counts memory cannot hold (with the estimate).
void check_bins(std::int32_t bins, std::int64_t histograms, std::int64_t intervals, int workers);

// Workers from --device and --workers, readers from --readers, with a progress bar on a terminal
// unless --quiet. Several readers asked of a format that reads with one are refused.
PipelineOptions pipeline_workers(const TrajectoryOptions& options,
                                 const io::TrajectoryReader& reader);

// The preflight plan of a trajectory command: the trajectory and topology as inputs, and `out`
// (--out, backed up when it is the default on rank 0) as the first output; the command adds its
// others and calls preflight.
RunPlan trajectory_plan(const CLI::App& command, const TrajectoryOptions& options,
                        const std::string& out, std::vector<std::string> extensions, bool force);

// The pair-histogram settings every trajectory command takes from its options and trajectory.
void set_pair_settings(const TrajectoryOptions& options, const Trajectory& t, FrameJob& job);

// Identifies a run's counts: `command` (the command and its own options) with the file, its
// frames and atoms, and every shared option that changes a count. A saved partial run resumes
// only under the same fingerprint.
std::string run_fingerprint(const std::string& command, const TrajectoryOptions& options,
                            const Trajectory& t);

struct TrajectoryRun {
  RunState state;
  PipelineStats stats;
  std::string state_path;  // the partial state beside the output, removed once it is written
};

// Checks the bins of `histograms` histograms per frame, resumes the partial run saved beside `out`
// when it has this fingerprint, and runs the job over the trajectory's frames.
TrajectoryRun run_resumable(Trajectory& t, const FrameJob& job, const TrajectoryOptions& options,
                            std::int64_t histograms, const std::string& out,
                            const std::string& fingerprint);

// Checks the counts of a run before anything is written (check_pair_counts: none in range is
// refused unless --allow-empty), printing the warning of an empty result that is kept.
void check_counts(const TrajectoryOptions& options, const std::vector<std::uint64_t>& counts,
                  const Trajectory& t, std::int64_t pairs);

// The result options of a trajectory command: --rmin/--rmax, --allow-empty.
ResultOptions result_options(const TrajectoryOptions& options);

// One line on frames, rates, devices and the implementation, for the end of a run.
std::string describe_stats(const PipelineStats& stats, std::int64_t frames);

}  // namespace kmol::cli
