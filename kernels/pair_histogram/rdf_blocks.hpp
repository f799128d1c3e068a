#pragma once
// g(r) and n(r) per block of frames, and their standard errors per bin by blocking analysis
// (blocking.hpp) over the blocks of full length; a shorter last block is kept in the blocks but
// left out of the errors, whose blocks must weigh the same.
#include <cstdint>
#include <functional>
#include <vector>

#include "kernels/pair_histogram/blocking.hpp"
#include "kernels/pair_histogram/gr.hpp"

namespace kmol {

struct RdfBlock {
  std::vector<std::uint64_t> counts;  // the block's counts, summed over its frames
  std::int64_t frames = 0;
  double inverse_volume_sum = 0;  // sum of 1/V (1/area in a plane) over its frames
};

struct RdfBlockErrors {
  std::vector<Rdf> blocks;                          // each block normalised alone
  std::vector<double> g_error, coordination_error;  // standard errors of the whole run's g, n
  std::int64_t frames_per_block = 0;                // of the full blocks
  BlockingResult blocking;                          // the block length chosen (in blocks), ...
};

// `whole` gives the pairs and range; `normalise` turns one block's summary into its Rdf (kmol's
// or gmx's conventions, in the run's normalisation). At least two full blocks. `block` 0: the
// blocking analysis chooses the length; otherwise the errors come from blocks of `block` blocks
// (1: the blocks as given, each taken as independent).
RdfBlockErrors rdf_block_errors(const RdfCountsSummary& whole, const std::vector<RdfBlock>& blocks,
                                const std::function<Rdf(const RdfCountsSummary&)>& normalise,
                                std::int64_t block = 0);

// `n` blocks of equal length from consecutive base blocks (floor(base / n) each; the base blocks
// left over join none). At least n base blocks.
std::vector<RdfBlock> merged_blocks(const std::vector<RdfBlock>& base, std::int64_t n);

}  // namespace kmol
