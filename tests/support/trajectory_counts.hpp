#pragma once
// Pair counts of every frame of a trajectory through the frame pipeline (two CPU workers), for
// tests that read the same frames from two formats: every third atom against the others, 160
// bins to 8 Angstrom; and their comparison.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "drivers/library/frame_pipeline.hpp"

namespace kmol::test {

inline std::vector<std::uint64_t> trajectory_counts(io::TrajectoryReader& reader) {
  FrameJob job;
  for (std::int64_t i = 0; i < reader.n_atoms(); ++i)
    (i % 3 == 0 ? job.atoms_b : job.atoms_a).push_back(i);
  job.settings.r_max = 8;
  job.settings.n_bins = 160;
  PipelineOptions options;
  for (std::int64_t f = 0; f < reader.n_frames(); ++f) options.frames.push_back(f);
  options.workers = frame_workers(false, 2);
  std::vector<std::uint64_t> total(std::size_t(job.settings.n_bins), 0);
  options.on_result = [&](const FrameResult& r) {
    for (std::size_t k = 0; k < total.size(); ++k) total[k] += r.counts[k];
  };
  run_frame_pipeline(reader, job, options);
  return total;
}

// Two readers of the same frames count the same pairs, and more than `at_least` of them (two
// empty histograms would agree whatever the readers did).
inline void expect_same_counts(io::TrajectoryReader& a, io::TrajectoryReader& b,
                               std::uint64_t at_least) {
  const std::vector<std::uint64_t> counts = trajectory_counts(a);
  EXPECT_EQ(counts, trajectory_counts(b));
  std::uint64_t pairs = 0;
  for (const std::uint64_t n : counts) pairs += n;
  EXPECT_GT(pairs, at_least);
}

}  // namespace kmol::test
