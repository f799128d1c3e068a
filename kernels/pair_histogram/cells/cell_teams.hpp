#pragma once
// The cell path's device scheme. Each team starts on the cell of its own rank and takes further
// cells from a shared counter, so that clustered frames stay balanced and each team flushes its
// histogram once rather than once per cell; a frame with no more cells than teams takes no
// counter at all (all teams drawing from it at once queue on one address). A team
// stages its cell's atoms in scratch; each thread holds one partner from the cells around at a
// time in registers and pairs it with every staged atom, all threads reading the same atom at
// once (one broadcast load per pair). Counts go into a 32-bit team histogram in scratch, flushed
// into the 64-bit totals before they could wrap.
//
// In orthorhombic boxes a partner's minimum-image shift, floor(d / L + 1/2) per axis, is found
// once for the whole cell: it is monotonic in the atom's coordinate, so where it is the same for
// the cell's lowest and highest coordinates (and, in one set, for the opposite orientation too,
// whose image then has the same length) every pair of the partner takes it, and needs one fma per
// axis instead of a floor. Other partners, and triclinic boxes, take box.minimum_image pair by
// pair. Either way the distance equals pair_distance's bit for bit.
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <limits>
#include <type_traits>

#include "kernels/abort_free_team.hpp"
#include "kernels/empty_view.hpp"
#include "kernels/kept_arrays.hpp"
#include "kernels/pair_histogram/cells/pair_counter.hpp"
#include "kernels/pair_histogram/kokkos/team_counters.hpp"
#include "kmol/core/counters.hpp"

namespace kmol {
namespace cells_detail {

// An atom of A staged in scratch: 16 bytes in single precision, which a thread loads at once.
template <class T>
struct alignas(4 * sizeof(T)) HomeAtom {
  T x, y, z;
  std::int32_t index;
};

// Per cell of A, the lowest and highest coordinates of its atoms.
template <class ExecSpace, class T>
struct CellBounds {
  using Points = ArrayOf<ExecSpace, Vec3<T>>;
  Points low = empty_view<Points>(), high = empty_view<Points>();
};

template <class ExecSpace, class T>
CellBounds<ExecSpace, T> bounds_of_cells(const ExecSpace& space, const SortedAtoms<ExecSpace, T>& a,
                                         std::int32_t n_cells, KeptArrays<ExecSpace>& kept) {
  const CellBounds<ExecSpace, T> out{kept.template array<Vec3<T>>("cell_low", n_cells),
                                     kept.template array<Vec3<T>>("cell_high", n_cells)};
  const T inf = std::numeric_limits<T>::infinity();
  Kokkos::parallel_for(
      "kmol::pair_histogram::cells::cell_bounds",
      Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int32_t>>(space, 0, n_cells),
      KOKKOS_LAMBDA(std::int32_t c) {
        Vec3<T> low{inf, inf, inf}, high{-inf, -inf, -inf};
        for (std::int32_t p = a.begin(c); p < a.begin(c + 1); ++p) {
          low = {math::min(low.x, a.x(p)), math::min(low.y, a.y(p)), math::min(low.z, a.z(p))};
          high = {math::max(high.x, a.x(p)), math::max(high.y, a.y(p)), math::max(high.z, a.z(p))};
        }
        out.low(c) = low;
        out.high(c) = high;
      });
  return out;
}

// A partner's minimum-image shift against every atom of a cell, as -floor(d / L + 1/2) per axis;
// `settled` is false where the cell's atoms do not all take the same one.
template <class T>
struct PartnerShift {
  T minus_n[3];
  bool settled;
};

template <bool OneSet, class T>
KOKKOS_INLINE_FUNCTION PartnerShift<T> shift_against_cell(const OrthorhombicBox<T>& box, Vec3<T> b,
                                                          Vec3<T> low, Vec3<T> high) {
  const T at[3] = {b.x, b.y, b.z}, lo[3] = {low.x, low.y, low.z}, hi[3] = {high.x, high.y, high.z};
  const T inverse[3] = {box.inverse.x, box.inverse.y, box.inverse.z};
  PartnerShift<T> out{};
  out.settled = true;
  for (int d = 0; d < 3; ++d) {
    const auto n_of = [&](T difference) {
      return math::floor(math::fma(difference, inverse[d], T(0.5)));
    };
    const T n = n_of(at[d] - hi[d]);
    bool same = n_of(at[d] - lo[d]) == n;
    if (OneSet) same = same && n_of(hi[d] - at[d]) == -n && n_of(lo[d] - at[d]) == -n;
    out.settled = out.settled && same;
    out.minus_n[d] = -n;
  }
  return out;
}

// Orthorhombic boxes: partners take one shift for a whole cell where they can.
template <class Counter, class T>
inline constexpr bool takes_shifts = std::is_same_v<decltype(Counter::box), OrthorhombicBox<T>>;

// The partner's shift against cell c where the box takes shifts; unsettled elsewhere.
template <class T, class Counter, class Bounds>
KOKKOS_INLINE_FUNCTION PartnerShift<T> partner_shift(const Counter& counter, Vec3<T> b,
                                                     const Bounds& bounds, std::int32_t c) {
  if constexpr (takes_shifts<Counter, T>)
    return shift_against_cell<Counter::one_set>(counter.box, b, bounds.low(c), bounds.high(c));
  else
    return PartnerShift<T>{};
}

// Pairs partner q of B (position b, original index j) with the n staged atoms of A, which sit at
// sorted positions h0 on, with the options of pair_counter.hpp.
template <Partner P, Labels L, Bins B, class Counter, class Home, class T, class Add>
KOKKOS_INLINE_FUNCTION void pair_with_home(const Counter& counter, const Home& home,
                                           std::int32_t h0, std::int32_t n, std::int32_t q,
                                           Vec3<T> b, std::int32_t j, const PartnerShift<T>& shift,
                                           const Add& add) {
  for (std::int32_t k = 0; k < n; ++k) {
    const HomeAtom<T> a = home(k);
    T r2;
    if constexpr (P == Partner::shifted) {
      const Vec3<T>& length = counter.box.length;
      r2 = norm2(Vec3<T>{math::fma(shift.minus_n[0], length.x, b.x - a.x),
                         math::fma(shift.minus_n[1], length.y, b.y - a.y),
                         math::fma(shift.minus_n[2], length.z, b.z - a.z)});
    } else {
      r2 = norm2(counter.box.minimum_image(counter.select_sign(a.index, j) *
                                           (b - Vec3<T>{a.x, a.y, a.z})));
    }
    counter.template bin_pair_with<L, B>(h0 + k, q, r2, add);
  }
}

// Pairs partner q (position b) with the n staged atoms from h0 on, taking its shift where it is
// settled and the pair-by-pair minimum image elsewhere.
template <class Counter, class Home, class T, class Add>
KOKKOS_INLINE_FUNCTION void pair_partner(const Counter& counter, const Home& home, std::int32_t h0,
                                         std::int32_t n, std::int32_t q, Vec3<T> b,
                                         const PartnerShift<T>& shift, const Add& add) {
  const std::int32_t j = counter.b.index(q);
  const auto pair_all = [&](auto partner, auto labels, auto bins) {
    pair_with_home<decltype(partner)::value, decltype(labels)::value, decltype(bins)::value>(
        counter, home, h0, n, q, b, j, shift, add);
  };
  const auto with_bins = [&](auto partner, auto labels) {
    if (counter.fast_bins())
      pair_all(partner, labels, Option<Bins::fast>());
    else
      pair_all(partner, labels, Option<Bins::exact>());
  };
  const auto with_labels = [&](auto partner) {
    if (counter.labels.trivial())
      with_bins(partner, Option<Labels::one>());
    else
      with_bins(partner, Option<Labels::per_pair>());
  };
  constexpr Partner settled = takes_shifts<Counter, T> ? Partner::shifted : Partner::minimum_image;
  if (takes_shifts<Counter, T> && shift.settled)
    with_labels(Option<settled>());
  else
    with_labels(Option<Partner::minimum_image>());
}

// Brings a warp's lanes together again after a round: a lane that crossed into the next run of
// partners, or paired fewer atoms, would otherwise run every later round apart from the others,
// leaving most lanes of the warp idle.
KOKKOS_INLINE_FUNCTION void reconverge_warp() {
#ifdef __CUDA_ARCH__
  __syncwarp();
#endif
}

// Team scratch: the staged atoms of A (first, for their alignment), the team histogram, the runs
// of partners (sorted position of each run's first partner, and its offset among the cell's
// partners) and the cell the team works on.
template <class ExecSpace, class T>
struct CellTeamScratch {
  static constexpr int home_capacity = 128;
  static constexpr int runs = CellGrid::max_run_slots;
  // Teams of two warps need several to an SM to hide their barriers, so a team takes no more
  // than this even where the device offers more; wider histograms count with atom threads.
  static constexpr std::size_t max_bytes = 40960;
  ScratchOf<ExecSpace, HomeAtom<T>> home;
  ScratchOf<ExecSpace, std::uint32_t> histogram;
  ScratchOf<ExecSpace, std::int32_t> run_first, run_start, cell;

  static std::size_t bytes(std::size_t size) {
    return ScratchOf<ExecSpace, HomeAtom<T>>::shmem_size(home_capacity) +
           ScratchOf<ExecSpace, std::uint32_t>::shmem_size(size) +
           2 * ScratchOf<ExecSpace, std::int32_t>::shmem_size(runs + 1) +
           ScratchOf<ExecSpace, std::int32_t>::shmem_size(1);
  }

  template <class Member>
  KOKKOS_INLINE_FUNCTION CellTeamScratch(const Member& team, std::size_t size)
      : home(team_scratch_view<ScratchOf<ExecSpace, HomeAtom<T>>>(team, home_capacity)),
        histogram(team_scratch_view<ScratchOf<ExecSpace, std::uint32_t>>(team, size)),
        run_first(team_scratch_view<ScratchOf<ExecSpace, std::int32_t>>(team, runs + 1)),
        run_start(team_scratch_view<ScratchOf<ExecSpace, std::int32_t>>(team, runs + 1)),
        cell(team_scratch_view<ScratchOf<ExecSpace, std::int32_t>>(team, 1)) {}
};

// `flush_capacity`: the increments a team's 32-bit histogram takes between flushes. `next_cell`:
// the counter teams take cells from, zero on entry (zeroed with the totals, one fill for both).
template <class ExecSpace, class T, class Counter>
void count_with_cell_teams(const ExecSpace& space, const Counter& counter,
                           const TotalsOf<ExecSpace>& totals, const TotalsOf<ExecSpace>& next_cell,
                           KeptArrays<ExecSpace>& kept, std::uint64_t flush_capacity) {
  using Scratch = CellTeamScratch<ExecSpace, T>;
  // Two warps a team on devices: a team waits at its barriers (a new cell, a new chunk) while
  // 15 others on the SM go on; with 4 teams of 8 warps those barrier waits dominate the stalls.
  // The functor goes in the launch's parameters (LightWeight): Kokkos 3.4 copies larger ones to
  // constant memory only once the previous such kernel has finished, which stalls the host.
  using Policy = Kokkos::TeamPolicy<ExecSpace, Kokkos::LaunchBounds<64, 16>,
                                    Kokkos::Experimental::WorkItemProperty::HintLightWeight_t>;
  const int team_size = runs_on_host<ExecSpace> ? 1 : 64;
  const std::int32_t size = std::int32_t(totals.extent(0)), n_cells = counter.grid.count();
  // Only orthorhombic boxes shift partners by the cells' bounds; other boxes get zero-length
  // arrays.
  const CellBounds<ExecSpace, T> bounds =
      bounds_of_cells(space, counter.a, takes_shifts<Counter, T> ? n_cells : 0, kept);
  const std::int32_t league =
      std::int32_t(math::min<std::int64_t>(n_cells, math::max(1, space.concurrency() / team_size)));
  const Policy policy =
      Policy(space, league, team_size).set_scratch_size(0, Kokkos::PerTeam(Scratch::bytes(size)));
  Kokkos::parallel_for(
      "kmol::pair_histogram::cells::count_pairs_in_cell_teams", policy,
      KOKKOS_LAMBDA(const typename Policy::member_type& team) {
        const Scratch s(team, size);
        const int rank = team.team_rank(), threads = team.team_size();
        const TeamCounterHandles handles(s.histogram.data());
        const auto add = [&](std::int64_t k) { handles.add_one(handles.of(std::uint32_t(k))); };
        for (std::int32_t k = rank; k < size; k += threads) s.histogram(k) = 0;
        const auto flush = [&]() {
          team.team_barrier();
          for (std::int32_t k = rank; k < size; k += threads)
            if (s.histogram(k) != 0) {
              Kokkos::atomic_add(&totals(k), (unsigned long long)s.histogram(k));
              s.histogram(k) = 0;
            }
          team.team_barrier();
        };
        FlushBudget budget(flush_capacity);
        for (bool first = true;; first = false) {
          if (rank == 0)
            s.cell(0) = first ? team.league_rank()
                        : league >= n_cells
                            ? n_cells
                            : std::int32_t(math::min<unsigned long long>(
                                  league + Kokkos::atomic_fetch_add(&next_cell(0), 1ULL),
                                  (unsigned long long)n_cells));
          team.team_barrier();
          const std::int32_t cell = s.cell(0);
          // Every thread has read the cell before rank 0 takes the next one: after an empty
          // cell no other barrier comes first, and a thread reading late would get another cell.
          team.team_barrier();
          if (cell >= n_cells) break;
          const std::int32_t home_end = counter.a.begin(cell + 1);
          // The cell's atoms a chunk at a time (one chunk but in crowded cells).
          for (std::int32_t h0 = counter.a.begin(cell); h0 < home_end;
               h0 += Scratch::home_capacity) {
            const std::int32_t n_home = math::min(Scratch::home_capacity, home_end - h0);
            // The runs of partners in reach and their offsets among the chunk's partners.
            const int slots = counter.grid.run_slots();
            for (int e = rank; e < slots; e += threads) {
              std::int32_t first_cell, end_cell;
              counter.grid.run_in_slot(cell, e, first_cell, end_cell);
              std::int32_t first = counter.b.begin(first_cell);
              // One set: partners after the chunk's first atom only.
              if (Counter::one_set) first = math::max(first, h0 + 1);
              s.run_first(e) = first;
              s.run_start(e + 1) = math::max(0, counter.b.begin(end_cell) - first);
            }
            if (rank == 0) s.run_start(0) = 0;
            team_inclusive_sum(team, s.run_start.data() + 1, slots);
            for (std::int32_t k = rank; k < n_home; k += threads) {
              const std::int32_t p = h0 + k;
              s.home(k) =
                  HomeAtom<T>{counter.a.x(p), counter.a.y(p), counter.a.z(p), counter.a.index(p)};
            }
            team.team_barrier();
            const std::int32_t partners = s.run_start(slots);
            int run = 0;
            // A round of one partner per thread at a time.
            for (std::int32_t round = 0; round < partners; round += threads) {
              const std::uint64_t pairs = std::uint64_t(n_home) * std::uint64_t(threads);
              if (budget.needs_flush_before(pairs)) {
                flush();
                budget.flushed();
              }
              budget.take(pairs);
              const std::int32_t v = round + rank;
              if (v < partners) {
                while (v >= s.run_start(run + 1)) ++run;
                const std::int32_t q = s.run_first(run) + (v - s.run_start(run));
                // One set: only atoms before the partner in sorted order.
                const std::int32_t n = Counter::one_set ? math::min(q - h0, n_home) : n_home;
                const Vec3<T> b = counter.b.position(q);
                pair_partner(counter, s.home, h0, n, q, b,
                             partner_shift<T>(counter, b, bounds, cell), add);
              }
              reconverge_warp();
            }
            team.team_barrier();  // the staged atoms and runs are no longer read
          }
        }
        flush();
      });
}

}  // namespace cells_detail
}  // namespace kmol
