#pragma once
// Exclusive prefix sums on any Kokkos space from team kernels that cannot abort
// (abort_free_team.hpp): Kokkos 3.4's parallel_scan costs a one-shot call milliseconds on CUDA.
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>

#include "kernels/abort_free_team.hpp"
#include "kmol/core/execution_space.hpp"
#include "kmol/core/math.hpp"

namespace kmol {

// Counts summed per team: large enough that the tile totals' pass (one team) stays short at 10^8
// counts, small enough that a million counts still spread over every multiprocessor.
inline constexpr std::int64_t exclusive_sum_tile = 4096;

// Scratch values exclusive_sum needs for n counts.
inline std::int64_t exclusive_sum_scratch(std::int64_t n) {
  return (n + exclusive_sum_tile - 1) / exclusive_sum_tile;
}

// Up to this many counts one team sums them all: a device's three launches of the tiled sum
// cost more than one team's pass over a few tens of thousands of counts (a frame's cell counts).
inline constexpr std::int64_t exclusive_sum_one_team = 65536;

// The sum of at most exclusive_sum_one_team counts by one team: each thread adds up a contiguous
// run of the counts, the team sums the runs' totals, and each thread writes its run's sums.
template <class ExecSpace, class Counts, class Out>
void exclusive_sum_in_one_team(const ExecSpace& space, const std::string& label,
                               const Counts& counts, const Out& out) {
  using V = typename Out::non_const_value_type;
  using Team =
      Kokkos::TeamPolicy<ExecSpace, Kokkos::IndexType<std::int64_t>, Kokkos::LaunchBounds<512, 1>>;
  using Member = typename Team::member_type;
  using Runs = Kokkos::View<V*, typename ExecSpace::scratch_memory_space, Kokkos::MemoryUnmanaged>;
  const std::int64_t n = counts.extent(0);
  const int team_size = runs_on_host<ExecSpace> ? 1 : 512;
  Kokkos::parallel_for(
      label + "_one_team",
      Team(space, 1, team_size).set_scratch_size(0, Kokkos::PerTeam(Runs::shmem_size(team_size))),
      KOKKOS_LAMBDA(const Member& team) {
        const int rank = team.team_rank(), size = team.team_size();
        const std::int64_t run = (n + size - 1) / size, first = math::min(rank * run, n),
                           last = math::min(first + run, n);
        const Runs totals = team_scratch_view<Runs>(team, size);
        V sum = 0;
        for (std::int64_t i = first; i < last; ++i) sum += counts(i);
        totals(rank) = sum;
        team_inclusive_sum(team, totals.data(), size);
        V before = rank == 0 ? V(0) : totals(rank - 1);
        if (rank == 0) out(0) = 0;
        for (std::int64_t i = first; i < last; ++i) {
          before += counts(i);
          out(i + 1) = before;
        }
      });
}

// out(i) = counts(0) + ... + counts(i - 1) for i in [0, n] with n = counts.extent(0), so out(n)
// is the total; out has n + 1 values and must not alias counts; `scratch` holds at least
// exclusive_sum_scratch(n) values. Up to exclusive_sum_one_team counts, one team kernel (below);
// beyond, three: each team sums a tile of the counts, one team sums the tiles' totals, each team
// sums its tile from the totals before it. Queued on `space` (no fence). (Whole View types as
// parameters: nvcc cannot name the enclosing function of device lambdas whose parameters are
// packs.)
template <class ExecSpace, class Counts, class Out, class Scratch>
void exclusive_sum(const ExecSpace& space, const std::string& label, const Counts& counts,
                   const Out& out, const Scratch& scratch) {
  using V = typename Out::non_const_value_type;
  using Team = Kokkos::TeamPolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  using Member = typename Team::member_type;
  using Chunk = Kokkos::View<V*, typename ExecSpace::scratch_memory_space, Kokkos::MemoryUnmanaged>;
  const std::int64_t n = counts.extent(0), tiles = exclusive_sum_scratch(n);
  const int team_size = runs_on_host<ExecSpace> ? 1 : 256;
  if (tiles == 0) {
    Kokkos::deep_copy(space, Kokkos::subview(out, 0), V(0));
    return;
  }
  if (n <= exclusive_sum_one_team) return exclusive_sum_in_one_team(space, label, counts, out);
  Kokkos::parallel_for(
      label + "_tile_totals", Team(space, tiles, team_size), KOKKOS_LAMBDA(const Member& team) {
        const std::int64_t first = team.league_rank() * exclusive_sum_tile,
                           last = math::min(first + exclusive_sum_tile, n);
        V total = 0;
        Kokkos::parallel_reduce(
            Kokkos::TeamThreadRange(team, first, last),
            [&](std::int64_t i, V& sum) { sum += counts(i); }, total);
        Kokkos::single(Kokkos::PerTeam(team), [&] { scratch(team.league_rank()) = total; });
      });
  Kokkos::parallel_for(
      label + "_tile_sums", Team(space, 1, team_size),
      KOKKOS_LAMBDA(const Member& team) { team_inclusive_sum(team, scratch.data(), tiles); });
  Kokkos::parallel_for(
      label + "_tiles",
      Team(space, tiles, team_size)
          .set_scratch_size(0, Kokkos::PerTeam(Chunk::shmem_size(team_size))),
      KOKKOS_LAMBDA(const Member& team) {
        const int rank = team.team_rank(), size = team.team_size();
        const std::int64_t t = team.league_rank(), first = t * exclusive_sum_tile,
                           last = math::min(first + exclusive_sum_tile, n);
        const Chunk chunk = team_scratch_view<Chunk>(team, size);
        V before = t == 0 ? V(0) : scratch(t - 1);
        if (t == 0 && rank == 0) out(0) = 0;
        for (std::int64_t base = first; base < last; base += size) {
          const int m = int(math::min<std::int64_t>(size, last - base));
          if (rank < m) chunk(rank) = counts(base + rank);
          team_inclusive_sum(team, chunk.data(), m);
          if (rank < m) out(base + rank + 1) = before + chunk(rank);
          before += chunk(m - 1);
          team.team_barrier();  // every thread has read the chunk before the next is loaded
        }
      });
}

}  // namespace kmol
