#pragma once
// The portable pair-histogram engine: one code for every Kokkos backend. The league is cut into
// teams (team_work.hpp), each counting its pairs into a window of the histogram in scratch memory;
// histograms wider than scratch take several windows (passes). How a team sweeps its pairs is the
// backend's: B staged in tiles and bins staged as slots on CPUs (staged_team.hpp), A in registers
// against B straight from memory on GPUs (register_team.hpp), chosen by traits.hpp.
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "kernels/cancel_point.hpp"
#include "kernels/empty_view.hpp"
#include "kernels/openmp_thread_ids.hpp"
#include "kernels/pair_histogram/fast_binning.hpp"
#include "kernels/pair_histogram/implementations.hpp"
#include "kernels/pair_histogram/job.hpp"
#include "kernels/pair_histogram/kokkos/register_team.hpp"
#include "kernels/pair_histogram/kokkos/staged_team.hpp"
#include "kernels/pair_histogram/kokkos/team_work.hpp"
#include "kernels/pair_histogram/kokkos/traits.hpp"
#include "kernels/pair_histogram/kokkos/unit_groups.hpp"
#include "kernels/pair_histogram/species_pairs.hpp"
#include "kernels/pair_histogram/unit_reach.hpp"

namespace kmol {
namespace detail {

// Host arrays as views. Plain vectors, not host mirrors: initialising a mirror runs on the host
// space, which Kokkos 3.4 refuses from threads other than the one that initialised it (the
// trajectory pipeline's GPU worker).
template <class V>
using HostArray = Kokkos::View<V*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>;

// A copy of n host values in Memory; an empty View for a null pointer (an absent label).
template <class Memory, class V>
Kokkos::View<const V*, Memory> device_copy(const V* host, std::int64_t n, const char* label) {
  if (host == nullptr) return empty_view<Kokkos::View<const V*, Memory>>();
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
  using Policy =
      Kokkos::TeamPolicy<ExecSpace, typename Traits::LaunchBounds, typename Traits::Schedule>;
  using Team = std::conditional_t<Traits::stage_bins, StagedBinsTeam<ExecSpace, T, Box>,
                                  RegisterTeam<ExecSpace, T, Box>>;

  // GPUs bin plain histograms the fast way where it is exact, with both sets in Morton order
  // for the work units (register_team.hpp).
  const bool fast =
      !Traits::stage_bins && job.labels.trivial() && fast_binning::fast_kernel_exact(job.range);
  const auto in_order = [&](const auto& points) {
    return fast ? detail::morton_ordered(space, points) : points;
  };
  const auto a = in_order(
      detail::coordinates<Memory>(job.a, job.n_a, job.resident, "kmol::pair_histogram::a"));
  const auto b = job.one_set ? a
                             : in_order(detail::coordinates<Memory>(job.b, job.n_b, job.resident,
                                                                    "kmol::pair_histogram::b"));
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
  PairTotals<ExecSpace> totals("kmol::pair_histogram::totals", flat_bins);

  // Tuner: the histogram window takes what its scratch level has left after what the team
  // stages; histograms wider than a GPU team's share take wide teams (traits.hpp). Windows are of
  // equal size.
  constexpr int level = Traits::histogram_level;
  const std::size_t alignment_slack = 64;  // each scratch allocation is padded to alignment
  const auto window_fit = [&](std::size_t limit, int threads) -> std::int64_t {
    const std::size_t used = level == 0 ? Team::team_bytes + Team::thread_bytes * threads : 0;
    return std::int64_t((limit - used - alignment_slack) / sizeof(std::uint32_t)) -
           Team::slots_past_window;
  };
  const std::size_t level_max = std::size_t(Policy::scratch_size_max(level));
  int team_size = Traits::team_size;
  std::int64_t fit = window_fit(
      Traits::on_host ? level_max : math::min(level_max, Traits::team_shared_bytes), team_size);
  if (!Traits::on_host && flat_bins > fit && window_fit(level_max, Traits::wide_team_size) > fit) {
    team_size = Traits::wide_team_size;
    fit = window_fit(level_max, team_size);
  }
  TeamTiling tiling;
  tiling.n_a = job.n_a;
  tiling.n_b = job.n_b;
  tiling.flat_bins = flat_bins;
  tiling.team_size = team_size;
  tiling.one_set = job.one_set;
  const std::int64_t n_windows = (flat_bins + fit - 1) / fit;
  tiling.window = (flat_bins + n_windows - 1) / n_windows;
  tiling.a_tile = std::int64_t(team_size) * Traits::template a_per_thread<T, Box>;
  tiling.n_a_tiles = (job.n_a + tiling.a_tile - 1) / tiling.a_tile;
  tiling.b_chunk = Traits::b_chunk > 0 && Traits::b_chunk < job.n_b ? Traits::b_chunk
                                                                    : (job.n_b > 0 ? job.n_b : 1);
  tiling.n_b_chunks = std::max<std::int64_t>(1, (job.n_b + tiling.b_chunk - 1) / tiling.b_chunk);

  const TeamJob<ExecSpace, T, Box> common{a,
                                          b,
                                          box,
                                          job.range,
                                          FlatBins{labels, plain, job.range.n_bins},
                                          tiling,
                                          Kokkos::Experimental::create_scatter_view(totals),
                                          cancel_word<ExecSpace>()};
  const bool direct_slots = plain && n_windows == 1;
  const Team team_work = [&] {
    if constexpr (Traits::stage_bins) {
      return Team{common, SlotRule<T>::make(job.range), direct_slots};
    } else {
      Kokkos::View<T*, Memory> window_r2("kmol::pair_histogram::window_r2",
                                         fast ? n_windows + 1 : 0);
      Kokkos::View<T*, Memory> window_r("kmol::pair_histogram::window_r", fast ? n_windows + 1 : 0);
      Team t{common, fast, window_r2, window_r};
      t.direct_slots = direct_slots;
      if (fast) {
        std::vector<T> host_r(std::size_t(n_windows) + 1), host_r2(host_r.size());
        for (std::int64_t w = 0; w <= n_windows; ++w) {
          host_r[w] = job.range.edge(
              std::int32_t(std::min<std::int64_t>(w * tiling.window, job.range.n_bins)));
          host_r2[w] = fast_binning::square_threshold(host_r[w]);
        }
        Kokkos::deep_copy(window_r, detail::HostArray<const T>(host_r.data(), host_r.size()));
        Kokkos::deep_copy(window_r2, detail::HostArray<const T>(host_r2.data(), host_r2.size()));
        t.a_groups =
            detail::group_bounds(space, a, Team::a_group, true, "kmol::pair_histogram::a_groups");
        t.b_runs =
            detail::group_bounds(space, b, Team::b_run, false, "kmol::pair_histogram::b_runs");
        t.limits = unit_reach::box_limits<T>(job.box);
      }
      return t;
    }
  }();

  const std::size_t histogram_bytes =
      (tiling.window + Team::slots_past_window) * sizeof(std::uint32_t) + alignment_slack;
  // Teams [first, end) in one launch, told its first team.
  const auto teams = [&](std::int64_t first, std::int64_t end) {
    Policy policy(space, int(end - first), team_size);
    if (level == 0) {
      policy.set_scratch_size(0, Kokkos::PerTeam(histogram_bytes + Team::team_bytes),
                              Kokkos::PerThread(Team::thread_bytes));
    } else {
      policy.set_scratch_size(0, Kokkos::PerTeam(Team::team_bytes),
                              Kokkos::PerThread(Team::thread_bytes));
      policy.set_scratch_size(1, Kokkos::PerTeam(histogram_bytes));
    }
    Team piece = team_work;
    piece.job.tiling.first_team = first;
    Kokkos::parallel_for("kmol::pair_histogram::kokkos", policy, piece);
  };
  // The league whole (in launches of at most INT_MAX teams, a policy's size): a GPU's teams run
  // for milliseconds, so each launch boundary would idle the device for a team's length while the
  // last ones finish. A cancel stops the teams that have not started (cancel_point.hpp).
  renumber_openmp_threads(space);  // the totals' per-thread copies
  const std::int64_t league = tiling.n_a_tiles * tiling.n_b_chunks * n_windows;
  constexpr std::int64_t launch_max = std::numeric_limits<int>::max();
  for (std::int64_t first = 0; first < league; first += launch_max)
    teams(first, std::min(league, first + launch_max));
  space.fence();
  throw_if_cancelled("the pair histogram");
  Kokkos::Experimental::contribute(totals, team_work.job.totals);

  std::vector<std::uint64_t> host_totals(flat_bins);
  Kokkos::deep_copy(detail::HostArray<std::uint64_t>(host_totals.data(), flat_bins), totals);
  for (std::int64_t f = 0; f < flat_bins; ++f) job.counts[f] += host_totals[f];
  return "kokkos: team_size=" + std::to_string(team_size) +
         " a_tile=" + std::to_string(tiling.a_tile) + " b_tile=" + std::to_string(Team::b_tile) +
         " b_chunk=" + std::to_string(tiling.b_chunk) + " window=" + std::to_string(tiling.window) +
         " passes=" + std::to_string(n_windows);
}

template <class ExecSpace, class T>
std::string pair_histogram_kokkos(const ExecSpace& space, const PairHistogramJob<T>& job) {
  const auto run = [&](const PairHistogramJob<T>& one) {
    return visit_box<T>(one.box,
                        [&](auto box) { return pair_histogram_kokkos_on(space, one, box); });
  };
  // GPUs bin an unlabelled histogram the fast way: species pairs apart where the atoms allow.
  if constexpr (!PairHistogramKokkosTraits<ExecSpace>::stage_bins)
    if (const auto pairs = species_pair_jobs(job); !pairs.empty()) {
      std::string launch;
      for (const auto& pair : pairs) launch = run(pair.job);
      return launch + "; one launch per species pair";
    }
  return run(job);
}

template <>
struct PairHistogramRunner<PairHistogramImpl::kokkos> {
  template <class ExecSpace, class T>
  static std::string run(const ExecSpace& space, const PairHistogramJob<T>& job) {
    return pair_histogram_kokkos(space, job);
  }
};

}  // namespace kmol
