#pragma once
// The portable engine's team on GPUs: each thread keeps a few atoms of A in registers, and every
// thread of the team reads the same B atom at once (a broadcast from L1), so each load serves
// several pairs; pairs count straight into the team's shared window, without staging or barriers
// between B atoms.
#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "kernels/empty_view.hpp"
#include "kernels/pair_histogram/fast_binning.hpp"
#include "kernels/pair_histogram/kokkos/team_counters.hpp"
#include "kernels/pair_histogram/kokkos/team_work.hpp"
#include "kernels/pair_histogram/kokkos/traits.hpp"

namespace kmol {

template <class ExecSpace, class T, class Box>
struct RegisterTeam {
  using Traits = PairHistogramKokkosTraits<ExecSpace>;
  using Scratch = typename ExecSpace::scratch_memory_space;

  static constexpr int b_tile = Traits::b_tile;  // B atoms between flush checks
  static constexpr int held = Traits::template a_per_thread<T>;
  static constexpr std::int32_t warp_lanes = 32;
  // Scratch past the window: one counter for the fast bins' n_bins (bin_of clamps it to the last
  // bin), then a spare counter per lane of a warp, each on its own bank, for pairs that do not
  // count. Nothing else is staged.
  static constexpr std::size_t team_bytes = 0;
  static constexpr std::size_t thread_bytes = 0;
  static constexpr std::int32_t slots_past_window = 1 + warp_lanes;

  TeamJob<ExecSpace, T, Box> job;
  // Plain histograms binned the fast way (fast_binning.hpp) where it is exact: each window's
  // pairs are those with r2 between window_r2(w) and window_r2(w + 1).
  bool fast;
  using Squares = Kokkos::View<const T*, typename ExecSpace::memory_space>;
  Squares window_r2 = empty_view<Squares>();
  bool direct_slots;  // plain and one window: bins are the window's counters themselves
  // Fast, one window from r = 0, and every pair of the job closer than r_max (the tuner proves it
  // from the atoms' extent): teams with a whole A tile count every pair without a range test.
  bool all_in_range;

  template <class Member>
  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    const TeamShare s = job.tiling.share(team.league_rank());
    if (s.b_first >= s.b_last) return;  // the whole team: no pairs
    const int team_size = job.tiling.team_size;
    const TeamWindow<Scratch> window{
        Kokkos::View<std::uint32_t*, Scratch, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
            team.team_scratch(int(Traits::histogram_level)), s.w_size + slots_past_window),
        s.w_begin, s.w_size, s.w_size + 1, team_size};
    auto totals = job.totals.access();
    // Missing atoms lie at infinity (never in range).
    const auto mine_index = [&](int u) {
      return s.a_begin + team.team_rank() + std::int64_t(u) * team_size;
    };
    const T far = T(INFINITY);
    Vec3<T> mine[held];
    for (int u = 0; u < held; ++u)
      mine[u] = mine_index(u) < s.a_end ? job.a(mine_index(u)) : Vec3<T>{far, far, far};

    window.clear(team);
    FlushBudget budget;
    for (std::int64_t t0 = s.b_first; t0 < s.b_last; t0 += b_tile) {
      const std::int64_t t_end = t0 + b_tile < s.b_last ? t0 + b_tile : s.b_last;
      const std::uint64_t tile_pairs =
          std::uint64_t(s.a_end - s.a_begin) * std::uint64_t(t_end - t0);
      if (budget.needs_flush_before(tile_pairs)) {
        window.flush(team, totals);
        budget.flushed();
      }
      budget.take(tile_pairs);
      // Only chunks that overlap the team's A range need the i < j test of one set.
      const bool ordered = job.tiling.one_set && t0 < s.a_end;
      if (fast)
        count_fast(team, s, window, mine, t0, t_end, ordered);
      else if (direct_slots && !ordered)
        for (std::int64_t j = t0; j < t_end; ++j) {
          const Vec3<T> bj = job.b(j);
          for (int u = 0; u < held; ++u) {
            const std::int32_t k = job.range.bin_of(pair_distance(job.box, mine[u], bj));
            if (k >= 0) add_one_to_team_counter(&window.counts(k));
          }
        }
      else
        for (std::int64_t j = t0; j < t_end; ++j) {
          const Vec3<T> bj = job.b(j);
          for (int u = 0; u < held; ++u)
            if (mine_index(u) < s.a_end && (!job.tiling.one_set || j > mine_index(u)))
              window.count(job.bins.of(mine_index(u), j,
                                       job.range.bin_of(pair_distance(job.box, mine[u], bj))));
        }
    }
    window.flush(team, totals);
  }

  // Every pair is binned; one out of the window counts into the lane's spare counter.
  template <class Member>
  KOKKOS_INLINE_FUNCTION void count_fast(const Member& team, const TeamShare& s,
                                         const TeamWindow<Scratch>& window, const Vec3<T>* mine,
                                         std::int64_t t0, std::int64_t t_end, bool ordered) const {
    const TeamCounterHandles counters(window.counts.data());
    const T r2_low = window_r2(s.window), r2_high = window_r2(s.window + 1);
    const std::uint32_t magic_base =
        counters.of(0) - 4 * std::uint32_t(fast_binning::magic_bits<T> + std::int32_t(s.w_begin));
    const std::uint32_t spare =
        counters.of(std::uint32_t(s.w_size) + 1 + team.team_rank() % warp_lanes);
    const int team_size = job.tiling.team_size;
    const auto mine_index = [&](int u) {
      return s.a_begin + team.team_rank() + std::int64_t(u) * team_size;
    };
    // From zero (r_min = 0, first window): every r2 passes the lower test and r - r_min is r.
    // All: every pair counts, so none is tested.
    const auto sweep = [&](auto in_order, auto from_zero, auto all) {
      constexpr bool kInOrder = decltype(in_order)::value, kFromZero = decltype(from_zero)::value,
                     kAll = decltype(all)::value;
      for (std::int64_t j = t0; j < t_end; ++j) {
        const Vec3<T> bj = job.b(j);
        for (int u = 0; u < held; ++u) {
          const T r2 = norm2(job.box.minimum_image(bj - mine[u]));
          const std::uint32_t counter = fast_counter<kFromZero>(job.range, magic_base, r2);
          if constexpr (kAll) {
            counters.add_one(counter);
          } else {
            const bool take =
                (kFromZero || r2 >= r2_low) && r2 < r2_high && (!kInOrder || j > mine_index(u));
            counters.add_one(take ? counter : spare);
          }
        }
      }
    };
    const std::false_type no;
    const std::true_type yes;
    if (ordered)
      sweep(yes, no, no);
    else if (job.range.r_min == T(0) && s.w_begin == 0 && all_in_range &&
             s.a_end - s.a_begin == job.tiling.a_tile)
      sweep(no, yes, yes);
    else if (job.range.r_min == T(0) && s.w_begin == 0)
      sweep(no, yes, no);
    else
      sweep(no, no, no);
  }
};

}  // namespace kmol
