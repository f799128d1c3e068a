#pragma once
// A whole-trajectory run that survives being stopped: the frame pipeline feeding a RunState that
// is saved now and then and when the run fails, and found again by the same command.
#include <cstdint>
#include <functional>
#include <string>

#include "drivers/library/frame_pipeline.hpp"
#include "drivers/library/run_state.hpp"
#include "drivers/library/trajectory.hpp"

namespace kmol {

struct ResumePolicy {
  bool require_saved = false;   // refuse to start when nothing was saved (--resume)
  bool quiet = false;           // no notes on stderr
  std::int64_t interval = 100;  // frames per interval of partial sums
};

// The saved state at `state_path` if it belongs to this fingerprint, else a fresh one (a state of
// other options is replaced unless the policy requires a saved one).
RunState resume_or_start(const ResumePolicy& policy, const std::string& state_path,
                         std::int64_t positions, std::int64_t values,
                         const std::string& fingerprint);

// Runs the pipeline, saving the state now and then and when it fails. Under MPI each rank takes
// every P-th frame and the ranks' states are combined at the end, so every rank returns with the
// whole run's state.
PipelineStats run_with_state(Trajectory& t, const FrameJob& job, PipelineOptions pipeline,
                             RunState& state, const std::string& state_path, bool quiet);

// The resume state's file for output `out` (one per rank under MPI: ranks do other frames).
std::string partial_state_path(const std::string& out);

}  // namespace kmol
