#pragma once
// Cell lists built on the device: atoms binned into cells of edge >= a given reach, stored cell
// after cell (counts, a prefix sum, a scatter, then each cell sorted by atom index so the order,
// and with it every sum over neighbours, is the same on every run).
#include <Kokkos_Core.hpp>

#include <cmath>

#include "kernels/empty_view.hpp"
#include "kernels/md/kokkos/traits.hpp"

namespace kmol::md {

// Cells of edge >= reach / span: every partner within reach lies within `span` cells along each
// axis, a stencil of (2 span + 1)^3 cells. Smaller cells (span 2) examine fewer candidates (125
// cells of (reach/2)^3 against 27 of reach^3); the box must hold 2 span + 1 cells per side.
template <class T>
struct CellGrid {
  int n[3] = {1, 1, 1};
  int span = 1;
  Vec3<T> scale;  // cells per unit length

  static CellGrid covering(Vec3<double> box, double reach, int span = 1) {
    CellGrid g;
    g.span = span;
    const double l[3] = {box.x, box.y, box.z};
    double s[3];
    for (int d = 0; d < 3; ++d) {
      g.n[d] = int(std::floor(l[d] * span / reach));
      s[d] = g.n[d] / l[d];
    }
    g.scale = Vec3<double>{s[0], s[1], s[2]}.cast<T>();
    return g;
  }
  KOKKOS_INLINE_FUNCTION int count() const { return n[0] * n[1] * n[2]; }
  // Clamped before the conversion: a coordinate far outside the box, or NaN after a blown-up
  // step, would overflow int.
  KOKKOS_INLINE_FUNCTION int cell_of(Vec3<T> p) const {
    return along(p.x * scale.x, 0) +
           n[0] * (along(p.y * scale.y, 1) + n[1] * along(p.z * scale.z, 2));
  }
  KOKKOS_INLINE_FUNCTION int along(T scaled, int d) const {
    return !(scaled > T(0)) ? 0 : int(math::min(scaled, T(n[d] - 1)));
  }
  // Cell coordinate v along axis d, wrapped periodically (|v| stays within a stencil of the box).
  KOKKOS_INLINE_FUNCTION int wrap(int v, int d) const {
    return v < 0 ? v + n[d] : v >= n[d] ? v - n[d] : v;
  }
  KOKKOS_INLINE_FUNCTION int stencil() const {
    return (2 * span + 1) * (2 * span + 1) * (2 * span + 1);
  }
  // The k-th (0..stencil()-1) of the cells around c, c included, wrapped (n >= 2 span + 1 makes
  // them distinct).
  KOKKOS_INLINE_FUNCTION int neighbour(int c, int k) const {
    const int w = 2 * span + 1;
    int x = c % n[0] + k % w - span, y = c / n[0] % n[1] + k / w % w - span,
        z = c / (n[0] * n[1]) + k / (w * w) - span;
    x = x < 0 ? x + n[0] : x >= n[0] ? x - n[0] : x;
    y = y < 0 ? y + n[1] : y >= n[1] ? y - n[1] : y;
    z = z < 0 ? z + n[2] : z >= n[2] ? z - n[2] : z;
    return x + n[0] * (y + n[1] * z);
  }
};

template <class ExecSpace, class T>
struct CellList {
  using Ints = typename Types<ExecSpace, T>::Ints;
  CellGrid<T> grid;
  // atoms: indices cell after cell; offsets: ncells + 1
  Ints cell_of_atom = empty_view<Ints>(), offsets = empty_view<Ints>(), atoms = empty_view<Ints>(),
       cursor = empty_view<Ints>();

  void build(const ExecSpace& space, const typename Types<ExecSpace, T>::Vectors& x,
             Vec3<double> box, double reach, int span = 1) {
    const int n = int(x.extent(0));
    grid = CellGrid<T>::covering(box, reach, span);
    const int cells = grid.count();
    if (int(cell_of_atom.extent(0)) != n) {
      cell_of_atom =
          Ints(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("md::cell_of_atom")), n);
      atoms =
          Ints(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("md::cell_atoms")), n);
    }
    if (int(cursor.extent(0)) != cells) {
      cursor = Ints(std::string("md::cell_cursor"), cells);
      offsets = Ints(std::string("md::cell_offsets"), cells + 1);
    }
    Kokkos::deep_copy(space, cursor, 0);
    const auto g = grid;
    const Ints of = cell_of_atom, cur = cursor, off = offsets, at = atoms;
    const auto xs = x;
    Kokkos::parallel_for(
        "kmol::md::cells::count", Kokkos::RangePolicy<ExecSpace>(space, 0, n),
        KOKKOS_LAMBDA(int i) {
          const int c = g.cell_of(load<T>(xs, i));
          of(i) = c;
          Kokkos::atomic_add(&cur(c), 1);
        });
    Kokkos::parallel_scan(
        "kmol::md::cells::offsets", Kokkos::RangePolicy<ExecSpace>(space, 0, cells),
        KOKKOS_LAMBDA(int c, int& partial, bool final) {
          const int here = cur(c);
          if (final) {
            off(c) = partial;
            if (c == cells - 1) off(cells) = partial + here;
          }
          partial += here;
        });
    Kokkos::deep_copy(space, cursor, 0);
    Kokkos::parallel_for(
        "kmol::md::cells::fill", Kokkos::RangePolicy<ExecSpace>(space, 0, n), KOKKOS_LAMBDA(int i) {
          const int c = of(i);
          at(off(c) + Kokkos::atomic_fetch_add(&cur(c), 1)) = i;
        });
    Kokkos::parallel_for(
        "kmol::md::cells::sort", Kokkos::RangePolicy<ExecSpace>(space, 0, cells),
        KOKKOS_LAMBDA(int c) {
          for (int a = off(c) + 1; a < off(c + 1); ++a) {
            const int v = at(a);
            int b = a - 1;
            for (; b >= off(c) && at(b) > v; --b) at(b + 1) = at(b);
            at(b + 1) = v;
          }
        });
  }
};

}  // namespace kmol::md
