#pragma once
// The portable potential-map engine: one code for every Kokkos backend. One thread per run of
// run_length points along x (flat over the job's blocks): each atom's y and z distances and its
// loads serve the whole run, whose sums sit side by side so that CPUs vectorise over them and
// GPUs keep them in registers. Direct and mdh loop over all atoms, cutoff over the atoms in the
// cells around the run (cell_list.hpp). Every point adds its atoms in the same order as one
// point alone would.
#include <Kokkos_Core.hpp>

#include <string>

#include "kernels/coulomb/evaluator.hpp"
#include "kernels/coulomb/implementations.hpp"
#include "kernels/coulomb/job.hpp"
#include "kernels/coulomb/kokkos/space_atoms.hpp"
#include "kernels/coulomb/point_table.hpp"
#include "kmol/core/vectorise.hpp"

namespace kmol {
namespace coulomb_detail {

// Copies the flat point values back into the job's lattice.
template <class T, class Memory>
void store_points(const CoulombJob<T>& job, const coulomb::PointTable& table,
                  Kokkos::View<T*, Memory> flat) {
  const std::int64_t counts[3] = {job.counts[0], job.counts[1], job.counts[2]};
  Kokkos::View<T*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> whole(job.values, table.points());
  if (table.is_whole(counts)) {
    Kokkos::deep_copy(whole, flat);
    return;
  }
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), flat);
  for (std::int64_t p = 0; p < table.points(); ++p) {
    std::int64_t ijk[3];
    table.locate(p, ijk);
    job.values[job.index(ijk[0], ijk[1], ijk[2])] = host(p);
  }
}

// Points a thread takes along x: one AVX2 vector of floats.
constexpr int run_length = 8;

template <class T>
KOKKOS_INLINE_FUNCTION void run_points(const std::int64_t ijk[3], T h, T (&px)[run_length], T& py,
                                       T& pz) {
  for (int l = 0; l < run_length; ++l) px[l] = T(ijk[0] + l) * h;
  py = T(ijk[1]) * h;
  pz = T(ijk[2]) * h;
}

template <bool Compensated, bool Mdh, class ExecSpace, class T>
void all_atoms(const ExecSpace& space, const CoulombJob<T>& job, const coulomb::PointTable& table,
               Kokkos::View<T*, typename ExecSpace::memory_space> out) {
  const auto atoms = coulomb::space_atoms(space, job);
  const auto x = atoms.x, y = atoms.y, z = atoms.z, q = atoms.q;
  const std::int64_t n = job.n;
  const T h = job.spacing, kappa = job.kappa;
  Kokkos::parallel_for(
      "kmol::coulomb::all_atoms", Kokkos::RangePolicy<ExecSpace>(space, 0, table.runs()),
      KOKKOS_LAMBDA(const std::int64_t r) {
        std::int64_t ijk[3], p0;
        const int length = table.locate_run(r, ijk, p0);
        T px[run_length], py, pz;
        run_points(ijk, h, px, py, pz);
        coulomb::Accumulators<T, Compensated, run_length> sums;
        for (std::int64_t a = 0; a < n; ++a) {
          const T xa = x(a), dy = y(a) - py, dz = z(a) - pz, qa = q(a);
          const T across = math::fma(dy, dy, dz * dz);
          KMOL_VECTORISE
          for (int l = 0; l < run_length; ++l) {
            const T dx = xa - px[l];
            const T r2 = math::fma(dx, dx, across);
            sums.add(l, Mdh ? coulomb::mdh_term(qa, r2, kappa) : coulomb::direct_term(qa, r2));
          }
        }
        for (int l = 0; l < length; ++l) out(p0 + l) = sums.value(l);
      });
}

template <bool Compensated, class ExecSpace, class T>
void cells(const ExecSpace& space, const CoulombJob<T>& job, const coulomb::PointTable& table,
           Kokkos::View<T*, typename ExecSpace::memory_space> out) {
  const auto list = coulomb::space_cells(space, job);
  const auto x = list.atoms.x, y = list.atoms.y, z = list.atoms.z, q = list.atoms.q;
  const auto start = list.start;
  const T h = job.spacing, rc2 = job.cutoff * job.cutoff, inv_rc2 = T(1) / rc2;
  const T side = list.side, o0 = list.origin[0], o1 = list.origin[1], o2 = list.origin[2];
  const std::int64_t n0 = list.cells[0], n1 = list.cells[1], n2 = list.cells[2];
  Kokkos::parallel_for(
      "kmol::coulomb::cells", Kokkos::RangePolicy<ExecSpace>(space, 0, table.runs()),
      KOKKOS_LAMBDA(const std::int64_t r) {
        std::int64_t ijk[3], p0;
        const int length = table.locate_run(r, ijk, p0);
        T px[run_length], py, pz;
        run_points(ijk, h, px, py, pz);
        // The cells of the run's first and last points, clamped to one cell outside the grid:
        // farther cells hold nothing in reach. Atoms out of a point's reach add nothing to it.
        const T fc[3] = {math::floor((px[0] - o0) / side), math::floor((py - o1) / side),
                         math::floor((pz - o2) / side)};
        const T fc_last = math::floor((px[length - 1] - o0) / side);
        const std::int64_t n_c[3] = {n0, n1, n2};
        std::int64_t lo[3], hi[3];
        for (int d = 0; d < 3; ++d) {
          const T c = math::min(math::max(fc[d], T(-2)), T(n_c[d] + 1));
          const T c_last = d == 0 ? math::min(math::max(fc_last, T(-2)), T(n_c[d] + 1)) : c;
          lo[d] = math::max(std::int64_t(c) - 1, std::int64_t(0));
          hi[d] = math::min(std::int64_t(c_last) + 1, n_c[d] - 1);
        }
        coulomb::Accumulators<T, Compensated, run_length> sums;
        for (std::int64_t c2 = lo[2]; c2 <= hi[2]; ++c2)
          for (std::int64_t c1 = lo[1]; c1 <= hi[1]; ++c1) {
            const std::int64_t row = (c2 * n1 + c1) * n0;
            for (std::int64_t a = start(row + lo[0]); a < start(row + hi[0] + 1); ++a) {
              const T xa = x(a), dy = y(a) - py, dz = z(a) - pz, qa = q(a);
              const T across = math::fma(dy, dy, dz * dz);
              KMOL_VECTORISE
              for (int l = 0; l < run_length; ++l) {
                const T dx = xa - px[l];
                const T r2 = math::fma(dx, dx, across);
                sums.add(l, coulomb::cutoff_term(qa, r2, rc2, inv_rc2));
              }
            }
          }
        for (int l = 0; l < length; ++l) out(p0 + l) = sums.value(l);
      });
}

}  // namespace coulomb_detail

template <class ExecSpace, class T>
std::string coulomb_kokkos(const ExecSpace& space, const CoulombJob<T>& job) {
  using Memory = typename ExecSpace::memory_space;
  const auto table = coulomb::PointTable::of(job, coulomb_detail::run_length);
  Kokkos::View<T*, Memory> out(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("kmol::coulomb::values")),
      table.points());
  const bool cutoff = job.method == CoulombMethod::cutoff;
  if (cutoff && job.compensated) coulomb_detail::cells<true>(space, job, table, out);
  if (cutoff && !job.compensated) coulomb_detail::cells<false>(space, job, table, out);
  const bool mdh = job.method == CoulombMethod::mdh;
  if (!cutoff && mdh && job.compensated)
    coulomb_detail::all_atoms<true, true>(space, job, table, out);
  if (!cutoff && mdh && !job.compensated)
    coulomb_detail::all_atoms<false, true>(space, job, table, out);
  if (!cutoff && !mdh && job.compensated)
    coulomb_detail::all_atoms<true, false>(space, job, table, out);
  if (!cutoff && !mdh && !job.compensated)
    coulomb_detail::all_atoms<false, false>(space, job, table, out);
  space.fence();
  coulomb_detail::store_points(job, table, out);
  return std::string("kokkos: ") + (cutoff ? "27-cell list" : "all atoms") + ", runs of " +
         std::to_string(coulomb_detail::run_length) + " points per thread";
}

template <>
struct CoulombRunner<CoulombImpl::kokkos> {
  template <class ExecSpace, class T>
  static std::string run(const ExecSpace& space, const CoulombJob<T>& job) {
    return coulomb_kokkos(space, job);
  }
};

}  // namespace kmol
