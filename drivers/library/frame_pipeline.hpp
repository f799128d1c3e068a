#pragma once
// The whole-trajectory pipeline:
//
//   reader threads --(bounded queue of frame slots)--> workers --(results)--> writer thread
//   (HDF5 hyperslab or XTC   one per GPU, plus      sums counts exactly,
//    decompression -> selections gathered   CPU workers            in any order
//    into page-locked buffers for GPUs)
//
// Readers take the next frame to read from a shared counter, so frames enter the queue roughly in
// order whatever each takes. Several readers need a format that decodes frames independently
// (TrajectoryReader::another_reader: XTC); otherwise one reads. A frame that cannot be read stops
// the readers from taking later frames, the frames before it are still read and counted, and the
// error ends the run as on one reader.
//
// Workers pull frames as they become free, so fast and slow workers share the load; near the end
// a CPU worker beside GPUs takes no frame that the GPUs would finish sooner. Counts are
// integers, so totals do not depend on how many workers ran or which frame each took; per-frame
// floating values (1/V) are kept per frame and summed in frame order by the caller.
//
// Several GPUs: one device worker per GPU (PipelineOptions::devices), each pulling frames.
//
// Kokkos 3.4's OpenMP backend dispatches only from the thread that initialised it, so CPU workers
// hand their kernel calls to the calling (main) thread, which runs them one at a time on all host
// threads; the workers' own threads overlap everything else (waiting, staging, bookkeeping).
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "drivers/library/worker_pool.hpp"
#include "kernels/pair_histogram/pair_histogram.hpp"
#include "kmol/core/io/trajectory_reader.hpp"
#include "kmol/core/precision.hpp"

namespace kmol {

// What every frame becomes: one pair-histogram call with fixed selections and labels.
struct FrameJob {
  std::vector<std::int64_t> atoms_a, atoms_b;  // indices into the file's atoms; b empty: one set
  std::vector<std::int32_t> species;           // per atom of A (partial histograms), or empty
  std::vector<std::int32_t> molecule_a, molecule_b;  // exclusion labels, or empty
  PairHistogramSettings settings;                    // settings.box is replaced by each frame's box
  bool periodic = true;  // false: plain distances, ignoring the file's box
  Precision precision = Precision::single;
};

struct FrameResult {
  std::int64_t position = 0;  // index among the frames to process
  std::int64_t frame = 0;     // index in the file
  double inverse_volume = 0;  // 1/V of the frame's box (0 without a box)
  std::vector<std::uint64_t> counts;
};

struct PipelineProgress {
  std::int64_t done = 0, total = 0;
  double seconds = 0;
};

struct PipelineOptions {
  std::vector<std::int64_t> frames;  // file frames, one per position
  std::vector<char> skip;            // per position: already done (resume); may be empty
  int readers = 1;  // reader threads; more than one only where the reader has another_reader()
  int cpu_workers = 1;
  int gpu_workers = 0;  // 0 or 1 (Kokkos 3.4 drives one GPU per process)
  // Device workers, one thread each running the raw implementations (worker_pool.hpp): GPUs
  // bound to their device and stream, or simulated ones. A frame whose device run fails (a CUDA
  // error, out of memory) is counted again by the host; the counts stay exact.
  std::vector<WorkerSpec> devices;
  std::function<void(const FrameResult&)> on_result;         // writer thread, completion order
  std::function<void(const PipelineProgress&)> on_progress;  // writer thread
};

struct PipelineStats {
  std::int64_t frames = 0, frames_on_cpu = 0, frames_on_gpu = 0;
  std::int64_t device_failures = 0;  // device runs that failed and were redone on the host
  int device_workers = 0;            // GPU (or simulated) workers that ran
  int readers = 1;                   // reader threads that ran
  double device_setup_seconds = 0;   // binding the device workers' GPUs, before the clock starts
  double wall_seconds = 0, gpu_busy_seconds = 0, cpu_busy_seconds = 0;
  double read_seconds = 0;   // summed over the reader threads
  std::string impl, launch;  // of the last frame
};

// Runs the job over the frames. On the first error anywhere (a damaged frame, say) the pipeline
// stops: results of frames finished before it have been delivered, and the error is rethrown.
PipelineStats run_frame_pipeline(io::TrajectoryReader& reader, const FrameJob& job,
                                 const PipelineOptions& options);

}  // namespace kmol
