#pragma once
// The portable engine's team on CPUs: one thread a team sweeps a long A tile against B tiles
// staged in scratch as x, y, z arrays, so the distance loop vectorises; each pair's bin is staged
// as a counter slot (slots.hpp) without a branch, then counted.
#include <Kokkos_Core.hpp>

#include <cstdint>

#include "kernels/pair_histogram/kokkos/team_work.hpp"
#include "kernels/pair_histogram/kokkos/traits.hpp"
#include "kernels/pair_histogram/slots.hpp"

namespace kmol {

template <class ExecSpace, class T, class Box>
struct StagedBinsTeam {
  using Traits = PairHistogramKokkosTraits<ExecSpace>;
  using Scratch = typename ExecSpace::scratch_memory_space;
  template <class V>
  using ScratchArray = Kokkos::View<V*, Scratch, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

  static constexpr int b_tile = Traits::b_tile;
  static constexpr std::size_t alignment_slack = 64;  // each scratch allocation is so padded
  // Scratch arrays are laid out one after another. A load whose address matches an earlier,
  // still pending store's in the low 12 bits waits for it on x86 cores (4K aliasing), so no
  // array a loop stores into may start a multiple of 4 KiB, or a little less, after one it
  // loads from: the tile's coordinates are a cache line apart, and the arrays the loops write
  // (squared distances, then slots) half a page on from the arrays they read.
  static constexpr int line = int(64 / sizeof(T)), half_page = int(2048 / sizeof(T));
  // Scratch: the B tile per team, each thread's squared distances and slots, and past the window
  // the spare slots that pairs out of range count into.
  static constexpr std::size_t team_bytes =
      3 * ((b_tile + line) * sizeof(T) + alignment_slack) + 2048;
  static constexpr std::size_t thread_bytes =
      (b_tile + half_page) * sizeof(T) + b_tile * sizeof(std::int32_t) + 2 * alignment_slack;
  static constexpr std::int32_t slots_past_window = spare_slots;

  TeamJob<ExecSpace, T, Box> job;
  SlotRule<T> rule;
  bool direct_slots;  // plain and one window: slots are the window's counters themselves

  template <class Member>
  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    const TeamShare s = job.tiling.share(team.league_rank());
    if (s.b_first >= s.b_last) return;  // the whole team: no pairs
    if (team_cancelled(team, job.cancel_word)) return;
    const TeamWindow<Scratch> window{
        ScratchArray<std::uint32_t>(team.team_scratch(int(Traits::histogram_level)),
                                    s.w_size + slots_past_window),
        s.w_begin, s.w_size, s.w_size, job.tiling.team_size};
    const ScratchArray<T> tile_x(team.team_scratch(0), b_tile + line),
        tile_y(team.team_scratch(0), b_tile + line),
        tile_z(team.team_scratch(0), b_tile + line + half_page);
    const ScratchArray<T> squared(team.thread_scratch(0), b_tile + half_page);
    const ScratchArray<std::int32_t> slots(team.thread_scratch(0), b_tile);
    auto totals = job.totals.access();

    window.clear(team);
    FlushBudget budget;
    for (std::int64_t t0 = s.b_first; t0 < s.b_last; t0 += b_tile) {
      const int t_size = int(t0 + b_tile < s.b_last ? b_tile : s.b_last - t0);
      const std::uint64_t tile_pairs = std::uint64_t(s.a_end - s.a_begin) * std::uint64_t(t_size);
      if (budget.needs_flush_before(tile_pairs)) {
        window.flush(team, totals);
        budget.flushed();
      }
      budget.take(tile_pairs);
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, t_size), [&](int j) {
        const Vec3<T> p = job.b(t0 + j);
        tile_x(j) = p.x;
        tile_y(j) = p.y;
        tile_z(j) = p.z;
      });
      team.team_barrier();
      for (std::int64_t i = s.a_begin + team.team_rank(); i < s.a_end; i += job.tiling.team_size) {
        const Vec3<T> ai = job.a(i);
        const bool unsettled =
            squares(ai, tile_x.data(), tile_y.data(), tile_z.data(), t_size, squared.data());
        // One set: only partners j > i.
        const int first =
            job.tiling.one_set
                ? int(i + 1 - t0 > 0 ? (i + 1 - t0 < t_size ? i + 1 - t0 : t_size) : 0)
                : 0;
        // Pairs the wrap left unsettled (a negative square, in a spare slot) are binned again.
        const auto exact_bin = [&](int j) {
          return job.range.bin_of(
              pair_distance(job.box, ai, Vec3<T>{tile_x(j), tile_y(j), tile_z(j)}));
        };
        if (direct_slots) {
          std::uint32_t* counts = window.counts.data();
          rule.fill(squared.data(), slots.data(), t_size, std::int32_t(s.w_size));
          add_slots(slots.data() + first, t_size - first, counts);
          if (unsettled)
            for (int j = first; j < t_size; ++j)
              if (squared(j) < T(0)) {
                const std::int32_t k = exact_bin(j);
                ++counts[k >= 0 ? k : std::int32_t(s.w_size)];
              }
        } else {
          const std::int32_t n_bins = job.range.n_bins;  // slots from n_bins on do not count
          rule.fill(squared.data(), slots.data(), t_size, n_bins);
          for (int j = first; j < t_size; ++j) {
            const std::int32_t k = squared(j) < T(0) ? exact_bin(j) : slots(j);
            if (k < n_bins) window.count(job.bins.of(i, t0 + j, k));
          }
        }
      }
      team.team_barrier();
    }
    window.flush(team, totals);
  }

  // squared[j]: the squared distance from a to tile point j, or -1 where the box's wrap leaves
  // it unsettled. Returns whether any is. Local copies of the box, so that the loop vectorises.
  KOKKOS_INLINE_FUNCTION bool squares(const Vec3<T>& a, const T* __restrict__ xs,
                                      const T* __restrict__ ys, const T* __restrict__ zs, int n,
                                      T* __restrict__ squared) const {
    const Box box = job.box;
    int n_unsettled = 0;
    for (int j = 0; j < n; ++j) {
      bool settled;
      const Vec3<T> d = box.wrapped(Vec3<T>{xs[j], ys[j], zs[j]} - a, settled);
      squared[j] = settled ? norm2(d) : T(-1);
      n_unsettled += settled ? 0 : 1;
    }
    return n_unsettled != 0;
  }
};

}  // namespace kmol
