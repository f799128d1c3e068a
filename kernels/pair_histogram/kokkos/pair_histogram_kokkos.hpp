#pragma once
// The portable pair-histogram engine: one code for every Kokkos backend.
//
// League = (tile of A) x (chunk of B) x (window of the flattened [histogram][bin] range). A team
// keeps 32-bit counts for its window in scratch memory, goes through its B atoms in tiles (staged
// in scratch on CPUs), and adds its counts into a ScatterView of 64-bit totals (duplicated on
// CPUs, atomic on GPUs) before they could wrap and when it is done. Histograms wider than scratch
// take several windows (passes).
#include <Kokkos_Core.hpp>
#include <Kokkos_ScatterView.hpp>

#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "kernels/pair_histogram/fast_binning.hpp"
#include "kernels/pair_histogram/job.hpp"
#include "kernels/pair_histogram/kokkos/team_counters.hpp"
#include "kernels/pair_histogram/kokkos/traits.hpp"
#include "kmol/core/counters.hpp"

namespace kmol {
namespace detail {

// Host arrays as views. Plain vectors, not host mirrors: initialising a mirror runs on the host
// space, which Kokkos 3.4 refuses from threads other than the one that initialised it (the
// trajectory pipeline's GPU worker).
template <class V>
using HostArray = Kokkos::View<V*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>;

// A copy of n host values in Memory; a zero-length one for a null pointer (an absent label):
// allocated, since copying a default-constructed view crashes with g++ 12 and the mdspan-based
// View.
template <class Memory, class V>
Kokkos::View<const V*, Memory> device_copy(const V* host, std::int64_t n, const char* label) {
  if (host == nullptr) n = 0;
  Kokkos::View<V*, Memory> out(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label)),
                               n);
  Kokkos::deep_copy(out, HostArray<const V>(host, n));
  return out;
}

// The job's coordinates as a view in Memory: themselves when resident, else a copy.
template <class Memory, class V>
Kokkos::View<const V*, Memory> coordinates(const V* xyz, std::int64_t n, bool resident,
                                           const char* label) {
  if (resident) return Kokkos::View<const V*, Memory, Kokkos::MemoryUnmanaged>(xyz, n);
  return device_copy<Memory>(xyz, n, label);
}

}  // namespace detail

template <class ExecSpace, class T, class Box>
std::string pair_histogram_kokkos_on(const ExecSpace& space, const PairHistogramJob<T>& job,
                                     const Box box) {
  using Traits = PairHistogramKokkosTraits<ExecSpace>;
  using Memory = typename ExecSpace::memory_space;
  using Policy = Kokkos::TeamPolicy<ExecSpace, typename Traits::LaunchBounds>;
  using Member = typename Policy::member_type;
  using Scratch = typename ExecSpace::scratch_memory_space;
  using Unmanaged = Kokkos::MemoryTraits<Kokkos::Unmanaged>;

  const auto a =
      detail::coordinates<Memory>(job.a, job.n_a, job.resident, "kmol::pair_histogram::a");
  const auto b = job.one_set ? a
                             : detail::coordinates<Memory>(job.b, job.n_b, job.resident,
                                                           "kmol::pair_histogram::b");
  const auto n_pairs_species = job.labels.n_species * (job.labels.n_species + 1) / 2;
  const auto species =
      detail::device_copy<Memory>(job.labels.species, job.n_a, "kmol::pair_histogram::species");
  const auto enabled = detail::device_copy<Memory>(job.labels.enabled, n_pairs_species,
                                                   "kmol::pair_histogram::enabled");
  const auto mol_a = detail::device_copy<Memory>(job.labels.molecule_a, job.n_a,
                                                 "kmol::pair_histogram::molecule_a");
  const auto mol_b = job.one_set ? mol_a
                                 : detail::device_copy<Memory>(job.labels.molecule_b, job.n_b,
                                                               "kmol::pair_histogram::molecule_b");
  // Absent labels stay null (a zero-length view's data need not be).
  const auto on_device = [](const auto* host, const auto& view) {
    return host != nullptr ? view.data() : nullptr;
  };
  PairLabels labels = job.labels;
  labels.species = on_device(job.labels.species, species);
  labels.enabled = on_device(job.labels.enabled, enabled);
  labels.molecule_a = on_device(job.labels.molecule_a, mol_a);
  labels.molecule_b = on_device(job.one_set ? job.labels.molecule_a : job.labels.molecule_b, mol_b);
  const bool plain = labels.trivial();

  const std::int64_t flat_bins = std::int64_t(job.n_histograms) * job.range.n_bins;
  Kokkos::View<std::uint64_t*, Memory> totals("kmol::pair_histogram::totals", flat_bins);
  auto scatter = Kokkos::Experimental::create_scatter_view(totals);

  // Out-of-range pairs of the CPU path count into spare slots past the window (taken in turn, never
  // flushed) instead of taking a branch that random distances would mispredict half the time; one
  // more slot past them takes unsettled pairs.
  constexpr std::int32_t spare_slots = 8, extra_slots = spare_slots + 1;
  // GPUs: one slot for the fast bins' n_bins (bin_of clamps it to the last bin), then a spare
  // slot per lane of a warp, each on its own bank, for pairs that do not count.
  constexpr std::int32_t warp_lanes = 32;
  constexpr std::int32_t slots_past_window = Traits::stage_bins ? extra_slots : 1 + warp_lanes;

  // Tuner: the histogram window takes what its scratch level has left after the B tile (kept in
  // x, y, z arrays so that CPUs vectorise the distance loop) and the staged bins; histograms
  // wider than a GPU team's share take wide teams (traits.hpp). Windows are of equal size.
  const int b_tile = Traits::b_tile;
  const std::size_t alignment_slack = 64;  // each scratch allocation is padded to alignment
  const std::size_t tile_bytes = Traits::stage_b ? 3 * (b_tile * sizeof(T) + alignment_slack) : 0;
  const std::size_t staged_bytes =
      Traits::stage_bins ? b_tile * (sizeof(std::int32_t) + sizeof(T)) + 2 * alignment_slack : 0;
  constexpr int level = Traits::histogram_level;
  const auto window_fit = [&](std::size_t limit, int threads) -> std::int64_t {
    const std::size_t used = level == 0 ? tile_bytes + staged_bytes * threads : 0;
    return std::int64_t((limit - used - alignment_slack) / sizeof(std::uint32_t)) -
           slots_past_window;
  };
  const std::size_t level_max = std::size_t(Policy::scratch_size_max(level));
  int team_size = Traits::team_size;
  std::int64_t fit = window_fit(
      Traits::on_host ? level_max : math::min(level_max, Traits::team_shared_bytes), team_size);
  if (!Traits::on_host && flat_bins > fit && window_fit(level_max, Traits::wide_team_size) > fit) {
    team_size = Traits::wide_team_size;
    fit = window_fit(level_max, team_size);
  }
  const std::int64_t n_windows = (flat_bins + fit - 1) / fit;
  const std::int64_t window = (flat_bins + n_windows - 1) / n_windows;
  const std::int64_t a_tile = std::int64_t(team_size) * Traits::template a_per_thread<T>;
  const std::int64_t n_a_tiles = (job.n_a + a_tile - 1) / a_tile;
  const std::int64_t n_a = job.n_a;
  const std::int64_t n_b = job.n_b;
  const std::int64_t b_chunk =
      Traits::b_chunk > 0 && Traits::b_chunk < n_b ? Traits::b_chunk : (n_b > 0 ? n_b : 1);
  const std::int64_t n_b_chunks =
      (n_b + b_chunk - 1) / b_chunk > 0 ? (n_b + b_chunk - 1) / b_chunk : 1;
  const bool one_set = job.one_set;
  const auto range = job.range;
  const std::int32_t n_bins = range.n_bins;
  const T far = std::numeric_limits<T>::infinity();

  // Devices bin plain histograms the fast way (fast_binning.hpp) where it is exact: each
  // window's pairs are those with r2 between the squared thresholds of its first and last edges.
  const bool fast = !Traits::stage_bins && plain && fast_binning::fast_kernel_exact(range);
  Kokkos::View<T*, Memory> window_r2("kmol::pair_histogram::window_r2", fast ? n_windows + 1 : 0);
  if (fast) {
    std::vector<T> host_r2(std::size_t(n_windows) + 1);
    for (std::int64_t w = 0; w <= n_windows; ++w)
      host_r2[w] = fast_binning::square_threshold(
          range.edge(std::int32_t(w * window < n_bins ? w * window : n_bins)));
    Kokkos::deep_copy(window_r2, detail::HostArray<const T>(host_r2.data(), host_r2.size()));
  }

  Policy policy(space, n_a_tiles * n_b_chunks * n_windows, team_size);
  const std::size_t histogram_bytes =
      (window + slots_past_window) * sizeof(std::uint32_t) + alignment_slack;
  const bool direct_slots = plain && n_windows == 1;
  // CPUs bin direct slots with the range test on r^2 against the squared thresholds of r_min and
  // r_max and fast_binning's single edge test on the correctly rounded root: the same bins as
  // bin_of wherever fast_kernel_exact holds (its proof covers any correctly rounded root).
  const bool staged_fast =
      Traits::stage_bins && direct_slots && fast_binning::fast_kernel_exact(range);
  const T staged_r2_low = staged_fast ? fast_binning::square_threshold(range.r_min) : T(0);
  const T staged_r2_high = staged_fast ? fast_binning::square_threshold(range.r_max) : T(0);
  if (level == 0) {
    policy.set_scratch_size(0, Kokkos::PerTeam(histogram_bytes + tile_bytes),
                            Kokkos::PerThread(staged_bytes));
  } else {
    policy.set_scratch_size(0, Kokkos::PerTeam(tile_bytes), Kokkos::PerThread(staged_bytes));
    policy.set_scratch_size(1, Kokkos::PerTeam(histogram_bytes));
  }

  Kokkos::parallel_for(
      "kmol::pair_histogram::kokkos", policy, KOKKOS_LAMBDA(const Member& team) {
        const std::int64_t a_begin = (team.league_rank() % n_a_tiles) * a_tile;
        const std::int64_t a_end = a_begin + a_tile < n_a ? a_begin + a_tile : n_a;
        const std::int64_t chunk_begin = (team.league_rank() / n_a_tiles % n_b_chunks) * b_chunk;
        const std::int64_t w_index = team.league_rank() / (n_a_tiles * n_b_chunks);
        const std::int64_t w_begin = w_index * window;
        const std::int64_t w_size = w_begin + window < flat_bins ? window : flat_bins - w_begin;
        // Its B atoms: the chunk's; one set: only j > i, so none below a_begin + 1.
        const std::int64_t b_first =
            one_set && a_begin + 1 > chunk_begin ? a_begin + 1 : chunk_begin;
        const std::int64_t b_last = chunk_begin + b_chunk < n_b ? chunk_begin + b_chunk : n_b;
        if (b_first >= b_last) return;  // the whole team: no pairs
        Kokkos::View<std::uint32_t*, Scratch, Unmanaged> hist(team.team_scratch(level),
                                                              w_size + slots_past_window);
        const int staged_b = Traits::stage_b ? b_tile : 0;
        Kokkos::View<T*, Scratch, Unmanaged> tile_x(team.team_scratch(0), staged_b);
        Kokkos::View<T*, Scratch, Unmanaged> tile_y(team.team_scratch(0), staged_b);
        Kokkos::View<T*, Scratch, Unmanaged> tile_z(team.team_scratch(0), staged_b);
        Kokkos::View<std::int32_t*, Scratch, Unmanaged> staged(team.thread_scratch(0),
                                                               Traits::stage_bins ? b_tile : 0);
        Kokkos::View<T*, Scratch, Unmanaged> squared_buffer(team.thread_scratch(0),
                                                            Traits::stage_bins ? b_tile : 0);
        auto totals_access = scatter.access();

        // GPUs also clear and flush the slot past the window (fast bins' n_bins, into the last
        // bin).
        const std::int64_t kept_slots = Traits::stage_bins ? w_size : w_size + 1;
        auto clear = [&]() {
          Kokkos::parallel_for(Kokkos::TeamThreadRange(team, kept_slots),
                               [&](std::int64_t w) { hist(w) = 0; });
          team.team_barrier();
        };
        auto flush = [&]() {
          team.team_barrier();
          Kokkos::parallel_for(Kokkos::TeamThreadRange(team, kept_slots), [&](std::int64_t w) {
            if (hist(w) != 0) totals_access(w_begin + (w < w_size ? w : w_size - 1)) += hist(w);
            hist(w) = 0;
          });
          team.team_barrier();
        };
        auto count = [&](std::int64_t flat) {
          const std::int64_t w = flat - w_begin;
          if (w >= 0 && w < w_size) {
            if (team_size == 1)
              ++hist(w);
            else
              add_one_to_team_counter(&hist(w));
          }
        };
        auto flat_bin = [&](std::int64_t i, std::int64_t j, std::int32_t k) -> std::int64_t {
          if (k < 0) return -1;
          if (plain) return k;
          const std::int32_t h = labels.histogram_of(i, j);
          return h < 0 ? -1 : std::int64_t(h) * n_bins + k;
        };

        clear();
        FlushBudget budget;
        for (std::int64_t t0 = b_first; t0 < b_last; t0 += b_tile) {
          const int t_size = int(t0 + b_tile < b_last ? b_tile : b_last - t0);
          const std::uint64_t tile_pairs = std::uint64_t(a_end - a_begin) * std::uint64_t(t_size);
          if (budget.needs_flush_before(tile_pairs)) {
            flush();
            budget.flushed();
          }
          budget.take(tile_pairs);
          if (Traits::stage_b) {
            Kokkos::parallel_for(Kokkos::TeamThreadRange(team, t_size), [&](int j) {
              const Vec3<T> p = b(t0 + j);
              tile_x(j) = p.x;
              tile_y(j) = p.y;
              tile_z(j) = p.z;
            });
            team.team_barrier();
          }
          auto tile_point = [&](int j) { return Vec3<T>{tile_x(j), tile_y(j), tile_z(j)}; };
          auto first_partner = [&](std::int64_t i) {  // one set: only j > i
            return one_set ? int(i + 1 - t0 > 0 ? (i + 1 - t0 < t_size ? i + 1 - t0 : t_size) : 0)
                           : 0;
          };
          if (Traits::stage_bins) {  // a plain if: CUDA lambdas may not first-capture in if
                                     // constexpr
            for (std::int64_t i = a_begin + team.team_rank(); i < a_end; i += team_size) {
              const Vec3<T> ai = a(i);
              auto bin_of_pair = [&](int j) {
                return range.bin_of(pair_distance(box, ai, tile_point(j)));
              };
              // A branch-free pass the compiler vectorises; the rare unsettled pairs are redone.
              // With direct slots they count in their own slot first, then again where they belong.
              const std::int32_t unsettled_slot = std::int32_t(w_size) + spare_slots;
              const std::int32_t unsettled = direct_slots ? unsettled_slot : -2;
              std::int32_t* __restrict__ bins = staged.data();
              const std::int32_t miss = direct_slots ? std::int32_t(w_size) : -1;
              const std::int32_t miss_step = direct_slots ? 1 : 0;
              // Local copies of the captured box and range, so that the loops vectorise, and two
              // passes: one long loop would leave the core waiting on its dependent steps.
              const Box tile_box = box;
              const HistogramRange<T> tile_range = range;
              const T* __restrict__ xs = tile_x.data();
              const T* __restrict__ ys = tile_y.data();
              const T* __restrict__ zs = tile_z.data();
              T* __restrict__ squared = squared_buffer.data();
              int n_unsettled = 0;
              for (int j = 0; j < t_size; ++j) {
                bool settled;
                const Vec3<T> d = tile_box.wrapped(Vec3<T>{xs[j], ys[j], zs[j]} - ai, settled);
                squared[j] = settled ? norm2(d) : T(-1);
                n_unsettled += settled ? 0 : 1;
              }
              if (staged_fast) {  // unsettled pairs (r^2 = -1) fail the range test: a spare slot
                const T r2_low = staged_r2_low, r2_high = staged_r2_high;
                const std::int32_t last = std::int32_t(w_size) - 1;
                for (int j = 0; j < t_size; ++j) {
                  const T r2 = squared[j];
                  const std::int32_t k =
                      fast_binning::fast_bin_plus_magic(tile_range, math::sqrt(r2)) -
                      fast_binning::magic_bits<T>;
                  bins[j] = r2 >= r2_low && r2 < r2_high ? (k < last ? k : last)
                                                         : miss + (j & (spare_slots - 1));
                }
              } else {
                for (int j = 0; j < t_size; ++j) {
                  const std::int32_t k = tile_range.bin_of(math::sqrt(squared[j]));
                  const std::int32_t slot = k >= 0 ? k : miss + miss_step * (j & (spare_slots - 1));
                  bins[j] = squared[j] >= T(0) ? slot : unsettled;
                }
              }
              if (direct_slots) {
                // Two slots per load: the loop is bound by memory operations, and this saves a
                // quarter.
                std::uint32_t* __restrict__ counts = hist.data();
                int j = first_partner(i);
#ifndef __CUDACC__  // nvcc rejects GCC's pragma
#pragma GCC unroll 4
#endif
                for (; j + 1 < t_size; j += 2) {
                  std::uint64_t two;
                  memcpy(&two, bins + j, sizeof two);
                  ++counts[std::uint32_t(two)];
                  ++counts[two >> 32];
                }
                if (j < t_size) ++counts[bins[j]];
                if (n_unsettled != 0)
                  for (int j = first_partner(i); j < t_size; ++j)
                    if (squared[j] < T(0)) {
                      const std::int32_t k = bin_of_pair(j);
                      ++counts[k >= 0 ? k : unsettled_slot];
                    }
              } else {
                for (int j = first_partner(i); j < t_size; ++j)
                  count(flat_bin(i, t0 + j, bins[j] == unsettled ? bin_of_pair(j) : bins[j]));
              }
            }
          } else {
            // GPUs: each thread keeps its atoms of A in registers, and every thread of the team
            // reads the same B atom at once (a broadcast from L1), so each load serves several
            // pairs. Missing atoms lie at infinity (never in range), and only chunks that overlap
            // the team's A range need the i < j test of one set.
            constexpr int held = Traits::on_host ? 1 : Traits::template a_per_thread<T>;
            auto mine_index = [&](int u) {
              return a_begin + team.team_rank() + std::int64_t(u) * team_size;
            };
            Vec3<T> mine[held];
            for (int u = 0; u < held; ++u)
              mine[u] = mine_index(u) < a_end ? a(mine_index(u)) : Vec3<T>{far, far, far};
            const std::int64_t t_end = t0 + t_size;
            const bool ordered = one_set && t0 < a_end;
            if (fast) {
              // Every pair is binned; one out of the window counts into the lane's spare slot.
              const TeamCounterHandles counters(hist.data());
              const T r2_low = window_r2(w_index), r2_high = window_r2(w_index + 1);
              const std::uint32_t magic_base =
                  counters.of(0) -
                  4 * std::uint32_t(fast_binning::magic_bits<T> + std::int32_t(w_begin));
              const std::uint32_t spare =
                  counters.of(std::uint32_t(w_size) + 1 + team.team_rank() % warp_lanes);
              // From zero (r_min = 0, first window): every r2 passes the lower test and r - r_min
              // is r.
              auto sweep = [&](auto in_order, auto from_zero) {
                constexpr bool kInOrder = decltype(in_order)::value,
                               kFromZero = decltype(from_zero)::value;
                for (std::int64_t j = t0; j < t_end; ++j) {
                  const Vec3<T> bj = b(j);
                  for (int u = 0; u < held; ++u) {
                    const T r2 = norm2(box.minimum_image(bj - mine[u]));
                    const bool take = (kFromZero || r2 >= r2_low) && r2 < r2_high &&
                                      (!kInOrder || j > mine_index(u));
                    const std::uint32_t counter = fast_counter<kFromZero>(range, magic_base, r2);
                    counters.add_one(take ? counter : spare);
                  }
                }
              };
              if (ordered)
                sweep(std::true_type(), std::false_type());
              else if (range.r_min == T(0) && w_begin == 0)
                sweep(std::false_type(), std::true_type());
              else
                sweep(std::false_type(), std::false_type());
            } else if (direct_slots && !ordered) {
              for (std::int64_t j = t0; j < t_end; ++j) {
                const Vec3<T> bj = b(j);
                for (int u = 0; u < held; ++u) {
                  const std::int32_t k = range.bin_of(pair_distance(box, mine[u], bj));
                  if (k >= 0) add_one_to_team_counter(&hist(k));
                }
              }
            } else {
              for (std::int64_t j = t0; j < t_end; ++j) {
                const Vec3<T> bj = b(j);
                for (int u = 0; u < held; ++u)
                  if (mine_index(u) < a_end && (!one_set || j > mine_index(u)))
                    count(
                        flat_bin(mine_index(u), j, range.bin_of(pair_distance(box, mine[u], bj))));
              }
            }
          }
          if (Traits::stage_b) team.team_barrier();
        }
        flush();
      });
  Kokkos::Experimental::contribute(totals, scatter);

  std::vector<std::uint64_t> host_totals(flat_bins);
  Kokkos::deep_copy(detail::HostArray<std::uint64_t>(host_totals.data(), flat_bins), totals);
  for (std::int64_t f = 0; f < flat_bins; ++f) job.counts[f] += host_totals[f];
  return "kokkos: team_size=" + std::to_string(team_size) + " a_tile=" + std::to_string(a_tile) +
         " b_tile=" + std::to_string(b_tile) + " b_chunk=" + std::to_string(b_chunk) +
         " window=" + std::to_string(window) + " passes=" + std::to_string(n_windows);
}

template <class ExecSpace, class T>
std::string pair_histogram_kokkos(const ExecSpace& space, const PairHistogramJob<T>& job) {
  return visit_box<T>(job.box, [&](auto box) { return pair_histogram_kokkos_on(space, job, box); });
}

}  // namespace kmol
