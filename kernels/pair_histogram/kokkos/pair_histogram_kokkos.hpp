#pragma once
// The portable pair-histogram engine: one code for every Kokkos backend.
//
// League = (tile of A) x (window of the flattened [histogram][bin] range). A team keeps 32-bit
// counts for its window in scratch memory, streams B through scratch in tiles, and adds its
// counts into a ScatterView of 64-bit totals (duplicated on CPUs, atomic on GPUs) before they
// could wrap and when it is done. Histograms wider than scratch take several windows (passes).
#include <Kokkos_Core.hpp>
#include <Kokkos_ScatterView.hpp>

#include <string>

#include "kernels/pair_histogram/job.hpp"
#include "kernels/pair_histogram/kokkos/traits.hpp"
#include "kmol/core/counters.hpp"

namespace kmol {
namespace detail {

template <class T, class Memory>
Kokkos::View<const Vec3<T>*, Memory> device_copy(const Vec3<T>* host, std::int64_t n,
                                                 const char* label) {
  Kokkos::View<Vec3<T>*, Memory> out(Kokkos::view_alloc(Kokkos::WithoutInitializing, label), n);
  Kokkos::deep_copy(out, Kokkos::View<const Vec3<T>*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(host, n));
  return out;
}

template <class V, class Memory>
Kokkos::View<const V*, Memory> device_copy_or_empty(const V* host, std::int64_t n, const char* label) {
  if (host == nullptr) return {};
  Kokkos::View<V*, Memory> out(Kokkos::view_alloc(Kokkos::WithoutInitializing, label), n);
  Kokkos::deep_copy(out, Kokkos::View<const V*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(host, n));
  return out;
}

}  // namespace detail

template <class ExecSpace, class T, class Box>
std::string pair_histogram_kokkos_on(const ExecSpace& space, const PairHistogramJob<T>& job,
                                     const Box box) {
  using Traits = PairHistogramKokkosTraits<ExecSpace>;
  using Memory = typename ExecSpace::memory_space;
  using Policy = Kokkos::TeamPolicy<ExecSpace>;
  using Member = typename Policy::member_type;
  using Scratch = typename ExecSpace::scratch_memory_space;
  using Unmanaged = Kokkos::MemoryTraits<Kokkos::Unmanaged>;

  const auto a = detail::device_copy<T, Memory>(job.a, job.n_a, "kmol::pair_histogram::a");
  const auto b = job.one_set ? a : detail::device_copy<T, Memory>(job.b, job.n_b, "kmol::pair_histogram::b");
  const auto n_pairs_species = job.labels.n_species * (job.labels.n_species + 1) / 2;
  const auto species = detail::device_copy_or_empty(job.labels.species, job.n_a, "kmol::pair_histogram::species");
  const auto enabled = detail::device_copy_or_empty(job.labels.enabled, n_pairs_species, "kmol::pair_histogram::enabled");
  const auto mol_a = detail::device_copy_or_empty(job.labels.molecule_a, job.n_a, "kmol::pair_histogram::molecule_a");
  const auto mol_b = job.one_set ? mol_a : detail::device_copy_or_empty(job.labels.molecule_b, job.n_b, "kmol::pair_histogram::molecule_b");
  PairLabels labels = job.labels;
  labels.species = species.data();
  labels.enabled = enabled.data();
  labels.molecule_a = mol_a.data();
  labels.molecule_b = mol_b.data();
  const bool plain = labels.trivial();

  const std::int64_t flat_bins = std::int64_t(job.n_histograms) * job.range.n_bins;
  Kokkos::View<std::uint64_t*, Memory> totals("kmol::pair_histogram::totals", flat_bins);
  auto scatter = Kokkos::Experimental::create_scatter_view(totals);

  // Tuner: the histogram window takes what scratch has left after the B tile and bin buffer.
  const int team_size = Traits::team_size;
  const std::int64_t a_tile = std::int64_t(team_size) * Traits::a_per_thread;
  const int b_tile = Traits::b_tile;
  const std::size_t tile_bytes = b_tile * sizeof(Vec3<T>);
  const std::size_t buffer_bytes = Traits::stage_bins ? b_tile * sizeof(std::int32_t) : 0;
  const std::size_t scratch_max = Policy::scratch_size_max(0);
  const std::int64_t window_fit = std::int64_t((scratch_max - tile_bytes - buffer_bytes * team_size) / sizeof(std::uint32_t));
  const std::int64_t window = flat_bins < window_fit ? flat_bins : window_fit;
  const std::int64_t n_windows = (flat_bins + window - 1) / window;
  const std::int64_t n_a_tiles = (job.n_a + a_tile - 1) / a_tile;
  const std::int64_t n_a = job.n_a;
  const std::int64_t n_b = job.n_b;
  const bool one_set = job.one_set;
  const auto range = job.range;
  const std::int32_t n_bins = range.n_bins;

  Policy policy(space, n_a_tiles * n_windows, team_size);
  policy.set_scratch_size(0, Kokkos::PerTeam(window * sizeof(std::uint32_t) + tile_bytes),
                          Kokkos::PerThread(buffer_bytes));

  Kokkos::parallel_for("kmol::pair_histogram::kokkos", policy, KOKKOS_LAMBDA(const Member& team) {
    const std::int64_t a_begin = (team.league_rank() % n_a_tiles) * a_tile;
    const std::int64_t a_end = a_begin + a_tile < n_a ? a_begin + a_tile : n_a;
    const std::int64_t w_begin = (team.league_rank() / n_a_tiles) * window;
    const std::int64_t w_size = w_begin + window < flat_bins ? window : flat_bins - w_begin;
    Kokkos::View<std::uint32_t*, Scratch, Unmanaged> hist(team.team_scratch(0), w_size);
    Kokkos::View<Vec3<T>*, Scratch, Unmanaged> tile(team.team_scratch(0), b_tile);
    Kokkos::View<std::int32_t*, Scratch, Unmanaged> staged(team.thread_scratch(0), Traits::stage_bins ? b_tile : 0);
    auto totals_access = scatter.access();

    auto clear = [&]() {
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, w_size), [&](std::int64_t w) { hist(w) = 0; });
      team.team_barrier();
    };
    auto flush = [&]() {
      team.team_barrier();
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, w_size), [&](std::int64_t w) {
        if (hist(w) != 0) totals_access(w_begin + w) += hist(w);
        hist(w) = 0;
      });
      team.team_barrier();
    };
    auto count = [&](std::int64_t flat) {
      const std::int64_t w = flat - w_begin;
      if (w >= 0 && w < w_size) {
        if (team_size == 1) ++hist(w);
        else Kokkos::atomic_increment(&hist(w));
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
    const std::int64_t b_first = one_set ? a_begin + 1 : 0;
    for (std::int64_t t0 = b_first; t0 < n_b; t0 += b_tile) {
      const int t_size = int(t0 + b_tile < n_b ? b_tile : n_b - t0);
      const std::uint64_t tile_pairs = std::uint64_t(a_end - a_begin) * std::uint64_t(t_size);
      if (budget.needs_flush_before(tile_pairs)) {
        flush();
        budget.flushed();
      }
      budget.take(tile_pairs);
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, t_size), [&](int j) { tile(j) = b(t0 + j); });
      team.team_barrier();
      for (std::int64_t i = a_begin + team.team_rank(); i < a_end; i += team_size) {
        const Vec3<T> ai = a(i);
        const int j_skip = one_set ? int(i + 1 - t0 > 0 ? (i + 1 - t0 < t_size ? i + 1 - t0 : t_size) : 0) : 0;
        if constexpr (Traits::stage_bins) {
          for (int j = 0; j < t_size; ++j) staged(j) = range.bin_of(pair_distance(box, ai, tile(j)));
          for (int j = j_skip; j < t_size; ++j) count(flat_bin(i, t0 + j, staged(j)));
        } else {
          for (int j = j_skip; j < t_size; ++j)
            count(flat_bin(i, t0 + j, range.bin_of(pair_distance(box, ai, tile(j)))));
        }
      }
      team.team_barrier();
    }
    flush();
  });
  Kokkos::Experimental::contribute(totals, scatter);

  auto host_totals = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), totals);
  for (std::int64_t f = 0; f < flat_bins; ++f) job.counts[f] += host_totals(f);
  return "kokkos: team_size=" + std::to_string(team_size) + " a_tile=" + std::to_string(a_tile) +
         " b_tile=" + std::to_string(b_tile) + " window=" + std::to_string(window) +
         " passes=" + std::to_string(n_windows);
}

template <class ExecSpace, class T>
std::string pair_histogram_kokkos(const ExecSpace& space, const PairHistogramJob<T>& job) {
  return visit_box<T>(job.box, [&](auto box) { return pair_histogram_kokkos_on(space, job, box); });
}

}  // namespace kmol
