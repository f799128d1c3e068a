#pragma once
// Blocks of frames for a trajectory run's standard errors (kmol rdf --blocks): each block is an
// interval of the run state (its counts and 1/V summed exactly), so that a resumed run has the
// same blocks.
//   N     N blocks of floor(F / N) consecutive frames of the F the run reads; the F mod N frames
//         left over count in g(r) and in no block; the errors are those of the mean of N
//         independent blocks.
//   auto  base blocks of ceil(F / 1024) frames (single frames up to 1024 frames); blocking
//         analysis (kernels/pair_histogram/blocking.hpp) chooses how many of them make a block.
#include <cstdint>
#include <string>
#include <vector>

#include "drivers/library/run_state.hpp"
#include "kernels/pair_histogram/rdf_blocks.hpp"

namespace kmol {

struct BlockPlan {
  std::int64_t requested = 0;         // N, or 0: blocking chooses
  std::int64_t frames_per_block = 0;  // of the base blocks: the run's interval
};

// Refuses anything but an integer of at least 2 or "auto" (InputError naming `option`), and more
// blocks than the run's frames (naming `path` too).
BlockPlan plan_blocks(const std::string& text, std::int64_t frames, const std::string& path,
                      const std::string& option);

// The run state's intervals as base blocks.
std::vector<RdfBlock> interval_blocks(const RunState& state);

// "blocks: ..." for the outputs' headers: how many, of how many frames, and the errors' block.
std::string describe_blocks(const RdfBlockErrors& errors, const BlockPlan& plan);

}  // namespace kmol
