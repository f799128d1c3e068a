#include "drivers/library/resumable_run.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <optional>

#include "drivers/library/cluster.hpp"
#include "kmol/core/errors.hpp"
#include "kmol/core/stop.hpp"

namespace kmol {

RunState resume_or_start(const ResumePolicy& o, const std::string& state_path,
                         std::int64_t positions, std::int64_t values,
                         const std::string& fingerprint) {
  std::optional<RunState> saved;
  try {
    saved = RunState::load(state_path, fingerprint);
  } catch (const InputError& e) {
    // A partial run of other options (or a damaged one) is replaced, unless --resume asks for it.
    if (o.require_saved) throw;
    if (!o.quiet) fmt::print(stderr, "kmol: warning: {}; starting afresh\n", e.what());
  }
  if (o.require_saved) {
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
  // Runs over the first frames of one file share a fingerprint (run_fingerprint): the saved
  // frames are kept when they are among this run's.
  if (saved->positions() != positions && !saved->resize(positions))
    throw InputError({state_path, "", -1}, "saved state does not match the frames");
  if (!o.quiet)
    fmt::print(stderr, "kmol: resuming from {}: {} of {} frames already done\n", state_path,
               saved->frames_done(), positions);
  return std::move(*saved);
}

PipelineStats run_with_state(Trajectory& t, const FrameJob& job, PipelineOptions pipeline,
                             RunState& state, const std::string& state_path, bool quiet) {
  pipeline.frames = t.frames;
  pipeline.skip = state.done();
  // Under MPI each rank takes every P-th frame; the states are combined at the end.
  for (std::size_t p = 0; p < pipeline.skip.size(); ++p)
    if (std::int64_t(p) % Cluster::size() != Cluster::rank()) pipeline.skip[p] = 1;
  using Clock = std::chrono::steady_clock;
  auto last_save = Clock::now();
  double save_cost = 0;
  StopPoint stop;  // a signal stops between frames, with the state saved
  pipeline.on_result = [&](const FrameResult& r) {
    state.add(r);
    stop.check("the frames done are saved in " + state_path + "; resume with: " + command_line());
    // Saving costs time: at most every second, and no more than a tenth of the run.
    const double since = std::chrono::duration<double>(Clock::now() - last_save).count();
    if (since >= std::max(1.0, 10 * save_cost)) {
      const auto begin = Clock::now();
      state.save(state_path);
      last_save = Clock::now();
      save_cost = std::chrono::duration<double>(last_save - begin).count();
    }
  };
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

}  // namespace kmol
