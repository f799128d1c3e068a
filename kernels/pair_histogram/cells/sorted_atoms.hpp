#pragma once
// Atoms of a set sorted by cell on the execution space, with their fractional coordinates and
// labels in the same order; the Kokkos views the cell path's schemes share.
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "kernels/empty_view.hpp"
#include "kernels/exclusive_sum.hpp"
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
double max_abs_coordinate(const ExecSpace& space, const ArrayOf<ExecSpace, const Vec3<T>>& xyz) {
  double extent = 0;
  Kokkos::parallel_reduce(
      "kmol::pair_histogram::cells::extent",
      Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int32_t>>(space, 0, xyz.extent(0)),
      KOKKOS_LAMBDA(std::int32_t i, double& m) {
        m = math::max(m, double(largest_magnitude(xyz(i))));
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

// Consecutive parts of one kept array, each starting on a 256-byte boundary, handed out in the
// order of the sizes given.
template <class ExecSpace, class V>
class BlockParts {
 public:
  BlockParts(KeptArrays<ExecSpace>& kept, const std::string& name,
             std::initializer_list<std::size_t> sizes)
      : sizes_(sizes) {
    std::size_t total = 0;
    for (const std::size_t n : sizes_) total += padded(n);
    block_ = kept.template array<V>(name, total);
  }
  ArrayOf<ExecSpace, V> next() {
    const std::size_t n = sizes_.at(part_++);
    const ArrayOf<ExecSpace, V> part(block_.data() + used_, n);
    used_ += padded(n);
    return part;
  }

 private:
  static constexpr std::size_t align = 256 / sizeof(V);
  static std::size_t padded(std::size_t n) { return (n + align - 1) / align * align; }
  std::vector<std::size_t> sizes_;
  ArrayOf<ExecSpace, V> block_ = empty_view<ArrayOf<ExecSpace, V>>();
  std::size_t part_ = 0, used_ = 0;
};

// Counting sort by cell: each atom takes a slot in its cell with an atomic increment, the cell
// offsets are the exclusive sum of the counts (exclusive_sum.hpp), and each atom is written to
// offset + slot.
template <class ExecSpace, class T>
SortedAtoms<ExecSpace, T> sort_into_cells(const ExecSpace& space, const CellGrid& grid,
                                          const ArrayOf<ExecSpace, const Vec3<T>>& xyz,
                                          const ArrayOf<ExecSpace, std::int32_t>& species,
                                          const ArrayOf<ExecSpace, std::int32_t>& molecule,
                                          KeptArrays<ExecSpace>& kept, const std::string& set,
                                          AtomExtras extras) {
  // Functors in the launch's parameters (see count_with_cell_teams).
  using Policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int32_t>,
                                     Kokkos::Experimental::WorkItemProperty::HintLightWeight_t>;
  using Index = ArrayOf<ExecSpace, std::int32_t>;
  const std::int32_t n = std::int32_t(xyz.extent(0)), n_cells = grid.count();
  const std::size_t atoms = std::size_t(n), cells = std::size_t(n_cells),
                    cells_of_atoms = extras == AtomExtras::none ? 0 : atoms,
                    fractions = extras == AtomExtras::cells_and_fractions ? atoms : 0;
  // The sort's arrays of each type are parts of one kept array: a call's first run pays each
  // device allocation (about 0.1 ms), more than the sort's kernels take.
  BlockParts<ExecSpace, T> reals(kept, set + "reals",
                                 {atoms, atoms, atoms, fractions, fractions, fractions});
  BlockParts<ExecSpace, std::int32_t> indices(
      kept, set + "indices",
      {atoms, atoms, cells, cells + 1, std::size_t(exclusive_sum_scratch(n_cells)), atoms,
       cells_of_atoms, species.extent(0), molecule.extent(0)});
  const Index cell_of_atom = indices.next(), slot = indices.next(), per_cell = indices.next();
  Kokkos::deep_copy(space, per_cell, 0);
  Kokkos::parallel_for(
      "kmol::pair_histogram::cells::bin_atoms", Policy(space, 0, n), KOKKOS_LAMBDA(std::int32_t i) {
        const std::int32_t c = grid.cell_of(grid.wrapped_fractions(xyz(i).template cast<double>()));
        cell_of_atom(i) = c;
        slot(i) = Kokkos::atomic_fetch_add(&per_cell(c), 1);
      });

  const Index begin = indices.next(), offsets_scratch = indices.next();
  const SortedAtoms<ExecSpace, T> out{reals.next(), reals.next(),   reals.next(),   reals.next(),
                                      reals.next(), reals.next(),   indices.next(), indices.next(),
                                      begin,        indices.next(), indices.next()};
  exclusive_sum(space, "kmol::pair_histogram::cells::cell_offsets", per_cell, out.begin,
                offsets_scratch);

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
