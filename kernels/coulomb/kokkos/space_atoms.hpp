#pragma once
// The atoms as the portable engine reads them, in the execution space's memory: copied from the
// job's host arrays, or, for a resident job, checked and prepared where the caller's arrays are
// with the host preparation's arithmetic (validation.cpp), so both give the same bits. The cutoff
// method's cell list likewise: sorted on the host, or on the space by the same rule (cells of the
// same size, atoms in index order within a cell). Each atom is one record (x, y, z, q), which a
// GPU thread reads with a single load.
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/cell_order_kokkos.hpp"
#include "kernels/coulomb/cell_list.hpp"
#include "kernels/coulomb/job.hpp"
#include "kernels/empty_view.hpp"
#include "kernels/kept_arrays.hpp"
#include "kmol/core/errors.hpp"
#include "kmol/core/math.hpp"

namespace kmol::coulomb {

// Position relative to the lattice origin and charge with the unit factors folded in.
template <class T>
struct alignas(4 * sizeof(T)) AtomRecord {
  T x, y, z, q;
};

template <class T, class Memory>
using SpaceAtoms = Kokkos::View<const AtomRecord<T>*, Memory>;

template <class T, class Memory>
struct SpaceCellList {
  T origin[3] = {}, side = 0;
  std::int64_t cells[3] = {1, 1, 1};
  using Starts = Kokkos::View<const std::int64_t*, Memory>;
  Starts start = empty_view<Starts>();  // cell c: atoms start(c) .. start(c+1)-1
  SpaceAtoms<T, Memory> atoms = empty_view<SpaceAtoms<T, Memory>>();  // in cell order
};

template <class Memory, class V>
Kokkos::View<V*, Memory> uninitialised(const char* label, std::int64_t n) {
  return Kokkos::View<V*, Memory>(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label)), n);
}

// Records of host arrays of coordinates and charges: uploaded as they are (through the kept
// staging ring on GPUs), then interleaved on the space.
template <class ExecSpace, class T>
SpaceAtoms<T, typename ExecSpace::memory_space> records_of(const ExecSpace& space,
                                                           KeptArrays<ExecSpace>& kept,
                                                           const DefaultInitVector<T> (&coords)[3],
                                                           const DefaultInitVector<T>& charges) {
  using Memory = typename ExecSpace::memory_space;
  using Range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  const std::size_t n = charges.size();
  const auto x = kept.copy_in(space, "coulomb_x", coords[0].data(), n);
  const auto y = kept.copy_in(space, "coulomb_y", coords[1].data(), n);
  const auto z = kept.copy_in(space, "coulomb_z", coords[2].data(), n);
  const auto q = kept.copy_in(space, "coulomb_q", charges.data(), n);
  const auto out = kept.template array<AtomRecord<T>>("coulomb_atoms", n);
  Kokkos::parallel_for(
      "kmol::coulomb::records", Range(space, 0, std::int64_t(n)), KOKKOS_LAMBDA(std::int64_t a) {
        out(a) = AtomRecord<T>{x(a), y(a), z(a), q(a)};
      });
  return SpaceAtoms<T, Memory>(out.data(), n);
}

// A resident job's atoms relative to the lattice origin and its charges with the unit (and mdh)
// factors folded in, as prepare_coulomb makes them on the host.
template <class ExecSpace, class T>
SpaceAtoms<T, typename ExecSpace::memory_space> resident_atoms(const ExecSpace& space,
                                                               const CoulombJob<T>& job) {
  using Memory = typename ExecSpace::memory_space;
  using Range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  const std::int64_t n = job.n;
  const Kokkos::View<const Vec3<T>*, Memory, Kokkos::MemoryUnmanaged> positions(job.positions, n);
  const Kokkos::View<const T*, Memory, Kokkos::MemoryUnmanaged> charges(job.input_charges, n);
  std::int64_t first_bad = n;
  Kokkos::parallel_reduce(
      "kmol::coulomb::resident_check", Range(space, 0, n),
      KOKKOS_LAMBDA(std::int64_t a, std::int64_t & bad) {
        const Vec3<T> p = positions(a);
        const T q = charges(a);
        const bool finite =
            p.x - p.x == T(0) && p.y - p.y == T(0) && p.z - p.z == T(0) && q - q == T(0);
        if (!finite && a < bad) bad = a;
      },
      Kokkos::Min<std::int64_t>(first_bad));
  if (first_bad < n)
    throw InputError({"", "atoms", long(first_bad)},
                     "atom " + std::to_string(first_bad) + " has a non-finite position or charge");

  // mdh folds exp(kappa a) / (1 + kappa a) into each charge. The factors come from the host's
  // std::exp (the radii travel there, a quarter of the coordinates' bytes), since the device's
  // exp may round the last bit differently.
  const bool mdh = job.method == CoulombMethod::mdh;
  const double kappa = job.kappa_exact, scale = job.scale;
  auto growth = uninitialised<Memory, double>("kmol::coulomb::mdh_growth", mdh ? n : 0);
  auto denominator = uninitialised<Memory, double>("kmol::coulomb::mdh_denominator", mdh ? n : 0);
  if (mdh) {
    std::vector<T> radii(static_cast<std::size_t>(n));
    Kokkos::deep_copy(
        space,
        Kokkos::View<T*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(radii.data(), std::size_t(n)),
        Kokkos::View<const T*, Memory, Kokkos::MemoryUnmanaged>(job.radii, n));
    space.fence();
    std::vector<double> e(static_cast<std::size_t>(n)), d(e.size());
    for (std::size_t a = 0; a < radii.size(); ++a) {
      e[a] = std::exp(kappa * double(radii[a]));
      d[a] = 1 + kappa * double(radii[a]);
    }
    Kokkos::deep_copy(space, growth,
                      Kokkos::View<const double*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                          e.data(), e.size()));
    Kokkos::deep_copy(space, denominator,
                      Kokkos::View<const double*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                          d.data(), d.size()));
    space.fence();
  }
  auto out = uninitialised<Memory, AtomRecord<T>>("kmol::coulomb::atoms", n);
  const double o0 = job.origin[0], o1 = job.origin[1], o2 = job.origin[2];
  Kokkos::parallel_for(
      "kmol::coulomb::resident_atoms", Range(space, 0, n), KOKKOS_LAMBDA(std::int64_t a) {
        const Vec3<T> p = positions(a);
        const double charge = double(charges(a));
        const double folded = mdh ? charge * growth(a) / denominator(a) : charge;
        out(a) = AtomRecord<T>{T(double(p.x) - o0), T(double(p.y) - o1), T(double(p.z) - o2),
                               T(folded * scale)};
      });
  return out;
}

// The atoms in the execution space's memory, as the job holds them or prepared there.
template <class ExecSpace, class T>
SpaceAtoms<T, typename ExecSpace::memory_space> space_atoms(const ExecSpace& space,
                                                            KeptArrays<ExecSpace>& kept,
                                                            const CoulombJob<T>& job) {
  if (job.resident) return resident_atoms(space, job);
  return records_of(space, kept, job.coords, job.charges);
}

// build_cell_list's cells and order computed on the space from atoms already there: the bounds
// by reduction, the cell of each atom with the same arithmetic, then order_by_cell, whose order
// is the host's counting sort's. The arrays are the call's kept ones.
template <class ExecSpace, class T>
SpaceCellList<T, typename ExecSpace::memory_space> space_cell_list(
    const ExecSpace& space, KeptArrays<ExecSpace>& kept, const CoulombJob<T>& job,
    const SpaceAtoms<T, typename ExecSpace::memory_space>& atoms) {
  using Memory = typename ExecSpace::memory_space;
  using Range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  const std::int64_t n = job.n;
  SpaceCellList<T, Memory> list;
  T lo[3], hi[3];
  for (int d = 0; d < 3; ++d) {
    Kokkos::MinMaxScalar<T> bounds;
    Kokkos::parallel_reduce(
        "kmol::coulomb::cell_bounds", Range(space, 0, n),
        KOKKOS_LAMBDA(std::int64_t a, Kokkos::MinMaxScalar<T> & b) {
          const T c = d == 0 ? atoms(a).x : d == 1 ? atoms(a).y : atoms(a).z;
          if (c < b.min_val) b.min_val = c;
          if (c > b.max_val) b.max_val = c;
        },
        Kokkos::MinMax<T>(bounds));
    lo[d] = bounds.min_val;
    hi[d] = bounds.max_val;
  }
  list.side = cell_side(job, lo, hi);
  for (int d = 0; d < 3; ++d) {
    list.origin[d] = lo[d];
    list.cells[d] = std::int64_t((hi[d] - lo[d]) / list.side) + 1;
  }
  const std::int64_t n0 = list.cells[0], n1 = list.cells[1], n2 = list.cells[2];
  const std::int64_t cells = n0 * n1 * n2;
  const T side = list.side, l0 = lo[0], l1 = lo[1], l2 = lo[2];
  const Kokkos::View<std::int64_t*, Memory> cell_of(
      kept.template array<std::int64_t>("coulomb_cell_of", std::size_t(n)).data(), n);
  Kokkos::parallel_for(
      "kmol::coulomb::cell_of", Range(space, 0, n), KOKKOS_LAMBDA(std::int64_t a) {
        const AtomRecord<T> r = atoms(a);
        const std::int64_t c0 = math::min(n0 - 1, std::int64_t((r.x - l0) / side));
        const std::int64_t c1 = math::min(n1 - 1, std::int64_t((r.y - l1) / side));
        const std::int64_t c2 = math::min(n2 - 1, std::int64_t((r.z - l2) / side));
        cell_of(a) = (c2 * n1 + c1) * n0 + c0;
      });
  const auto sorted = order_by_cell(space, Kokkos::View<const std::int64_t*, Memory>(cell_of),
                                    cells, "kmol::coulomb::cell", kept);
  const auto start = sorted.start, order = sorted.order;
  const Kokkos::View<AtomRecord<T>*, Memory> sorted_atoms(
      kept.template array<AtomRecord<T>>("coulomb_cell_atoms", std::size_t(n)).data(), n);
  Kokkos::parallel_for(
      "kmol::coulomb::cell_gather", Range(space, 0, n),
      KOKKOS_LAMBDA(std::int64_t s) { sorted_atoms(s) = atoms(order(s)); });
  list.start = start;
  list.atoms = sorted_atoms;
  return list;
}

// The cell list in the execution space's memory: sorted on a GPU (a resident job's atoms, or the
// job's uploaded in index order), where the host's serial counting sort would scatter at random
// once the atoms outgrow its caches and then upload them; sorted on the host for a host space.
template <class ExecSpace, class T>
SpaceCellList<T, typename ExecSpace::memory_space> space_cells(const ExecSpace& space,
                                                               KeptArrays<ExecSpace>& kept,
                                                               const CoulombJob<T>& job) {
  using Memory = typename ExecSpace::memory_space;
  if (job.resident) return space_cell_list(space, kept, job, resident_atoms(space, job));
  if constexpr (!Kokkos::SpaceAccessibility<ExecSpace, Kokkos::HostSpace>::accessible)
    return space_cell_list(space, kept, job, records_of(space, kept, job.coords, job.charges));
  const CellList<T> host = build_cell_list(job);
  SpaceCellList<T, Memory> list;
  for (int d = 0; d < 3; ++d) {
    list.origin[d] = host.origin[d];
    list.cells[d] = host.cells[d];
  }
  list.side = host.side;
  const auto start =
      kept.copy_in(space, "coulomb_cell_start", host.start.data(), host.start.size());
  list.start = Kokkos::View<const std::int64_t*, Memory>(start.data(), host.start.size());
  list.atoms = records_of(space, kept, host.coords, host.charges);
  return list;
}

}  // namespace kmol::coulomb
