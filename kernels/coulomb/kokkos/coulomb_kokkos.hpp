#pragma once
// The portable potential-map engine: one code for every Kokkos backend. One thread per run of
// a few points along x: each atom's y and z distances and its load serve the whole run, whose
// sums sit side by side so that CPUs vectorise over them and GPUs keep them in registers. Direct
// and mdh loop over all atoms. Cutoff groups the runs into regions of a few angstrom and walks,
// for every run of a region, the same atoms: the rows of cells (cell_list.hpp) that come within
// the cutoff of the region, each row cut to the cells in reach, so that a GPU warp reads one atom
// at a time and a CPU thread finds the region's atoms in its cache.
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <type_traits>

#include "kernels/coulomb/evaluator.hpp"
#include "kernels/coulomb/implementations.hpp"
#include "kernels/coulomb/job.hpp"
#include "kernels/coulomb/kokkos/region_runs.hpp"
#include "kernels/coulomb/kokkos/space_atoms.hpp"
#include "kernels/coulomb/point_table.hpp"
#include "kernels/coulomb/vector_terms.hpp"
#include "kernels/kept_arrays.hpp"
#include "kernels/launch_pieces_kokkos.hpp"
#include "kmol/core/vectorise.hpp"

namespace kmol {
namespace coulomb_detail {

template <class ExecSpace, class T>
using Values = Kokkos::View<T*, typename ExecSpace::memory_space>;

// Copies the flat point values back into the job's lattice.
template <class ExecSpace, class T>
void store_points(const ExecSpace& space, KeptArrays<ExecSpace>& kept, const CoulombJob<T>& job,
                  const coulomb::PointTable& table, Values<ExecSpace, T> flat) {
  const std::int64_t counts[3] = {job.counts[0], job.counts[1], job.counts[2]};
  if (table.is_whole(counts)) {
    kept.copy_out(space, job.values, flat, std::size_t(table.points()));
    return;
  }
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), flat);
  for (std::int64_t p = 0; p < table.points(); ++p) {
    std::int64_t ijk[3];
    table.locate(p, ijk);
    job.values[job.index(ijk[0], ijk[1], ijk[2])] = host(p);
  }
}

// Points a thread takes along x: two AVX2 vectors of floats, so that each atom's load and y, z
// distances serve more points (longer runs bring the cutoff more atoms out of reach); mdh runs
// are one vector long, since the faces of its boundary maps normal to x are one point wide.
constexpr int run_length = 16, mdh_run_length = 8;

// Direct runs: 32 points (four registers) on CPUs in single precision, whose registers share
// each atom's scalar work (its load, y and z distance and broadcasts); run_length elsewhere.
template <class ExecSpace, class T>
constexpr int direct_run_length() {
#ifdef KMOL_HOST_VECTORS
  if (Kokkos::SpaceAccessibility<ExecSpace, Kokkos::HostSpace>::accessible &&
      std::is_same_v<T, float>)
    return 2 * run_length;
#endif
  return run_length;
}

// The cutoff's runs: 16 points on CPUs, where a run's atoms are walked by one vector loop (32, as
// the direct runs, measured no faster: longer regions bring more atoms in reach); 8 on
// GPUs, where a region of 8 x 8 x 8 points (at 0.5 A) keeps each thread's atoms in reach closer
// to its points' spheres and leaves registers for more resident warps.
template <class ExecSpace>
constexpr int cutoff_run_length() {
  return Kokkos::SpaceAccessibility<ExecSpace, Kokkos::HostSpace>::accessible ? run_length
                                                                              : mdh_run_length;
}

template <int L, class T>
KOKKOS_INLINE_FUNCTION void run_points(const std::int64_t ijk[3], T h, T (&px)[L], T& py, T& pz) {
  for (int l = 0; l < L; ++l) px[l] = T(ijk[0] + l) * h;
  py = T(ijk[1]) * h;
  pz = T(ijk[2]) * h;
}

template <coulomb::Term K, coulomb::Summation S, class ExecSpace, class T>
void all_atoms(const ExecSpace& space, KeptArrays<ExecSpace>& kept, const CoulombJob<T>& job,
               const coulomb::PointTable& table, Values<ExecSpace, T> out) {
  const auto atoms = coulomb::space_atoms(space, kept, job);
  const std::int64_t n = job.n;
  const T h = job.spacing, kappa = job.kappa;
  // CPUs sum single-precision runs in AVX2 registers with the host kernels' terms
  // (vector_terms.hpp): a plain loop pays a square root and a division a term.
  [[maybe_unused]] constexpr bool host =
      Kokkos::SpaceAccessibility<ExecSpace, Kokkos::HostSpace>::accessible;
  parallel_for_in_pieces(
      "kmol::coulomb::all_atoms", space, table.runs(), "the potential map",
      KOKKOS_LAMBDA(const std::int64_t r) {
        std::int64_t ijk[3], p0;
        const int length = table.locate_run(r, ijk, p0);
        constexpr bool mdh = K == coulomb::Term::mdh;
        constexpr int P = mdh ? mdh_run_length : direct_run_length<ExecSpace, T>();
        T px[P], py, pz;
        run_points(ijk, h, px, py, pz);
        coulomb::Accumulators<T, S, P> sums;
#ifdef KMOL_HOST_VECTORS
        if constexpr (host && !mdh && coulomb::run_lanes<T, P>) {
          coulomb::add_run_terms(
              sums, px, py, pz, 0, n, [&](std::int64_t a) { return atoms(a); },
              [](float) { return true; },
              [](coulomb::VF q, coulomb::VF r2) { return coulomb::direct_terms(q, r2); });
          for (int l = 0; l < length; ++l) out(p0 + l) = sums.value(l);
          return;
        }
#endif
        for (std::int64_t a = 0; a < n; ++a) {
          const coulomb::AtomRecord<T> atom = atoms(a);
          const T dy = atom.y - py, dz = atom.z - pz;
          const T across = math::fma(dy, dy, dz * dz);
          KMOL_VECTORISE
          for (int l = 0; l < P; ++l) {
            const T dx = atom.x - px[l];
            const T r2 = math::fma(dx, dx, across);
            sums.add(l,
                     mdh ? coulomb::mdh_term(atom.q, r2, kappa) : coulomb::direct_term(atom.q, r2));
          }
        }
        for (int l = 0; l < length; ++l) out(p0 + l) = sums.value(l);
      });
}

// Rows of a region along y and z: about 4 A, so that the region's cells in reach hold not many
// more atoms than its points' spheres.
template <class T>
int region_rows(T spacing) {
  return int(std::clamp(std::lround(4.0 / double(spacing)), 1L, 16L));
}

// Cell index of coordinate v along an axis of `cells` cells, clamped to [0, cells - 1] (or the
// whole range outside it, where no atom is).
template <class T>
KOKKOS_INLINE_FUNCTION std::int64_t cell_index(T v, T origin, T per_side, std::int64_t cells) {
  const T c = math::floor((v - origin) * per_side);
  return std::int64_t(math::min(math::max(c, T(-1)), T(cells)));
}

// Distance along one axis between cell c's span and the region's span [lo, hi].
template <class T>
KOKKOS_INLINE_FUNCTION T axis_gap(std::int64_t c, T origin, T side, T lo, T hi) {
  const T cell_lo = origin + T(c) * side, cell_hi = cell_lo + side;
  return math::max(T(0), math::max(cell_lo - hi, lo - cell_hi));
}

template <coulomb::Summation S, class ExecSpace, class T>
void cells(const ExecSpace& space, KeptArrays<ExecSpace>& kept, const CoulombJob<T>& job,
           const coulomb::PointTable& table, Values<ExecSpace, T> out) {
  using Policy = Kokkos::TeamPolicy<ExecSpace>;
  using Member = typename Policy::member_type;
  using Scratch = Kokkos::View<T**, Kokkos::LayoutRight, typename ExecSpace::scratch_memory_space,
                               Kokkos::MemoryUnmanaged>;
  const auto list = coulomb::space_cells(space, kept, job);
  const auto atoms = list.atoms;
  const auto start = list.start;
  const int rows = region_rows(job.spacing), per_region = rows * rows;
  const coulomb::RegionRuns runs = coulomb::RegionRuns::of(table, rows);
  const T h = job.spacing, rc2 = job.cutoff * job.cutoff, inv_rc2 = T(1) / rc2;
  const T side = list.side, per_side = T(1) / side;
  const T o0 = list.origin[0], o1 = list.origin[1], o2 = list.origin[2];
  const std::int64_t n0 = list.cells[0], n1 = list.cells[1], n2 = list.cells[2];
  // Cells are chosen by their spans reaching the region's box within the cutoff, widened by a
  // margin for the rounding of the atoms' cell indices and of the spans: a cell left out holds
  // only atoms whose terms are exactly 0.
  T extent = 0;
  for (int d = 0; d < 3; ++d)
    extent = std::max(extent, std::abs(list.origin[d]) + T(list.cells[d]) * side);
  const T reach = job.cutoff + T(1e-3) * side + T(1e-5) * extent, reach2 = reach * reach;
  // A team per region: one thread per run on GPUs, one thread for all of them on CPUs, which
  // then walks the region's cells once. Each run's partial sums wait in team scratch while the
  // team moves from one row of cells to the next.
  constexpr int P = cutoff_run_length<ExecSpace>();
  constexpr bool compensated = S == coulomb::Summation::compensated;
  constexpr int Slots = compensated ? 2 * P + 2 : P + 2;  // sums, carries, y, z
  constexpr bool host = Kokkos::SpaceAccessibility<ExecSpace, Kokkos::HostSpace>::accessible;
  team_parallel_for_in_pieces(
      "kmol::coulomb::cells", space, runs.runs() / per_region, host ? 1 : per_region,
      Scratch::shmem_size(Slots, per_region), "the potential map",
      KOKKOS_LAMBDA(const Member& team, const std::int64_t region) {
        const std::int64_t first = region * per_region;
        std::int64_t ijk[3], lo[3], hi[3], p0;
        runs.locate(first, ijk, lo, hi, p0);
        const int across_y = int(hi[1] - lo[1] + 1), in_region = across_y * int(hi[2] - lo[2] + 1);
        T px[P];
        for (int l = 0; l < P; ++l) px[l] = T(lo[0] + l) * h;
        Scratch partial(team.team_scratch(0), Slots, per_region);
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, in_region), [&](const int run) {
          for (int s = 0; s < Slots - 2; ++s) partial(s, run) = T(0);
          partial(Slots - 2, run) = T(lo[1] + run % across_y) * h;
          partial(Slots - 1, run) = T(lo[2] + run / across_y) * h;
        });
        team.team_barrier();
        const T box_lo[3] = {T(lo[0]) * h, T(lo[1]) * h, T(lo[2]) * h};
        const T box_hi[3] = {T(hi[0]) * h, T(hi[1]) * h, T(hi[2]) * h};
        const std::int64_t z_first = cell_index(box_lo[2] - reach, o2, per_side, n2),
                           z_last = cell_index(box_hi[2] + reach, o2, per_side, n2);
        for (std::int64_t c2 = math::max(z_first, std::int64_t(0)); c2 <= math::min(z_last, n2 - 1);
             ++c2) {
          const T gz = axis_gap(c2, o2, side, box_lo[2], box_hi[2]);
          const T left_z = reach2 - gz * gz;
          if (left_z < T(0)) continue;
          const T ry = math::sqrt(left_z);
          const std::int64_t y_first = cell_index(box_lo[1] - ry, o1, per_side, n1),
                             y_last = cell_index(box_hi[1] + ry, o1, per_side, n1);
          for (std::int64_t c1 = math::max(y_first, std::int64_t(0));
               c1 <= math::min(y_last, n1 - 1); ++c1) {
            const T gy = axis_gap(c1, o1, side, box_lo[1], box_hi[1]);
            const T left = left_z - gy * gy;
            if (left < T(0)) continue;
            const T rx = math::sqrt(left);
            const std::int64_t x_first =
                math::max(cell_index(box_lo[0] - rx, o0, per_side, n0), std::int64_t(0));
            const std::int64_t x_last =
                math::min(cell_index(box_hi[0] + rx, o0, per_side, n0), n0 - 1);
            if (x_first > x_last) continue;
            // The cells of a row along x are contiguous in the sorted atoms.
            const std::int64_t row = (c2 * n1 + c1) * n0;
            const std::int64_t begin = start(row + x_first), end = start(row + x_last + 1);
            if (begin == end) continue;
            Kokkos::parallel_for(Kokkos::TeamThreadRange(team, in_region), [&](const int run) {
              coulomb::Accumulators<T, S, P> sums;
              for (int l = 0; l < P; ++l) {
                sums.sum[l] = partial(l, run);
                if constexpr (S == coulomb::Summation::compensated)
                  sums.carry[l] = partial(P + l, run);
              }
              const T py = partial(Slots - 2, run), pz = partial(Slots - 1, run);
              // Every point of the run is as far or farther than `across`: past rc2 all its terms
              // are 0. CPUs sum single precision in registers (as all_atoms).
              bool in_registers = false;
#ifdef KMOL_HOST_VECTORS
              if constexpr (host && coulomb::run_lanes<T, P>) {
                coulomb::add_run_terms(
                    sums, px, py, pz, begin, end, [&](std::int64_t a) { return atoms(a); },
                    [&](float across) { return across < rc2; },
                    [&](coulomb::VF q, coulomb::VF r2) {
                      return coulomb::cutoff_terms(q, r2, rc2, inv_rc2);
                    });
                in_registers = true;
              }
#endif
              for (std::int64_t a = begin; a < end && !in_registers; ++a) {
                const coulomb::AtomRecord<T> atom = atoms(a);
                const T dy = atom.y - py, dz = atom.z - pz;
                const T across = math::fma(dy, dy, dz * dz);
                if (!(across < rc2)) continue;
                KMOL_VECTORISE
                for (int l = 0; l < P; ++l) {
                  const T dx = atom.x - px[l];
                  const T r2 = math::fma(dx, dx, across);
                  sums.add(l, coulomb::cutoff_term(atom.q, r2, rc2, inv_rc2));
                }
              }
              for (int l = 0; l < P; ++l) {
                partial(l, run) = sums.sum[l];
                if constexpr (S == coulomb::Summation::compensated)
                  partial(P + l, run) = sums.carry[l];
              }
            });
          }
        }
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, in_region), [&](const int run) {
          std::int64_t run_ijk[3], run_lo[3], run_hi[3], p;
          const int length = runs.locate(first + run % across_y + run / across_y * rows, run_ijk,
                                         run_lo, run_hi, p);
          coulomb::Accumulators<T, S, P> sums;
          for (int l = 0; l < P; ++l) {
            sums.sum[l] = partial(l, run);
            if constexpr (S == coulomb::Summation::compensated) sums.carry[l] = partial(P + l, run);
          }
          for (int l = 0; l < length; ++l) out(p + l) = sums.value(l);
        });
      });
}

}  // namespace coulomb_detail

template <>
struct CoulombRunner<CoulombImpl::kokkos> {
  template <class ExecSpace, class T>
  static std::string run(const ExecSpace& space, const CoulombJob<T>& job) {
    const bool cutoff = job.method == CoulombMethod::cutoff;
    const bool mdh = job.method == CoulombMethod::mdh;
    const int points_per_run = cutoff ? coulomb_detail::cutoff_run_length<ExecSpace>()
                               : mdh  ? coulomb_detail::mdh_run_length
                                      : coulomb_detail::direct_run_length<ExecSpace, T>();
    const auto table = coulomb::PointTable::of(job, points_per_run);
    typename KeptArrays<ExecSpace>::Lease kept;
    const auto kept_out = kept->template array<T>("coulomb_map", std::size_t(table.points()));
    const coulomb_detail::Values<ExecSpace, T> out(kept_out.data(), table.points());
    if (cutoff)
      coulomb::with_summation(job.compensated, [&](auto s) {
        coulomb_detail::cells<decltype(s)::value>(space, *kept, job, table, out);
      });
    else
      coulomb::with_options(mdh, job.compensated, [&](auto k, auto s) {
        coulomb_detail::all_atoms<decltype(k)::value, decltype(s)::value>(space, *kept, job, table,
                                                                          out);
      });
    coulomb_detail::store_points(space, *kept, job, table, out);
    const std::string rows = std::to_string(coulomb_detail::region_rows(job.spacing));
    return std::string("kokkos: ") +
           (cutoff ? "cell rows in reach of regions of " + rows + "x" + rows + " runs"
                   : "all atoms") +
           ", runs of " + std::to_string(points_per_run) + " points per thread";
  }
};

}  // namespace kmol
