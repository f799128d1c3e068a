#pragma once
// Atoms of a set sorted by cell on the execution space, with their fractional coordinates and
// labels in the same order; the Kokkos views the cell path's schemes share.
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>

#include "kernels/empty_view.hpp"
#include "kernels/kept_arrays.hpp"
#include "kernels/pair_histogram/cells/cell_grid.hpp"
#include "kmol/core/execution_space.hpp"

namespace kmol {
namespace cells_detail {

template <class ExecSpace>
using DeviceOf = Kokkos::Device<ExecSpace, typename ExecSpace::memory_space>;
template <class ExecSpace, class V>
using ArrayOf = Kokkos::View<V*, DeviceOf<ExecSpace>>;
template <class ExecSpace>
using TotalsOf = Kokkos::View<unsigned long long*, Kokkos::LayoutRight, DeviceOf<ExecSpace>>;
template <class ExecSpace, class V>
using ScratchOf =
    Kokkos::View<V*, typename ExecSpace::scratch_memory_space, Kokkos::MemoryUnmanaged>;

template <class ExecSpace, class T>
double max_abs_coordinate(const ExecSpace& space, const ArrayOf<ExecSpace, Vec3<T>>& xyz) {
  double extent = 0;
  Kokkos::parallel_reduce(
      "kmol::pair_histogram::cells::extent",
      Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int32_t>>(space, 0, xyz.extent(0)),
      KOKKOS_LAMBDA(std::int32_t i, double& m) {
        const Vec3<T> x = xyz(i);
        const T largest =
            math::max(math::max(math::max(x.x, -x.x), math::max(x.y, -x.y)), math::max(x.z, -x.z));
        m = math::max(m, double(largest));
      },
      Kokkos::Max<double>(extent));
  return extent;
}

// What a scheme reads of each sorted atom besides its position, index and labels: its cell (atom
// threads) and its fractional coordinates (the screen).
enum class AtomExtras { none, cells, cells_and_fractions };

// Atoms in cell order: position p holds original atom index(p) of cell cell(p); cell c's atoms
// are positions [begin(c), begin(c + 1)). Fractional coordinates and labels follow the same order;
// cells and fractions are left empty where the scheme does not read them (AtomExtras).
template <class ExecSpace, class T>
struct SortedAtoms {
  using Reals = ArrayOf<ExecSpace, T>;
  using Indices = ArrayOf<ExecSpace, std::int32_t>;
  Reals x = empty_view<Reals>(), y = empty_view<Reals>(), z = empty_view<Reals>();
  // Wrapped fractional coordinates, for the screen.
  Reals fx = empty_view<Reals>(), fy = empty_view<Reals>(), fz = empty_view<Reals>();
  Indices index = empty_view<Indices>(), cell = empty_view<Indices>(),
          begin = empty_view<Indices>();
  // Empty without labels.
  Indices species = empty_view<Indices>(), molecule = empty_view<Indices>();

  KOKKOS_INLINE_FUNCTION Vec3<T> position(std::int32_t p) const { return {x(p), y(p), z(p)}; }
};

// Counting sort by cell: each atom takes a slot in its cell with an atomic increment, the cell
// offsets are the exclusive sum of the counts, and each atom is written to offset + slot.
template <class ExecSpace, class T>
SortedAtoms<ExecSpace, T> sort_into_cells(const ExecSpace& space, const CellGrid& grid,
                                          const ArrayOf<ExecSpace, Vec3<T>>& xyz,
                                          const ArrayOf<ExecSpace, std::int32_t>& species,
                                          const ArrayOf<ExecSpace, std::int32_t>& molecule,
                                          KeptArrays<ExecSpace>& kept, const std::string& set,
                                          AtomExtras extras) {
  using Policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int32_t>>;
  using Index = ArrayOf<ExecSpace, std::int32_t>;
  const std::int32_t n = std::int32_t(xyz.extent(0)), n_cells = grid.count();
  const auto reals = [&](const char* label, std::size_t size) {
    return kept.template array<T>(set + label, size);
  };
  const auto indices = [&](const char* label, std::size_t size) {
    return kept.template array<std::int32_t>(set + label, size);
  };
  const Index cell_of_atom = indices("cell_of_atom", n), slot = indices("slot", n),
              per_cell = indices("per_cell", n_cells);
  Kokkos::deep_copy(space, per_cell, 0);
  Kokkos::parallel_for(
      "kmol::pair_histogram::cells::bin_atoms", Policy(space, 0, n), KOKKOS_LAMBDA(std::int32_t i) {
        const std::int32_t c = grid.cell_of(grid.wrapped_fractions(xyz(i).template cast<double>()));
        cell_of_atom(i) = c;
        slot(i) = Kokkos::atomic_fetch_add(&per_cell(c), 1);
      });

  const std::int32_t n_cells_of_atoms = extras == AtomExtras::none ? 0 : n;
  const std::int32_t n_fractions = extras == AtomExtras::cells_and_fractions ? n : 0;
  const SortedAtoms<ExecSpace, T> out{reals("x", n),
                                      reals("y", n),
                                      reals("z", n),
                                      reals("fx", n_fractions),
                                      reals("fy", n_fractions),
                                      reals("fz", n_fractions),
                                      indices("index", n),
                                      indices("cell", n_cells_of_atoms),
                                      indices("begin", std::size_t(n_cells) + 1),
                                      indices("species", species.extent(0)),
                                      indices("molecule", molecule.extent(0))};
  Kokkos::parallel_scan(
      "kmol::pair_histogram::cells::cell_offsets", Policy(space, 0, n_cells + 1),
      KOKKOS_LAMBDA(std::int32_t c, std::int32_t & offset, bool final) {
        if (final) out.begin(c) = offset;
        if (c < n_cells) offset += per_cell(c);
      });

  Kokkos::parallel_for(
      "kmol::pair_histogram::cells::scatter_atoms", Policy(space, 0, n),
      KOKKOS_LAMBDA(std::int32_t i) {
        const std::int32_t c = cell_of_atom(i), p = out.begin(c) + slot(i);
        const Vec3<T> x = xyz(i);
        out.x(p) = x.x;
        out.y(p) = x.y;
        out.z(p) = x.z;
        out.index(p) = i;
        if (out.cell.extent(0) != 0) out.cell(p) = c;
        if (out.fx.extent(0) != 0) {
          const Vec3<double> f = grid.wrapped_fractions(x.template cast<double>());
          out.fx(p) = T(f.x);
          out.fy(p) = T(f.y);
          out.fz(p) = T(f.z);
        }
        if (out.species.extent(0) != 0) out.species(p) = species(i);
        if (out.molecule.extent(0) != 0) out.molecule(p) = molecule(i);
      });
  return out;
}

}  // namespace cells_detail
}  // namespace kmol
