#pragma once
// The whole-trajectory pipeline:
//
//   reader threads --(frame slots)--> worker pool --(counts)--> writer thread
//   (HDF5 hyperslab or XTC             one unit per frame:       on_result, one frame at a
//    decompression -> selections       GPUs, CPU workers         time, while the workers
//    gathered into page-locked                                   count the next frames
//    buffers for GPUs)
//
// The workers are the worker pool's (worker_pool.hpp), the one scheduler of every multi-worker
// run: unit u is the u-th frame to process, and it waits for a reader to fill its slot. Readers
// take the next frame to read from a shared counter, so frames are read roughly in the order the
// pool hands them out whatever each takes. Several readers need a format that decodes frames
// independently (TrajectoryReader::another_reader: XTC); otherwise one reads. A frame that cannot
// be read stops the readers from taking later frames, the frames before it are still read and
// counted, and the error ends the run as on one reader.
//
// A frame that fails on a worker (a CUDA error, out of memory) is counted again by another, from
// the same slot; when every worker is a device, a host worker stands by for those frames. A frame
// that is bad input (a box too small for r_max) ends the run. Counts are integers and every
// implementation bins a pair alike, so totals do not depend on how many workers ran or which
// frame each took; per-frame floating values (1/V) are kept per frame and summed in frame order
// by the caller.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "drivers/library/centres.hpp"
#include "drivers/library/worker_pool.hpp"
#include "kernels/pair_histogram/pair_histogram.hpp"
#include "kmol/core/io/trajectory_reader.hpp"
#include "kmol/core/precision.hpp"

namespace kmol {

// The two sets whose pairs are counted, as a selection chooses them.
struct PairSets {
  std::vector<std::int64_t> atoms_a, atoms_b;  // indices into the file's atoms; b empty: one set
  // Centres of residues or molecules (centres.hpp) in place of atoms_a (atoms_b), computed from
  // each frame by its reader; null: the atoms themselves.
  std::shared_ptr<const SiteMap> sites_a, sites_b;
  std::vector<std::int32_t> molecule_a, molecule_b;  // exclusion labels (of sites), or empty

  // What each frame's sets hold: sites where there are, else atoms (b: 0 for one set).
  std::size_t size_a() const { return sites_a ? std::size_t(sites_a->size()) : atoms_a.size(); }
  std::size_t size_b() const { return sites_b ? std::size_t(sites_b->size()) : atoms_b.size(); }
};

// What every frame becomes: one pair-histogram call with fixed selections and labels.
struct FrameJob : PairSets {
  std::vector<std::int32_t> species;  // per atom of A (partial histograms), or empty
  PairHistogramSettings settings;     // settings.box is replaced by each frame's box
  bool periodic = true;               // false: plain distances, ignoring the file's box
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
  // The pool's workers (frame_workers() builds the usual ones). Portable workers run the job's
  // implementation choice (settings.impl) through Kokkos; the others their platform's raw one.
  std::vector<WorkerSpec> workers;
  std::function<void(const FrameResult&)> on_result;         // writer thread, completion order
  std::function<void(const PipelineProgress&)> on_progress;  // writer thread
};

struct PipelineStats {
  std::int64_t frames = 0, frames_on_cpu = 0, frames_on_gpu = 0;
  std::int64_t device_failures = 0;  // frames that failed on a worker and were redone by another
  int device_workers = 0;            // GPU (or simulated) workers that ran
  int readers = 1;                   // reader threads that ran
  double device_setup_seconds = 0;   // binding the device workers' GPUs, before the clock starts
  double wall_seconds = 0, gpu_busy_seconds = 0, cpu_busy_seconds = 0;
  // Each frame's stages, summed over the threads that ran them: reading from the file
  // (decompression included), converting (what the reader times apart: byte order, precision,
  // units, checks; and gathering the selections into the frame's slot), uploading (a portable
  // GPU worker whose implementation reads device memory: the frame copied there by the
  // pipeline), counting (the worker's pair-histogram call: on GPUs with the histogram's download,
  // and the upload where the implementation copies host arrays itself) and reducing (the writer:
  // adding the counts into their interval and saving the resumable state).
  double read_seconds = 0, convert_seconds = 0, upload_seconds = 0, reduce_seconds = 0;
  std::string impl, launch;  // of the last frame
};

// Workers for frames: `gpu` one portable worker on Kokkos's GPU; `cpu_workers` CPU workers: one
// portable worker on all host threads, or several sharing them, each on the host implementation.
std::vector<WorkerSpec> frame_workers(bool gpu, int cpu_workers);

// Runs the job over the frames. On the first error anywhere (a damaged frame, say) the pipeline
// stops: results of frames finished before it have been delivered, and the error is rethrown.
PipelineStats run_frame_pipeline(io::TrajectoryReader& reader, const FrameJob& job,
                                 const PipelineOptions& options);

}  // namespace kmol
