#include "kernels/pair_histogram/rdf_blocks.hpp"

#include <stdexcept>

namespace kmol {

RdfBlockErrors rdf_block_errors(const RdfCountsSummary& whole, const std::vector<RdfBlock>& blocks,
                                const std::function<Rdf(const RdfCountsSummary&)>& normalise) {
  RdfBlockErrors out;
  std::vector<std::vector<double>> g, coordination;
  out.frames_per_block = blocks.empty() ? 0 : blocks.front().frames;
  for (const RdfBlock& block : blocks) {
    RdfCountsSummary s = whole;
    s.counts = block.counts;
    s.frames = block.frames;
    s.mean_inverse_volume = block.frames > 0 ? block.inverse_volume_sum / double(block.frames) : 0;
    out.blocks.push_back(normalise(s));
    if (block.frames != out.frames_per_block) continue;
    g.push_back(out.blocks.back().g);
    coordination.push_back(out.blocks.back().coordination);
  }
  if (g.size() < 2) throw std::invalid_argument("block errors need at least two full blocks");
  out.blocking = blocking_standard_error(g);
  out.g_error = out.blocking.standard_error;
  // n(r) takes the block length chosen for g(r), so the two columns say the same thing.
  out.coordination_error = standard_error_at(coordination, out.blocking.block);
  return out;
}

}  // namespace kmol
