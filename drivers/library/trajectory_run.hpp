#pragma once
// A whole-trajectory run of the pair-histogram family (kmol rdf, kmol histograms): its options
// (bins, partial sums, devices and workers, resuming), the frame pipeline's workers under the one
// device policy, the run over the frames resumed from a partial run saved beside the output, the
// check of its counts and a line on how it went. Refusals name the command's options.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "drivers/library/frame_pipeline.hpp"
#include "drivers/library/pool_options.hpp"
#include "drivers/library/result_check.hpp"
#include "drivers/library/resumable_run.hpp"
#include "drivers/library/trajectory.hpp"

namespace kmol {

struct TrajectoryRunOptions : TrajectorySource {
  std::int32_t bins = 200;
  std::int64_t interval = 100;  // frames per interval of partial sums
  std::string device = "auto", impl = "auto", precision = "single";
  int threads = -1, workers = 1;
  int readers = 0;   // 0: chosen by the workers (pipeline_workers)
  PoolOptions pool;  // --gpus N: one device worker per GPU on raw CUDA
  bool resume = false;
  bool allow_empty = false;  // an empty result is written with a warning instead of refused
  std::function<void(const PipelineProgress&)> on_progress;  // a progress bar, or nothing

  ResumePolicy resume_policy() const { return {resume, quiet, interval}; }
};

// Refuses bin counts that are not positive or whose counts memory cannot hold (with the estimate).
void check_bins(std::int32_t bins, std::int64_t histograms, std::int64_t intervals, int workers);

// Workers from --device (the device policy) and --workers, or the pool's from --gpus; readers from
// --readers. Several readers asked of a format that reads with one are refused.
PipelineOptions pipeline_workers(const TrajectoryRunOptions& options,
                                 const io::TrajectoryReader& reader);

// The pair-histogram settings every trajectory run takes from its options and trajectory.
void set_pair_settings(const TrajectoryRunOptions& options, const Trajectory& t, FrameJob& job);

// Identifies a run's counts: `command` (the command and its own options) with the file, its
// frames and atoms, and every shared option that changes a count. A saved partial run resumes
// only under the same fingerprint.
std::string run_fingerprint(const std::string& command, const TrajectoryRunOptions& options,
                            const Trajectory& t);

struct TrajectoryRun {
  RunState state;
  PipelineStats stats;
  std::string state_path;  // the partial state beside the output, removed once it is written
};

// Checks the bins of `histograms` histograms per frame, resumes the partial run saved beside `out`
// when it has this fingerprint, and runs the job over the trajectory's frames.
TrajectoryRun run_resumable(Trajectory& t, const FrameJob& job, const TrajectoryRunOptions& options,
                            std::int64_t histograms, const std::string& out,
                            const std::string& fingerprint);

// The result options of a trajectory run: --rmin/--rmax, --allow-empty.
ResultOptions result_options(const TrajectoryRunOptions& options, const Trajectory& t);

// Checks the counts of a run before anything is written (check_pair_counts: none in range is
// refused unless --allow-empty), printing the warning of an empty result that is kept.
void check_counts(const TrajectoryRunOptions& options, const std::vector<std::uint64_t>& counts,
                  const Trajectory& t, std::int64_t pairs);

// For the end of a run: a line on frames, rates, devices and the implementation, then one on
// each stage of a frame (read, convert, upload, count, reduce): mean microseconds and how busy.
std::string describe_stats(const PipelineStats& stats, std::int64_t frames);

}  // namespace kmol
