#pragma once
// The state of a whole-trajectory run: counts summed exactly per interval of K frames, which
// frames are done, and each frame's 1/V. Saved atomically (temporary file, rename) to an HDF5
// file, so that a run killed at any moment and started again with the same options resumes from
// the last save and ends with exactly the counts of an uninterrupted run.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "drivers/library/frame_pipeline.hpp"

namespace kmol {

class RunState {
 public:
  // positions: frames to process; values: counts per frame (histograms x bins); interval: K.
  RunState(std::int64_t positions, std::int64_t values, std::int64_t interval,
           std::string fingerprint);

  void add(const FrameResult& result);

  std::int64_t positions() const { return std::int64_t(done_.size()); }
  std::int64_t frames_done() const;
  const std::vector<char>& done() const { return done_; }
  std::int64_t interval() const { return interval_; }
  std::int64_t n_intervals() const { return std::int64_t(sums_.size()); }
  const std::vector<std::uint64_t>& interval_counts(std::int64_t k) const { return sums_[k]; }
  std::vector<std::uint64_t> total() const;
  // Mean of 1/V over the done frames, summed in frame order (independent of the workers).
  double mean_inverse_volume() const;
  // The 1/V (1/area for distances in a plane) of the frame at `position`, 0 if not done.
  double inverse_volume(std::int64_t position) const { return inverse_volume_[position]; }

  // Combines the states of the ranks of an MPI job (drivers/library/cluster.hpp), each of which did
  // other frames, onto every rank: exact integer sums, each frame's 1/V from its own rank.
  void reduce_over_ranks();

  // The state of a run over the first `positions` frames where this one ran over the first
  // others: false when a frame done lies beyond them. A run stopped by a damaged frame resumes
  // with `--frames :N` this way.
  bool resize(std::int64_t positions);

  void save(const std::string& path) const;
  // The state saved at `path` if there is one; InputError when it belongs to other options.
  static std::optional<RunState> load(const std::string& path, const std::string& fingerprint);

 private:
  std::int64_t values_, interval_;
  std::string fingerprint_;
  std::vector<char> done_;
  std::vector<double> inverse_volume_;
  std::vector<std::vector<std::uint64_t>> sums_;
};

}  // namespace kmol
