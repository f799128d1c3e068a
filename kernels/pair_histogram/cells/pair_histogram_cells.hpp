#pragma once
// Pair-distance histograms in O(N) with spatial cells, on any Kokkos execution space.
//
// The periodic box is cut into a grid of cells in fractional coordinates, each at least r_max / 2
// thick across every pair of faces, so all partners within r_max of an atom lie within two cells
// of its own along each lattice direction (wrapped): 125 cells at most, whose volume is 0.58 of
// the 27 cells of thickness r_max that would do as well. Cells r_max thick are taken instead
// where the thin ones would hold few atoms (sparse frames): the fixed cost of each cell and run
// of cells then outweighs the pairs they save. Atoms are
// sorted by cell on the device; cells are stored x-fastest, so neighbouring cells along x are one
// contiguous run of the sorted arrays, which consecutive threads read together.
//
// Counts equal the all-pairs implementations' bit for bit: every pair that can count has its
// distance computed as pair_distance does (same operands, same orientation) and binned by
// range.bin_of. In one set each unordered pair is examined once, from whichever of its atoms comes
// first in the sorted order.
//
// Two schemes count the pairs. Atom threads (CPU spaces): a thread per atom of A either takes
// every exact distance in one vectorised loop or screens a tile of partners with a vectorised
// bound first, adding into its thread's 64-bit histograms (64-bit atomics on devices, where
// cell_teams.hpp has the faster scheme).
// Cell teams (devices): a team per cell of A pairs the cell's atoms, staged in scratch, with one
// partner per thread at a time, counting into a 32-bit team histogram.
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <iomanip>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "kernels/cancel_point.hpp"
#include "kernels/empty_view.hpp"
#include "kernels/kept_arrays.hpp"
#include "kernels/openmp_thread_ids.hpp"
#include "kernels/pair_histogram/cells/cell_teams.hpp"
#include "kernels/pair_histogram/cells/pair_counter.hpp"
#include "kernels/pair_histogram/implementations.hpp"
#include "kernels/pair_histogram/job.hpp"
#include "kernels/pair_histogram/slots.hpp"
#include "kmol/core/errors.hpp"

namespace kmol {

// How the cell path counts pairs (see the top of the file); `fastest` picks for the space.
enum class CellScheme { fastest, atom_threads, cell_teams };

// How thick the cells are: at least r_max / 2 or r_max; `fastest` picks for the frame's density.
enum class CellThickness { fastest, half_reach, whole_reach };

namespace cells_detail {

// One thread per atom of A on CPU spaces, adding into private 64-bit histograms, one per
// thread with the spare slots exact_run writes (slots.hpp), summed into the totals at the end.
template <class ExecSpace, class Counter>
void count_with_thread_histograms(const ExecSpace& space, const Counter& counter, std::int32_t n_a,
                                  const TotalsOf<ExecSpace>& totals, KeptArrays<ExecSpace>& kept) {
  renumber_openmp_threads(space);  // the token is the thread's id
  const Kokkos::Experimental::UniqueToken<ExecSpace> token(space);
  const std::int64_t counters = std::int64_t(totals.extent(0)), stride = counters + spare_slots;
  const std::int32_t threads = std::int32_t(token.size());
  const auto counts = kept.template array<unsigned long long>("thread_counts", threads * stride);
  Kokkos::deep_copy(space, counts, 0ull);
  Kokkos::parallel_for(
      "kmol::pair_histogram::cells::count_pairs",
      Kokkos::RangePolicy<ExecSpace, Kokkos::Schedule<Kokkos::Dynamic>,
                          Kokkos::IndexType<std::int32_t>>(space, 0, n_a),
      KOKKOS_LAMBDA(std::int32_t p) {
        if (cancel_seen()) return;
        const std::int32_t id = token.acquire();
        unsigned long long* const own = counts.data() + id * stride;
        counter.count_partners(p, [own](std::int64_t k) { ++own[k]; });
        token.release(id);
      });
  Kokkos::parallel_for(
      "kmol::pair_histogram::cells::sum_thread_counts",
      Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space, 0, counters),
      KOKKOS_LAMBDA(std::int64_t k) {
        unsigned long long sum = 0;
        for (std::int32_t t = 0; t < threads; ++t) sum += counts(t * stride + k);
        totals(k) += sum;
      });
}

// One thread per atom of A on devices, adding with 64-bit atomics in device memory: for
// histograms too wide for the cell teams' scratch.
template <class ExecSpace, class Counter>
void count_with_atomics(const ExecSpace& space, const Counter& counter, std::int32_t n_a,
                        const TotalsOf<ExecSpace>& totals) {
  Kokkos::parallel_for(
      "kmol::pair_histogram::cells::count_pairs",
      Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int32_t>>(space, 0, n_a),
      KOKKOS_LAMBDA(std::int32_t p) {
        counter.count_partners(p, [&](std::int64_t k) { Kokkos::atomic_add(&totals(k), 1ULL); });
      });
}

// The scheme asked for, or the fastest the space allows. Cell teams need scratch for the team
// histogram; devices fall back to 64-bit atomics in device memory.
template <class ExecSpace, class T>
CellScheme resolve_scheme(CellScheme scheme, std::size_t counters) {
  using Scratch = CellTeamScratch<ExecSpace, T>;
  const bool teams_fit = Scratch::bytes(counters) <=
                         math::min(Scratch::max_bytes,
                                   std::size_t(Kokkos::TeamPolicy<ExecSpace>::scratch_size_max(0)));
  if (scheme == CellScheme::fastest)
    return !runs_on_host<ExecSpace> && teams_fit ? CellScheme::cell_teams
                                                 : CellScheme::atom_threads;
  if (scheme == CellScheme::cell_teams && !teams_fit)
    throw UnsupportedError("pair histogram cells: " + std::to_string(counters) +
                           " counters do not fit a team's scratch memory");
  return scheme;
}

// Counts into `totals` with a resolved scheme; says which.
template <class ExecSpace, class T, class Counter>
std::string count_pairs(const ExecSpace& space, const Counter& counter, std::int32_t n_a,
                        const TotalsOf<ExecSpace>& totals, const TotalsOf<ExecSpace>& next_cell,
                        CellScheme scheme, std::uint64_t team_flush_capacity,
                        KeptArrays<ExecSpace>& kept) {
  if (scheme == CellScheme::cell_teams) {
    count_with_cell_teams<ExecSpace, T>(space, counter, totals, next_cell, kept,
                                        team_flush_capacity);
    return "a team per cell, one partner per thread against the cell's atoms, 32-bit team "
           "histograms";
  }
  if constexpr (!runs_on_host<ExecSpace>) {
    count_with_atomics(space, counter, n_a, totals);
    return "screened partners, 64-bit atomic histograms";
  } else {
    count_with_thread_histograms(space, counter, n_a, totals, kept);
    return std::string(Counter::exact_for_all ? "exact distances" : "screened partners") +
           ", per-thread 64-bit histograms";
  }
}

// A set's points in the space's memory: resident points read where they are (the sort copies
// them in cell order anyway), host points copied in.
template <class ExecSpace, class T>
ArrayOf<ExecSpace, const Vec3<T>> points_in(const ExecSpace& space, KeptArrays<ExecSpace>& kept,
                                            const std::string& name, const Vec3<T>* points,
                                            std::int32_t n, bool resident) {
  if (resident) return ArrayOf<ExecSpace, const Vec3<T>>(points, std::size_t(n));
  return kept.copy_in(space, name, points, std::size_t(n));
}

// Each cell and run of cells costs a fixed amount besides its pairs (a cell team takes the cell,
// finds its partners' runs and stages its atoms; an atom thread starts a run per neighbour row):
// below this many atoms of B per half-reach cell, cells of the whole reach (8 times the atoms, 27
// neighbours instead of 125) cost less.
inline constexpr double sparse_cell_atoms = 4;

// The grid's span (CellGrid) for the thickness asked for.
inline std::int32_t cell_span(CellThickness thickness, const BoxSpec& box, double r_max,
                              double margin, std::int64_t n_b) {
  if (thickness == CellThickness::fastest) {
    const CellGrid half = make_cell_grid(box, r_max, margin, std::int64_t(1) << 30, 2);
    thickness = double(n_b) < sparse_cell_atoms * double(half.count()) ? CellThickness::whole_reach
                                                                       : CellThickness::half_reach;
  }
  return thickness == CellThickness::whole_reach ? 1 : 2;
}

inline std::string describe(const CellGrid& grid, std::int64_t n_b, bool one_set) {
  std::ostringstream out;
  out << std::setprecision(4) << "cells " << grid.n[0] << "x" << grid.n[1] << "x" << grid.n[2]
      << " (thickness >= "
      << math::min(grid.thickness[0], math::min(grid.thickness[1], grid.thickness[2])) << ", "
      << double(n_b) / grid.count() << " atoms of B each), "
      << (one_set ? "one set, " : "two sets, ");
  return out.str();
}

}  // namespace cells_detail

// Adds into job.counts the histogram of the pairs of `job` that lie within r_max, examining only
// atoms in neighbouring cells. Runs on any Kokkos execution space (Serial, OpenMP, Cuda). Needs a
// periodic box and fewer than 2^31 atoms per set. `scheme` picks how pairs are counted and
// `thickness` the cells (tests run each on every space); by default the fastest for the space
// and frame. `team_flush_capacity`: the increments a cell team's 32-bit histogram takes between
// flushes; tests lower it to reach the flush without 2^32 pairs.
template <class ExecSpace, class T>
std::string pair_histogram_cells(const ExecSpace& space, const PairHistogramJob<T>& job,
                                 CellScheme scheme = CellScheme::fastest,
                                 CellThickness thickness = CellThickness::fastest,
                                 std::uint64_t team_flush_capacity = private_count_capacity) {
  using namespace cells_detail;
  using Index = ArrayOf<ExecSpace, std::int32_t>;
  if (job.box.kind == BoxKind::none)
    throw UnsupportedError("pair histogram cells: needs a periodic box");
  if (math::max(job.n_a, job.n_b) > std::numeric_limits<std::int32_t>::max())
    throw UnsupportedError("pair histogram cells: more than 2^31 - 1 atoms in a set");
  if (job.pair_count() == 0) return "cells: no pairs";

  const std::int32_t n_a = std::int32_t(job.n_a), n_b = std::int32_t(job.n_b);
  const PairLabels& labels = job.labels;
  typename KeptArrays<ExecSpace>::Lease kept;
  const auto a_xyz = points_in(space, *kept, "a", job.a, n_a, job.resident);
  const auto b_xyz = job.one_set ? a_xyz : points_in(space, *kept, "b", job.b, n_b, job.resident);
  const Index species = kept->copy_in(space, "species", labels.species, labels.species ? n_a : 0);
  const std::int32_t n_pairs = labels.n_species * (labels.n_species + 1) / 2;
  const auto enabled =
      kept->copy_in(space, "enabled", labels.enabled, labels.enabled ? n_pairs : 0);
  const bool exclusions = labels.molecule_a != nullptr;
  const Index molecule_a =
      kept->copy_in(space, "molecule_a", labels.molecule_a, exclusions ? n_a : 0);
  const Index molecule_b =
      job.one_set ? molecule_a
                  : kept->copy_in(space, "molecule_b", labels.molecule_b, exclusions ? n_b : 0);

  double extent = job.extent;
  if (extent < 0) {
    extent = max_abs_coordinate<ExecSpace, T>(space, a_xyz);
    if (!job.one_set) extent = math::max(extent, max_abs_coordinate<ExecSpace, T>(space, b_xyz));
  }
  const double r_max = double(job.range.r_max), margin = rounding_margin<T>(job.box, extent);
  const std::size_t counters = std::size_t(job.n_histograms) * job.range.n_bins;
  scheme = resolve_scheme<ExecSpace, T>(scheme, counters);
  const CellGrid grid =
      make_cell_grid(job.box, r_max, margin, math::min<std::int64_t>(n_b, std::int64_t(1) << 30),
                     cell_span(thickness, job.box, r_max, margin, n_b));
  const AtomExtras extras = scheme == CellScheme::cell_teams    ? AtomExtras::none
                            : exact_for_all_partners<ExecSpace> ? AtomExtras::cells
                                                                : AtomExtras::cells_and_fractions;
  const auto a =
      sort_into_cells<ExecSpace, T>(space, grid, a_xyz, species, molecule_a, *kept, "a.", extras);
  const auto b = job.one_set
                     ? a
                     : sort_into_cells<ExecSpace, T>(space, grid, b_xyz, empty_view<Index>(),
                                                     molecule_b, *kept, "b.", extras);
  PairLabels sorted_labels = labels;
  sorted_labels.species = labels.species ? a.species.data() : nullptr;
  sorted_labels.enabled = labels.enabled ? enabled.data() : nullptr;
  sorted_labels.molecule_a = exclusions ? a.molecule.data() : nullptr;
  sorted_labels.molecule_b = exclusions ? b.molecule.data() : nullptr;

  // Correctly rounded roots are monotonic: a square this far above r_max^2 has a root >= r_max.
  const T cut_squared = T(r_max * r_max * (1 + 16 * double(std::numeric_limits<T>::epsilon())));
  const SlotRule<T> bins = SlotRule<T>::make(job.range);
  const NearBound<T> near = make_near_bound<T>(job.box, r_max, margin);
  // The totals and, after them, the counter cell teams take cells from: one fill zeroes both.
  const auto totals_and_counter = kept->template array<unsigned long long>("totals", counters + 1);
  Kokkos::deep_copy(space, totals_and_counter, 0ull);
  const TotalsOf<ExecSpace> totals(totals_and_counter.data(), counters),
      next_cell(totals_and_counter.data() + counters, 1);
  const auto count = [&](auto box) {
    using Box = decltype(box);
    if (job.one_set)
      return count_pairs<ExecSpace, T>(space,
                                       PairCounter<ExecSpace, T, Box, true>{
                                           box, bins, cut_squared, near, sorted_labels, grid, a, b},
                                       n_a, totals, next_cell, scheme, team_flush_capacity, *kept);
    return count_pairs<ExecSpace, T>(space,
                                     PairCounter<ExecSpace, T, Box, false>{
                                         box, bins, cut_squared, near, sorted_labels, grid, a, b},
                                     n_a, totals, next_cell, scheme, team_flush_capacity, *kept);
  };
  const std::string how = job.box.kind == BoxKind::orthorhombic ? count(OrthorhombicBox<T>(job.box))
                                                                : count(TriclinicBox<T>(job.box));

  // A plain vector rather than a host mirror: initialising a mirror runs on the host space,
  // which Kokkos 3.4 refuses from threads other than the one that initialised it (GPU workers).
  std::vector<unsigned long long> host_totals(totals.extent(0));
  Kokkos::deep_copy(space,
                    Kokkos::View<unsigned long long*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                        host_totals.data(), host_totals.size()),
                    totals);
  space.fence();
  for (std::size_t k = 0; k < host_totals.size(); ++k) job.counts[k] += host_totals[k];
  return describe(grid, n_b, job.one_set) + how;
}

template <>
struct PairHistogramRunner<PairHistogramImpl::cells> {
  template <class ExecSpace, class T>
  static std::string run(const ExecSpace& space, const PairHistogramJob<T>& job) {
    return pair_histogram_cells(space, job);
  }
};

}  // namespace kmol
