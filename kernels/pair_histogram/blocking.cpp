#include "kernels/pair_histogram/blocking.hpp"

#include <cmath>
#include <stdexcept>

namespace kmol {
namespace {

struct Level {
  std::int64_t block = 1, n = 0;
  std::vector<double> se;
  double rms = 0;
};

Level level_of(const std::vector<std::vector<double>>& blocks, std::int64_t length) {
  Level out;
  out.block = length;
  out.n = std::int64_t(blocks.size());
  const std::size_t columns = blocks.front().size();
  out.se.assign(columns, 0);
  double sum_squares = 0;
  for (std::size_t k = 0; k < columns; ++k) {
    double mean = 0;
    for (const auto& b : blocks) mean += b[k];
    mean /= double(out.n);
    double variance = 0;
    for (const auto& b : blocks) variance += (b[k] - mean) * (b[k] - mean);
    variance /= double(out.n - 1);
    out.se[k] = std::sqrt(variance / double(out.n));
    sum_squares += out.se[k] * out.se[k];
  }
  out.rms = std::sqrt(sum_squares / double(columns));
  return out;
}

std::vector<std::vector<double>> pairs_averaged(const std::vector<std::vector<double>>& blocks) {
  std::vector<std::vector<double>> out;
  for (std::size_t i = 0; i + 1 < blocks.size(); i += 2) {
    std::vector<double> mean(blocks[i].size());
    for (std::size_t k = 0; k < mean.size(); ++k) mean[k] = 0.5 * (blocks[i][k] + blocks[i + 1][k]);
    out.push_back(std::move(mean));
  }
  return out;
}

}  // namespace

std::vector<double> standard_error_at(const std::vector<std::vector<double>>& series,
                                      std::int64_t block) {
  std::vector<std::vector<double>> blocks = series;
  for (std::int64_t length = 1; length < block; length *= 2) blocks = pairs_averaged(blocks);
  if (blocks.size() < 2) throw std::invalid_argument("blocking needs at least 2 blocks");
  return level_of(blocks, block).se;
}

BlockingResult blocking_standard_error(const std::vector<std::vector<double>>& series) {
  if (series.size() < 2) throw std::invalid_argument("blocking needs at least 2 blocks");
  std::vector<Level> levels;
  std::vector<std::vector<double>> blocks = series;
  for (std::int64_t length = 1; blocks.size() >= 2; length *= 2) {
    levels.push_back(level_of(blocks, length));
    blocks = pairs_averaged(blocks);
  }
  std::size_t usable = 0;  // levels with at least 4 blocks
  while (usable < levels.size() && levels[usable].n >= 4) ++usable;
  BlockingResult out;
  if (usable == 0) {
    // 2 or 3 blocks: their spread is all there is.
    out.standard_error = levels.front().se;
    out.n_blocks = levels.front().n;
    return out;
  }
  std::size_t chosen = usable - 1;
  for (std::size_t l = 0; l < usable; ++l) {
    const double tolerance = 2 * levels[l].rms / std::sqrt(2.0 * double(levels[l].n - 1));
    bool settled = true;
    for (std::size_t later = l + 1; later < usable; ++later)
      settled &= levels[later].rms <= levels[l].rms + tolerance;
    if (settled && l + 1 < usable) {
      chosen = l;
      out.converged = true;
      break;
    }
  }
  out.standard_error = levels[chosen].se;
  out.block = levels[chosen].block;
  out.n_blocks = levels[chosen].n;
  return out;
}

}  // namespace kmol
