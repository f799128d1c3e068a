#pragma once
// Standard errors of time averages by blocking (Flyvbjerg and Petersen, J. Chem. Phys. 91, 461
// (1989)): the base blocks are averaged in pairs, again and again; the standard error of the mean
// from blocks of each length grows while neighbouring blocks are correlated and levels off once
// they are not. The length chosen is the shortest whose estimate no longer block length exceeds
// by more than twice its own uncertainty, se / sqrt(2 (n - 1)) for n blocks, judged on
// the root mean square over the columns (the bins), with at least 4 blocks; where none qualifies
// the longest with 4 blocks is taken and the result marked unconverged.
#include <cstdint>
#include <vector>

namespace kmol {

struct BlockingResult {
  std::vector<double> standard_error;  // per column, of the mean over every base block
  std::int64_t block = 1;              // the chosen block length, in base blocks
  std::int64_t n_blocks = 0;           // blocks of that length
  bool converged = false;
};

// series[i][k]: column k of base block i, every block of equal weight. At least 2 blocks.
BlockingResult blocking_standard_error(const std::vector<std::vector<double>>& series);

// The standard error per column from blocks of `block` base blocks (a power of 2), as blocking
// computes it at that length; at least 2 such blocks.
std::vector<double> standard_error_at(const std::vector<std::vector<double>>& series,
                                      std::int64_t block);

}  // namespace kmol
