#pragma once
// What `kmol rdf` and `kmol histograms` share: the trajectory and its topology, frame ranges,
// lengths with units, workers and devices, the resume state, and the progress bar.
#include <CLI/CLI.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "drivers/frame_pipeline.hpp"
#include "drivers/pool_options.hpp"
#include "drivers/run_state.hpp"
#include "drivers/selection.hpp"
#include "kmol/core/io/h5md_reader.hpp"
#include "kmol/core/io/topology.hpp"

namespace kmol::cli {

struct TrajectoryOptions {
  std::string trajectory, group, top;
  std::string frames = "::";
  std::string r_min = "0", r_max;
  std::int32_t bins = 200;
  std::int64_t interval = 100;
  std::string device = "auto", impl = "auto", precision = "single";
  int threads = -1, workers = 1;
  PoolOptions pool;  // --gpus N: one device worker per GPU on raw CUDA
  bool no_pbc = false, resume = false, quiet = false;
};

void add_trajectory_options(CLI::App* command, TrajectoryOptions& options,
                            std::int64_t default_interval);

// An opened trajectory with everything the options resolve to.
struct Trajectory {
  std::unique_ptr<io::H5mdReader> reader;
  std::unique_ptr<io::Topology> topology;  // null without --top
  AtomTable atoms;
  std::vector<std::int64_t> frames;  // file frames to process
  double r_min = 0, r_max = 0;       // Angstrom
  BoxSpec first_box;
};

Trajectory open_trajectory(const TrajectoryOptions& options);

// start:stop:step with Python's meaning (stop excluded, negatives count from the end), or one
// frame.
std::vector<std::int64_t> frame_list(const std::string& slice, std::int64_t n_frames);

// Refuses bin counts that are not positive or whose counts memory cannot hold (with the estimate).
void check_bins(std::int32_t bins, std::int64_t histograms, std::int64_t intervals, int workers);

// Residue or molecule index per atom, for --exclude-same.
const std::vector<std::int32_t>& grouping(const Trajectory& t, const std::string& kind);

// Workers from --device and --workers.
PipelineOptions pipeline_workers(const TrajectoryOptions& options);

// Loads (or creates) the resume state, honouring --resume; prints what is resumed.
RunState resume_or_start(const TrajectoryOptions& options, const std::string& state_path,
                         std::int64_t positions, std::int64_t values,
                         const std::string& fingerprint);

// Runs the pipeline, saving the state now and then and when it fails; shows progress on a terminal.
PipelineStats run_with_state(Trajectory& t, const FrameJob& job, PipelineOptions pipeline,
                             RunState& state, const std::string& state_path, bool quiet);

// The resume state's file for output `out` (one per rank under MPI: ranks do other frames).
std::string partial_state_path(const std::string& out);

// Under MPI: each rank takes every P-th frame and the ranks' states are combined at the end, so
// every rank returns with the whole run's state (rank 0 writes the outputs).
std::string describe_stats(const PipelineStats& stats, std::int64_t frames);

// Writes via `write(temporary)` next to `path` and renames; removes the temporary on failure.
void write_atomically(const std::string& path,
                      const std::function<void(const std::string&)>& write);

}  // namespace kmol::cli
