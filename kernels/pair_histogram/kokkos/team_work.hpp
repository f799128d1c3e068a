#pragma once
// What both team functors of the portable engine share: the league's tiling into teams, each
// team's share of it, and the team's window of counters.
//
// League = (tile of A) x (chunk of B) x (window of the flattened [histogram][bin] range). A team
// keeps 32-bit counts for its window in scratch memory and adds them into a ScatterView of 64-bit
// totals (duplicated on CPUs, atomic on GPUs) before they could wrap and when it is done.
#include <Kokkos_Core.hpp>
#include <Kokkos_ScatterView.hpp>

#include <cstdint>
#include <utility>

#include "kernels/cancel_point.hpp"
#include "kernels/empty_view.hpp"
#include "kernels/pair_histogram/binning.hpp"
#include "kernels/pair_histogram/pair_labels.hpp"
#include "kmol/core/counters.hpp"

namespace kmol {

template <class ExecSpace>
using PairTotals = Kokkos::View<std::uint64_t*, typename ExecSpace::memory_space>;
template <class ExecSpace>
using PairTotalsScatter =
    decltype(Kokkos::Experimental::create_scatter_view(std::declval<PairTotals<ExecSpace>>()));

// The pairs and counters one team takes.
struct TeamShare {
  std::int64_t a_begin, a_end;   // its A atoms
  std::int64_t b_first, b_last;  // its B atoms (one set: only those after a_begin)
  std::int64_t window;           // which window
  std::int64_t w_begin, w_size;  // the window's flattened bins
};

// The tuner's choice (pair_histogram_kokkos.hpp) and the problem's sizes.
struct TeamTiling {
  std::int64_t n_a, n_b, flat_bins;
  std::int64_t a_tile, n_a_tiles, b_chunk, n_b_chunks, window;
  int team_size;
  bool one_set;
  std::int64_t first_team = 0;  // the launch's first team, where the league takes several

  KOKKOS_INLINE_FUNCTION TeamShare share(std::int64_t league_rank) const {
    league_rank += first_team;
    TeamShare s;
    s.a_begin = (league_rank % n_a_tiles) * a_tile;
    s.a_end = s.a_begin + a_tile < n_a ? s.a_begin + a_tile : n_a;
    const std::int64_t chunk_begin = (league_rank / n_a_tiles % n_b_chunks) * b_chunk;
    s.window = league_rank / (n_a_tiles * n_b_chunks);
    s.w_begin = s.window * window;
    s.w_size = s.w_begin + window < flat_bins ? window : flat_bins - s.w_begin;
    s.b_first = one_set && s.a_begin + 1 > chunk_begin ? s.a_begin + 1 : chunk_begin;
    s.b_last = chunk_begin + b_chunk < n_b ? chunk_begin + b_chunk : n_b;
    return s;
  }
};

// A pair's flattened bin: bin k of its histogram (the only one of plain jobs), or -1 for a pair
// whose labels give no histogram.
struct FlatBins {
  PairLabels labels;  // pointers into the execution space's memory
  bool plain;
  std::int32_t n_bins;

  KOKKOS_INLINE_FUNCTION std::int64_t of(std::int64_t i, std::int64_t j, std::int32_t k) const {
    if (k < 0) return -1;
    if (plain) return k;
    const std::int32_t h = labels.histogram_of(i, j);
    return h < 0 ? -1 : std::int64_t(h) * n_bins + k;
  }
};

// A team's 32-bit counters for bins [begin, begin + size) of the flattened range, in scratch.
// `kept` counters are flushed: the window's, and on GPUs the one past it too (the fast bins'
// n_bins, which belongs to the last bin).
template <class Scratch>
struct TeamWindow {
  using Counts = Kokkos::View<std::uint32_t*, Scratch, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  Counts counts = empty_view<Counts>();
  std::int64_t begin, size, kept;
  int team_size;

  template <class Member>
  KOKKOS_INLINE_FUNCTION void clear(const Member& team) const {
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, kept),
                         [&](std::int64_t w) { counts(w) = 0; });
    team.team_barrier();
  }

  // Adds the counters into the totals and clears them.
  template <class Member, class Totals>
  KOKKOS_INLINE_FUNCTION void flush(const Member& team, Totals& totals) const {
    team.team_barrier();
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, kept), [&](std::int64_t w) {
      if (counts(w) != 0) totals(begin + (w < size ? w : size - 1)) += counts(w);
      counts(w) = 0;
    });
    team.team_barrier();
  }

  // One pair in flattened bin `flat`, when it lies in the window.
  KOKKOS_INLINE_FUNCTION void count(std::int64_t flat) const {
    const std::int64_t w = flat - begin;
    if (w >= 0 && w < size) {
      if (team_size == 1)
        ++counts(w);
      else
        add_one_to_team_counter(&counts(w));
    }
  }
};

// What every team of a job reads: the coordinates, the box, the binning and where counts go.
template <class ExecSpace, class T, class Box>
struct TeamJob {
  using Points = Kokkos::View<const Vec3<T>*, typename ExecSpace::memory_space>;
  Points a = empty_view<Points>(), b = empty_view<Points>();
  Box box;
  HistogramRange<T> range;
  FlatBins bins;
  TeamTiling tiling;
  PairTotalsScatter<ExecSpace> totals =
      Kokkos::Experimental::create_scatter_view(empty_view<PairTotals<ExecSpace>>());
  const volatile int* cancel_word = nullptr;  // teams starting after a cancel skip their pairs
};

}  // namespace kmol
