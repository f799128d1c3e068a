#include "kernels/pair_histogram/rdf_blocks.hpp"

#include <stdexcept>

namespace kmol {

RdfBlockErrors rdf_block_errors(const RdfCountsSummary& whole, const std::vector<RdfBlock>& blocks,
                                const std::function<Rdf(const RdfCountsSummary&)>& normalise,
                                std::int64_t block) {
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
  if (block > 0) {
    out.blocking.standard_error = standard_error_at(g, block);
    out.blocking.block = block;
    out.blocking.n_blocks = std::int64_t(g.size()) / block;
    out.blocking.converged = true;
  } else {
    out.blocking = blocking_standard_error(g);
  }
  out.g_error = out.blocking.standard_error;
  // n(r) takes the block length chosen for g(r), so the two columns say the same thing.
  out.coordination_error = standard_error_at(coordination, out.blocking.block);
  return out;
}

std::vector<RdfBlock> merged_blocks(const std::vector<RdfBlock>& base, std::int64_t n) {
  if (n < 1 || std::int64_t(base.size()) < n)
    throw std::invalid_argument("merged_blocks: fewer base blocks than blocks");
  const std::size_t per = base.size() / std::size_t(n);
  std::vector<RdfBlock> out(static_cast<std::size_t>(n));
  for (std::size_t j = 0; j < out.size(); ++j) {
    RdfBlock& b = out[j];
    b.counts.assign(base.front().counts.size(), 0);
    for (std::size_t i = j * per; i < (j + 1) * per; ++i) {
      for (std::size_t k = 0; k < b.counts.size(); ++k) b.counts[k] += base[i].counts[k];
      b.frames += base[i].frames;
      b.inverse_volume_sum += base[i].inverse_volume_sum;
    }
  }
  return out;
}

}  // namespace kmol
