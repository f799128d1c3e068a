#pragma once
// The portable engine's team on GPUs: each thread keeps a few atoms of A in registers, and every
// thread of the team reads the same B atom at once (a broadcast from L1), so each load serves
// several pairs; pairs count straight into the team's shared window, without staging or barriers
// between B atoms. A warp's atoms of A are consecutive; with the fast binning both sets are in
// Morton order and a warp takes B in runs, each run with the warp's atoms a work unit that
// unit_reach.hpp skips, counts without range tests or wraps with one shift per axis.
#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "kernels/empty_view.hpp"
#include "kernels/pair_histogram/fast_binning.hpp"
#include "kernels/pair_histogram/kokkos/team_counters.hpp"
#include "kernels/pair_histogram/kokkos/team_work.hpp"
#include "kernels/pair_histogram/kokkos/traits.hpp"
#include "kernels/pair_histogram/unit_reach.hpp"

namespace kmol {

template <class ExecSpace, class T, class Box>
struct RegisterTeam {
  using Traits = PairHistogramKokkosTraits<ExecSpace>;
  using Scratch = typename ExecSpace::scratch_memory_space;
  using Memory = typename ExecSpace::memory_space;

  static constexpr int b_tile = Traits::b_tile;  // B atoms between flush checks
  static constexpr int held = Traits::template a_per_thread<T, Box>;
  static constexpr std::int32_t warp_lanes = 32;
  // A atoms of a warp, and B atoms of a run: the two groups of a work unit.
  static constexpr std::int64_t a_group = warp_lanes * held;
  static constexpr std::int64_t b_run = 32;
  // Scratch past the window: one counter for the fast bins' n_bins (bin_of clamps it to the last
  // bin), then a spare counter per lane of a warp, each on its own bank, for pairs that do not
  // count. Nothing else is staged.
  static constexpr std::size_t team_bytes = 0;
  static constexpr std::size_t thread_bytes = 0;
  static constexpr std::int32_t slots_past_window = 1 + warp_lanes;

  TeamJob<ExecSpace, T, Box> job;
  // Plain histograms binned the fast way (fast_binning.hpp) where it is exact: each window's
  // pairs are those with r2 between window_r2(w) and window_r2(w + 1), distances between
  // window_r(w) and window_r(w + 1); job.a and job.b are in Morton order, with the bounds of
  // every warp's A atoms (a_groups) and of every run of B (b_runs).
  bool fast;
  using Values = Kokkos::View<const T*, Memory>;
  Values window_r2 = empty_view<Values>(), window_r = empty_view<Values>();
  using BoundsView = Kokkos::View<const unit_reach::Bounds*, Memory>;
  BoundsView a_groups = empty_view<BoundsView>(), b_runs = empty_view<BoundsView>();
  unit_reach::Window<T> limits;  // the box's part of each window
  bool direct_slots;             // plain and one window: bins are the window's counters themselves

  // A thread's atom u of A: lane l of warp w holds a_begin + w a_group + 32 u + l.
  template <class Member>
  KOKKOS_INLINE_FUNCTION std::int64_t mine_index(const Member& team, const TeamShare& s,
                                                 int u) const {
    return s.a_begin + team.team_rank() / warp_lanes * a_group + std::int64_t(u) * warp_lanes +
           team.team_rank() % warp_lanes;
  }

  template <class Member>
  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    const TeamShare s = job.tiling.share(team.league_rank());
    if (s.b_first >= s.b_last) return;  // the whole team: no pairs
    if (team_cancelled(team, job.cancel_word)) return;
    const int team_size = job.tiling.team_size;
    const TeamWindow<Scratch> window{
        Kokkos::View<std::uint32_t*, Scratch, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
            team.team_scratch(int(Traits::histogram_level)), s.w_size + slots_past_window),
        s.w_begin, s.w_size, s.w_size + 1, team_size};
    auto totals = job.totals.access();
    // Missing atoms lie at infinity (never in range).
    const T far = T(INFINITY);
    Vec3<T> mine[held];
    KMOL_UNROLL
    for (int u = 0; u < held; ++u) {
      const std::int64_t i = mine_index(team, s, u);
      mine[u] = i < s.a_end ? job.a(i) : Vec3<T>{far, far, far};
    }

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
          KMOL_UNROLL
          for (int u = 0; u < held; ++u) {
            const std::int32_t k = job.range.bin_of(pair_distance(job.box, mine[u], bj));
            if (k >= 0) add_one_to_team_counter(&window.counts(k));
          }
        }
      else
        for (std::int64_t j = t0; j < t_end; ++j) {
          const Vec3<T> bj = job.b(j);
          KMOL_UNROLL
          for (int u = 0; u < held; ++u) {
            const std::int64_t i = mine_index(team, s, u);
            if (i < s.a_end && (!job.tiling.one_set || j > i))
              window.count(
                  job.bins.of(i, j, job.range.bin_of(pair_distance(job.box, mine[u], bj))));
          }
        }
    }
    window.flush(team, totals);
  }

  // The warp's atoms against B atoms [t0, t_end), unit by unit (runs of B). Every pair of a unit
  // that may count is binned; one out of the window counts into the lane's spare counter.
  template <class Member>
  KOKKOS_INLINE_FUNCTION void count_fast(const Member& team, const TeamShare& s,
                                         const TeamWindow<Scratch>& window, const Vec3<T>* mine,
                                         std::int64_t t0, std::int64_t t_end, bool ordered) const {
    using unit_reach::Reach;
    using unit_reach::Wrap;
    const std::int64_t warp_first = mine_index(team, s, 0) - team.team_rank() % warp_lanes;
    if (warp_first >= s.a_end) return;  // a warp of missing atoms
    const unit_reach::Bounds a_bounds = a_groups(warp_first / a_group);
    unit_reach::Window<T> w = limits;
    w.r_min = window_r(s.window);
    w.r_max = window_r(s.window + 1);
    const TeamCounterHandles counters(window.counts.data());
    const T r2_low = window_r2(s.window), r2_high = window_r2(s.window + 1);
    const std::uint32_t magic_base =
        counters.of(0) - 4 * std::uint32_t(fast_binning::magic_bits<T> + std::int32_t(s.w_begin));
    const std::uint32_t spare =
        counters.of(std::uint32_t(s.w_size) + 1 + team.team_rank() % warp_lanes);
    const bool from_zero = job.range.r_min == T(0) && s.w_begin == 0;
    // kInOrder: the i < j test of one set. kFromZero (r_min = 0, first window): every r2 passes
    // the lower test and r - r_min is r. kAll: the unit's bounds put every pair in the window,
    // so none is tested.
    // kAboveMin: the unit's pairs are proven farther apart than fast_sqrt_min's root, so roots
    // need no clamp.
    const auto sweep = [&](std::int64_t j0, std::int64_t j1, const Vec3<T>& shift, auto in_order,
                           auto zero, auto all, auto above_min, auto wrap) {
      constexpr bool kInOrder = decltype(in_order)::value, kFromZero = decltype(zero)::value,
                     kAll = decltype(all)::value, kAboveMin = decltype(above_min)::value;
      constexpr Wrap kWrap = decltype(wrap)::value;
      constexpr auto kOffset =
          kFromZero ? fast_binning::Offset::from_zero : fast_binning::Offset::from_r_min;
      constexpr auto kRoots =
          kAboveMin ? fast_binning::Roots::above_min : fast_binning::Roots::clamped;
      for (std::int64_t j = j0; j < j1; ++j) {
        const Vec3<T> bj = job.b(j);
        KMOL_UNROLL
        for (int u = 0; u < held; ++u) {
          const T r2 = norm2(unit_reach::image<kWrap>(job.box, bj - mine[u], shift));
          const std::uint32_t counter = fast_counter<kOffset, kRoots>(job.range, magic_base, r2);
          if constexpr (kAll) {
            counters.add_one(counter);
          } else {
            const bool take = (kFromZero || r2 >= r2_low) && r2 < r2_high &&
                              (!kInOrder || j > mine_index(team, s, u));
            counters.add_one(take ? counter : spare);
          }
        }
      }
    };
    // A unit's plan: which pairs can count, whether their roots need the clamp, and how they
    // wrap (the shift only for Wrap::shift).
    struct Plan {
      Reach unit;
      bool above_min;
      Wrap wrap;
      Vec3<T> shift;
      KOKKOS_INLINE_FUNCTION bool operator==(const Plan& o) const {
        return unit == o.unit && above_min == o.above_min && wrap == o.wrap &&
               shift.x == o.shift.x && shift.y == o.shift.y && shift.z == o.shift.z;
      }
    };
    // Twice fast_sqrt_min's root: the slack of the bounds covers rounding many times over.
    const T min_root = T(0x1p-49);
    const auto plan_of = [&](std::int64_t run) {
      const unit_reach::Bounds b_bounds = b_runs(run);
      T nearest = 0;
      const Reach unit = unit_reach::reach(job.box, w, a_bounds, b_bounds, &nearest);
      Plan plan{unit, nearest >= min_root, Wrap::exact, Vec3<T>{}};
      if (plan.unit != Reach::none)
        plan.wrap = unit_reach::wrap_for(job.box, w, a_bounds, b_bounds, plan.shift);
      if (plan.wrap != Wrap::shift) plan.shift = Vec3<T>{};
      return plan;
    };
    const std::false_type no;
    const std::true_type yes;
    const auto execute = [&](const Plan& plan, std::int64_t j0, std::int64_t j1) {
      const auto wrapped = [&](auto in_order, auto zero, auto all, auto above_min) {
        if constexpr (std::is_same_v<Box, OrthorhombicBox<T>>) {
          if (plan.wrap == Wrap::shift)
            return sweep(j0, j1, plan.shift, in_order, zero, all, above_min,
                         std::integral_constant<Wrap, Wrap::shift>());
          if (plan.wrap == Wrap::small)
            return sweep(j0, j1, plan.shift, in_order, zero, all, above_min,
                         std::integral_constant<Wrap, Wrap::small>());
        }
        sweep(j0, j1, plan.shift, in_order, zero, all, above_min,
              std::integral_constant<Wrap, Wrap::exact>());
      };
      // Units counted without tests are most of the work: those also leave out the clamp where
      // they can.
      if (plan.unit == Reach::none) return;
      if (ordered)
        wrapped(yes, no, no, no);
      else if (plan.unit == Reach::all && from_zero && plan.above_min)
        wrapped(no, yes, yes, yes);
      else if (plan.unit == Reach::all && from_zero)
        wrapped(no, yes, yes, no);
      else if (plan.unit == Reach::all && plan.above_min)
        wrapped(no, no, yes, yes);
      else if (plan.unit == Reach::all)
        wrapped(no, no, yes, no);
      else if (from_zero)
        wrapped(no, yes, no, no);
      else
        wrapped(no, no, no, no);
    };
    // Consecutive runs with the same plan are swept as one: long sweeps keep the loop's overhead
    // per pair low.
    Plan plan = plan_of(t0 / b_run);
    for (std::int64_t j0 = t0; j0 < t_end;) {
      std::int64_t j1 = math::min((j0 / b_run + 1) * b_run, t_end);
      Plan next = plan;
      while (j1 < t_end) {
        next = plan_of(j1 / b_run);
        if (!(next == plan)) break;
        j1 = math::min(j1 + b_run, t_end);
      }
      execute(plan, j0, j1);
      j0 = j1;
      plan = next;
    }
  }
};

}  // namespace kmol
