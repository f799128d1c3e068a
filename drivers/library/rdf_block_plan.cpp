#include "drivers/library/rdf_block_plan.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cstdlib>

#include "kmol/core/errors.hpp"

namespace kmol {

// Base blocks of auto: at most this many, so that the run state stays small.
constexpr std::int64_t most_base_blocks = 1024;

BlockPlan plan_blocks(const std::string& text, std::int64_t frames, const std::string& path,
                      const std::string& option) {
  BlockPlan plan;
  if (text == "auto") {
    if (frames < 2)
      throw InputError({path, option, -1},
                       fmt::format("auto needs at least 2 frames; the run reads {}", frames));
    plan.frames_per_block = (frames + most_base_blocks - 1) / most_base_blocks;
    return plan;
  }
  char* end = nullptr;
  const long long n = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || n < 2)
    throw InputError({"", option, -1},
                     fmt::format("'{}' is no number of blocks: give 2 or more (a standard error "
                                 "needs two), or auto",
                                 text));
  if (n > frames)
    throw InputError({path, option, -1},
                     fmt::format("{} blocks of frames need at least {} frames, and the run reads "
                                 "{} (--frames, --begin, --end and --dt choose them): give at "
                                 "most --blocks {}",
                                 n, n, frames, frames));
  plan.requested = n;
  plan.frames_per_block = frames / n;
  return plan;
}

std::vector<RdfBlock> interval_blocks(const RunState& state) {
  std::vector<RdfBlock> blocks;
  for (std::int64_t k = 0; k < state.n_intervals(); ++k) {
    RdfBlock b;
    b.counts = state.interval_counts(k);
    const std::int64_t last = std::min(state.positions(), (k + 1) * state.interval());
    for (std::int64_t p = k * state.interval(); p < last; ++p) {
      b.frames += state.done()[std::size_t(p)];
      b.inverse_volume_sum += state.inverse_volume(p);
    }
    blocks.push_back(std::move(b));
  }
  return blocks;
}

std::string describe_blocks(const RdfBlockErrors& errors, const BlockPlan& plan) {
  const std::string how =
      plan.requested > 0
          ? "the standard error of the mean of the blocks"
          : fmt::format("blocking analysis chose {} of them a block ({} frames){}",
                        errors.blocking.block, errors.blocking.block * errors.frames_per_block,
                        errors.blocking.converged ? "" : ", not converged: the errors are too low");
  return fmt::format("blocks: {} of {} frames; errors: {}", errors.blocks.size(),
                     errors.frames_per_block, how);
}

}  // namespace kmol
