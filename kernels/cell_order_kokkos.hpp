#pragma once
// Atoms grouped by cell on any Kokkos space: a count per cell, an exclusive scan for the cell
// starts, a fill by atomic cursors, then each cell's atoms sorted by index, so that the order
// (and every sum taken in it) never depends on the fill's race and equals a host counting sort's.
// The arrays are the call's kept ones (kept_arrays.hpp), named after `label`: on GPUs each
// allocation of its own would be a cudaMalloc and each free a wait for the device.
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>

#include "kernels/empty_view.hpp"
#include "kernels/kept_arrays.hpp"

namespace kmol {

template <class Memory>
struct CellOrder {
  using Indices = Kokkos::View<std::int64_t*, Memory>;
  Indices start = empty_view<Indices>();  // cells + 1: cell c holds order[start(c), start(c+1))
  Indices order = empty_view<Indices>();  // atom indices of the placed atoms, cell by cell
};

// cell_of(a) is atom a's cell in [0, cells), or -1 for an atom no cell takes.
template <class ExecSpace>
CellOrder<typename ExecSpace::memory_space> order_by_cell(
    const ExecSpace& space,
    const Kokkos::View<const std::int64_t*, typename ExecSpace::memory_space>& cell_of,
    std::int64_t cells, const std::string& label, KeptArrays<ExecSpace>& kept) {
  using Memory = typename ExecSpace::memory_space;
  using Range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  using Indices = Kokkos::View<std::int64_t*, Memory>;
  const std::int64_t n = cell_of.extent(0);
  const auto kept_indices = [&](const char* what, std::int64_t size) {
    return Indices(kept.template array<std::int64_t>(label + what, std::size_t(size)).data(), size);
  };
  const Indices cursor = kept_indices("_cursor", cells);
  Kokkos::deep_copy(space, cursor, std::int64_t(0));
  Kokkos::parallel_for(
      label + "_count", Range(space, 0, n), KOKKOS_LAMBDA(std::int64_t a) {
        if (cell_of(a) >= 0) Kokkos::atomic_add(&cursor(cell_of(a)), std::int64_t(1));
      });
  const Indices start = kept_indices("_start", cells + 1);
  std::int64_t placed = 0;
  Kokkos::parallel_scan(
      label + "_starts", Range(space, 0, cells),
      KOKKOS_LAMBDA(std::int64_t c, std::int64_t & before, const bool final) {
        const std::int64_t count = cursor(c);
        if (final) {
          start(c) = before;
          if (c == cells - 1) start(cells) = before + count;
          cursor(c) = 0;
        }
        before += count;
      },
      placed);
  const Indices order = kept_indices("_order", placed);
  Kokkos::parallel_for(
      label + "_fill", Range(space, 0, n), KOKKOS_LAMBDA(std::int64_t a) {
        const std::int64_t cell = cell_of(a);
        if (cell >= 0)
          order(start(cell) + Kokkos::atomic_fetch_add(&cursor(cell), std::int64_t(1))) = a;
      });
  Kokkos::parallel_for(
      label + "_sort", Range(space, 0, cells), KOKKOS_LAMBDA(std::int64_t c) {
        const std::int64_t begin = start(c), end = start(c + 1);
        for (std::int64_t s = begin + 1; s < end; ++s) {  // a cell holds tens to hundreds
          const std::int64_t a = order(s);
          std::int64_t t = s;
          for (; t > begin && order(t - 1) > a; --t) order(t) = order(t - 1);
          order(t) = a;
        }
      });
  return {start, order};
}

}  // namespace kmol
