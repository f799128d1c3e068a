#pragma once
// The options `kmol rdf` and `kmol histograms` share (the library's TrajectoryRunOptions, in
// drivers/library/trajectory_run.hpp): the trajectory source, lengths with units, bins, workers
// and devices, resuming, and the progress bar.
#include <CLI/CLI.hpp>

#include <cstdint>
#include <functional>
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
#include "drivers/library/trajectory_run.hpp"
#include "kmol/core/preflight.hpp"

namespace kmol::cli {

using TrajectoryOptions = TrajectoryRunOptions;

void add_trajectory_options(CLI::App* command, TrajectoryOptions& options,
                            std::int64_t default_interval);

// A progress bar on a terminal, on rank 0, unless --quiet.
std::function<void(const PipelineProgress&)> progress_bar(const TrajectoryOptions& options);

// The preflight plan of a trajectory command: the trajectory and topology as inputs, and `out`
// (--out, backed up when it is the default on rank 0) as the first output; the command adds its
// others and calls preflight.
RunPlan trajectory_plan(const CLI::App& command, const TrajectoryOptions& options,
                        const std::string& out, std::vector<std::string> extensions, bool force);

}  // namespace kmol::cli
