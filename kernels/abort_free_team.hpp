#pragma once
// Team building blocks whose device code cannot abort. On CUDA the first launch in a process of
// a kernel that can abort (one that calls __assertfail) blocks the host for 3-4 ms, more than a
// one-shot cell sort and count of a million atoms takes on an H200 (docs/study.md, "Scale
// curve"). Kokkos 3.4 puts such calls in its scans (RangePolicy parallel_scan, team_scan,
// TeamThreadRange parallel_scan) and in every View constructed from extents in device code
// (the run-time rank check), so kernels on a one-shot path take these instead.
#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstdint>

#include "kmol/core/math.hpp"

namespace kmol {

// A View of n values in the team's level-0 scratch, made from its layout: the constructor that
// takes extents carries the rank check.
template <class ScratchView, class Member>
KOKKOS_INLINE_FUNCTION ScratchView team_scratch_view(const Member& team, std::size_t n) {
  return ScratchView(team.team_scratch(0), typename ScratchView::array_layout(n));
}

// values[0..n) replaced by their inclusive prefix sums by the whole team (Hillis-Steele over
// team-sized chunks, each carrying the total of the ones before). Every thread of the team calls
// it with the same n; values written by any thread before the call are read, and the sums are
// visible to every thread after it. values may be team scratch or the space's memory.
template <class Member, class V>
KOKKOS_INLINE_FUNCTION void team_inclusive_sum(const Member& team, V* values, std::int64_t n) {
  const int rank = team.team_rank(), size = team.team_size();
  team.team_barrier();
  for (std::int64_t base = 0; base < n; base += size) {
    const std::int64_t i = base + rank;
    const int m = int(math::min<std::int64_t>(size, n - base));
    if (base > 0 && rank == 0) values[i] += values[base - 1];
    team.team_barrier();
    for (int step = 1; step < m; step *= 2) {
      const V add = rank < m && rank >= step ? values[i - step] : V(0);
      team.team_barrier();
      if (rank < m) values[i] += add;
      team.team_barrier();
    }
  }
}

}  // namespace kmol
