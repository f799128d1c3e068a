#pragma once
// launch_in_pieces (launch_pieces.hpp) on a Kokkos execution space: the first piece is as many
// items as the space runs at once, a GPU's pieces are whole multiples of 64 threads, and each
// piece ends with a fence.
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <string>

#include "kernels/launch_pieces.hpp"
#include "kmol/core/execution_space.hpp"

namespace kmol {

// launch(begin, end) runs items [begin, end), each of threads_per_item threads (a team's size).
template <class ExecSpace, class Launch>
void launch_in_pieces(const ExecSpace& space, std::int64_t total, std::int64_t threads_per_item,
                      const char* what, Launch&& launch) {
  threads_per_item = std::max<std::int64_t>(1, threads_per_item);
  const std::int64_t fill = std::int64_t(space.concurrency()) / threads_per_item;
  const std::int64_t granule =
      runs_on_host<ExecSpace> ? 1 : (64 + threads_per_item - 1) / threads_per_item;
  launch_in_pieces(total, fill, granule, what, launch, [&] { space.fence(); });
}

// Kokkos::parallel_for(name, RangePolicy(space, 0, total), f), in pieces.
template <class ExecSpace, class F>
void parallel_for_in_pieces(const std::string& name, const ExecSpace& space, std::int64_t total,
                            const char* what, const F& f) {
  using Range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  launch_in_pieces(space, total, 1, what, [&](std::int64_t begin, std::int64_t end) {
    Kokkos::parallel_for(name, Range(space, begin, end), f);
  });
}

// A scan functor f(i, update, final) that sees the pieces before its own: its updates start from
// `before`, their total.
template <class F>
struct ScanAfter {
  using value_type = std::int64_t;
  F f;
  std::int64_t before;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i, std::int64_t& update,
                                         const bool final) const {
    std::int64_t seen = before + update;
    f(i, seen, final);
    update = seen - before;
  }
};

// Kokkos::parallel_scan(name, RangePolicy(space, 0, total), f, result) of std::int64_t values,
// in pieces; returns the total.
template <class ExecSpace, class F>
std::int64_t parallel_scan_in_pieces(const std::string& name, const ExecSpace& space,
                                     std::int64_t total, const char* what, const F& f) {
  using Range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  std::int64_t sum = 0;
  launch_in_pieces(space, total, 1, what, [&](std::int64_t begin, std::int64_t end) {
    std::int64_t piece = 0;
    Kokkos::parallel_scan(name, Range(space, begin, end), ScanAfter<F>{f, sum}, piece);
    sum += piece;
  });
  return sum;
}

// A team functor f(team, league) told its league's index in the whole launch.
template <class ExecSpace, class F>
struct OffsetLeagues {
  F f;
  std::int64_t first;
  KOKKOS_INLINE_FUNCTION void operator()(
      const typename Kokkos::TeamPolicy<ExecSpace>::member_type& team) const {
    f(team, first + team.league_rank());
  }
};

// Kokkos::parallel_for over `leagues` teams of team_size threads with scratch_bytes of level-0
// scratch each, in pieces; f(team, league) takes the league's index in the whole launch.
template <class ExecSpace, class F>
void team_parallel_for_in_pieces(const std::string& name, const ExecSpace& space,
                                 std::int64_t leagues, int team_size, std::size_t scratch_bytes,
                                 const char* what, const F& f) {
  launch_in_pieces(space, leagues, team_size, what, [&](std::int64_t begin, std::int64_t end) {
    Kokkos::TeamPolicy<ExecSpace> policy(space, int(end - begin), team_size);
    policy.set_scratch_size(0, Kokkos::PerTeam(scratch_bytes));
    Kokkos::parallel_for(name, policy, OffsetLeagues<ExecSpace, F>{f, begin});
  });
}

}  // namespace kmol
