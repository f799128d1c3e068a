#pragma once
// Verlet neighbour lists with a skin, built on the device from cell lists of edge >= r_c + skin,
// and the force loops over them. Full lists hold every partner of an atom (each atom sums its
// own force, no atomics); half lists hold each pair once, under its lower index, and scatter the
// partner's share through a ScatterView (per-thread copies on CPUs, atomics on GPUs).
// The list is rebuilt only once some atom has moved more than skin / 2 since the last build.
#include <Kokkos_Core.hpp>
#include <Kokkos_ScatterView.hpp>

#include "kernels/empty_view.hpp"
#include "kernels/md/kokkos/cell_list.hpp"
#include "kernels/md/kokkos/forces.hpp"

namespace kmol::md {

enum class ListKind { half, full };

// CPU list builds test the candidates of the whole stencil in batches of this many, so the
// vectorised distance loop runs long even when the (half-width) cells hold a few atoms each.
inline constexpr int build_batch = 256;

#if defined(__CUDA_ARCH__)
#define KMOL_SIMD
#else
#define KMOL_SIMD _Pragma("omp simd")
#endif
// Squared minimum-image distances from xi to the atoms idx[0..m), m <= Capacity, for CPUs: a
// scalar gather into contiguous arrays, then a loop GCC vectorises; the same rounding as norm2 of
// PeriodicBox::displacement.
template <int Capacity, class T>
KOKKOS_INLINE_FUNCTION void squared_distances(const T* xp, Vec3<T> xi, const int* idx, int m,
                                              const PeriodicBox<T>& box_in, T* r2) {
  const PeriodicBox<T> box = box_in;
  T dx[Capacity], dy[Capacity], dz[Capacity];
  for (int a = 0; a < m; ++a) {
    dx[a] = xi.x - xp[3 * idx[a]];
    dy[a] = xi.y - xp[3 * idx[a] + 1];
    dz[a] = xi.z - xp[3 * idx[a] + 2];
  }
  KMOL_SIMD
  for (int a = 0; a < m; ++a) {
    const T x = OrthorhombicBox<T>::wrap(dx[a], box.length.x, box.inverse.x);
    const T y = OrthorhombicBox<T>::wrap(dy[a], box.length.y, box.inverse.y);
    const T z = OrthorhombicBox<T>::wrap(dz[a], box.length.z, box.inverse.z);
    r2[a] = math::fma(x, x, math::fma(y, y, z * z));
  }
}

// Appends to atom i's list those of idx[0..m) within reach (all others for a full list, higher
// indices for a half list), branch-free, and returns the new count (which may pass the capacity).
template <class T, class Table>
KOKKOS_INLINE_FUNCTION int keep_partners(const T* xp, Vec3<T> xi, int i, const int* idx, int m,
                                         const PeriodicBox<T>& box, T reach2, bool half,
                                         const Table& p, int cap, int c) {
  T r2[build_batch];
  squared_distances<build_batch>(xp, xi, idx, m, box, r2);
  for (int a = 0; a < m; ++a) {
    const int j = idx[a];
    if (c < cap) p(i, c) = j;  // kept only if counted below
    c += r2[a] < reach2 && (half ? j > i : j != i);
  }
  return c;
}

template <class ExecSpace, class T>
struct NeighbourList {
  using Ty = Types<ExecSpace, T>;
  ListKind kind = ListKind::full;
  typename Ty::Table partners = empty_view<typename Ty::Table>();  // [atom][k]
  // order: atoms cell after cell, for locality
  typename Ty::Ints counts = empty_view<typename Ty::Ints>(),
                    order = empty_view<typename Ty::Ints>();
  typename Ty::Vectors x_at_build = empty_view<typename Ty::Vectors>();
  CellList<ExecSpace, T> cells;
  int capacity = 0;
  std::int64_t builds = 0;

  void build(const ExecSpace& space, const typename Ty::Vectors& x, Vec3<double> box_length,
             PeriodicBox<T> box, double reach) {
    const int n = int(x.extent(0));
    cells.build(space, x, box_length, reach, Traits<ExecSpace>::list_cell_span);
    if (int(counts.extent(0)) != n) {
      counts = typename Ty::Ints(std::string("md::neighbour_counts"), n);
      x_at_build = typename Ty::Vectors(std::string("md::x_at_build"), n);
    }
    order = cells.atoms;
    Kokkos::deep_copy(space, x_at_build, x);
    if (capacity == 0)
      capacity = kind == ListKind::full ? 96 : 56;  // LJ liquid near 0.85 needs ~78 / ~39
    for (;;) {
      if (int(partners.extent(0)) != n || int(partners.extent(1)) != capacity)
        partners = typename Ty::Table(
            Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("md::neighbours")), n,
            capacity);
      const int most = fill(space, x, box, T(reach * reach));
      if (most <= capacity) break;
      capacity = most + most / 8 + 8;
    }
    ++builds;
  }

  // Largest squared distance any atom has moved since the build, reduced on the device.
  T largest_move2(const ExecSpace& space, const typename Ty::Vectors& x, PeriodicBox<T> box) const {
    const auto x0 = x_at_build;
    const auto xs = x;
    T most = 0;
    Kokkos::parallel_reduce(
        "kmol::md::neighbours::moved", Kokkos::RangePolicy<ExecSpace>(space, 0, int(x.extent(0))),
        KOKKOS_LAMBDA(int i, T& m) {
          const T d2 = norm2(box.displacement(load<T>(xs, i), load<T>(x0, i)));
          if (d2 > m) m = d2;
        },
        Kokkos::Max<T>(most));
    return most;
  }

  // Writes the lists (as many as fit) and returns the longest. (Public: CUDA lambdas cannot live in
  // private member functions.)
  int fill(const ExecSpace& space, const typename Ty::Vectors& x, PeriodicBox<T> box, T reach2) {
    const auto g = cells.grid;
    const auto of = cells.cell_of_atom, off = cells.offsets, at = cells.atoms;
    const auto xs = x;
    const auto p = partners;
    const auto cnt = counts;
    const int cap = capacity;
    const bool half = kind == ListKind::half;
    constexpr bool on_host = Traits<ExecSpace>::on_host;
    int most = 0;
    Kokkos::parallel_reduce(
        "kmol::md::neighbours::build", Kokkos::RangePolicy<ExecSpace>(space, 0, int(x.extent(0))),
        KOKKOS_LAMBDA(int k, int& longest) {
          const int i = at(k);
          const Vec3<T> xi = load<T>(xs, i);
          int c = 0;
          if (on_host) {
            // Stencil cells by coordinates (no integer division per cell), their
            // atoms batched for the vectorised distance test.
            int idx[build_batch];
            int filled = 0;
            const int w = g.span, cell_i = of(i);
            const int cx = cell_i % g.n[0], cy = cell_i / g.n[0] % g.n[1],
                      cz = cell_i / (g.n[0] * g.n[1]);
            for (int oz = -w; oz <= w; ++oz)
              for (int oy = -w; oy <= w; ++oy) {
                const int row = g.n[0] * (g.wrap(cy + oy, 1) + g.n[1] * g.wrap(cz + oz, 2));
                for (int ox = -w; ox <= w; ++ox) {
                  const int cell = row + g.wrap(cx + ox, 0);
                  for (int b = off(cell), e = off(cell + 1); b < e;) {
                    const int take = e - b < build_batch - filled ? e - b : build_batch - filled;
                    for (int a = 0; a < take; ++a) idx[filled + a] = at(b + a);
                    filled += take;
                    b += take;
                    if (filled == build_batch) {
                      c = keep_partners(xs.data(), xi, i, idx, filled, box, reach2, half, p, cap,
                                        c);
                      filled = 0;
                    }
                  }
                }
              }
            c = keep_partners(xs.data(), xi, i, idx, filled, box, reach2, half, p, cap, c);
          } else {
            for (int m = 0; m < g.stencil(); ++m) {
              const int cell = g.neighbour(of(i), m);
              for (int a = off(cell); a < off(cell + 1); ++a) {
                const int j = at(a);
                if (half ? j <= i : j == i) continue;
                if (norm2(box.displacement(xi, load<T>(xs, j))) < reach2) {
                  if (c < cap) p(i, c) = j;
                  ++c;
                }
              }
            }
          }
          cnt(i) = c;
          if (c > longest) longest = c;
        },
        Kokkos::Max<int>(most));
    return most;
  }
};

template <class ExecSpace, class T>
void neighbour_forces(const ExecSpace& space, const typename Types<ExecSpace, T>::Vectors& x,
                      const NeighbourList<ExecSpace, T>& list, const ForceOutput<ExecSpace, T>& out,
                      PeriodicBox<T> box, ShiftedForceLJ<T> lj) {
  const auto xs = x;
  const auto p = list.partners;
  const auto cnt = list.counts;
  const auto order = list.order;
  const auto o = out;
  const int n = int(x.extent(0));
  constexpr bool on_host = Traits<ExecSpace>::on_host;
  if (list.kind == ListKind::full) {
    Kokkos::parallel_for(
        "kmol::md::neighbours::full", Kokkos::RangePolicy<ExecSpace>(space, 0, n),
        KOKKOS_LAMBDA(int k) {
          const int i = order(k);
          const Vec3<T> xi = load<T>(xs, i);
          PairSum<T> s;
          const int m = cnt(i);
          if (on_host) {
            T dx[sweep_chunk], dy[sweep_chunk], dz[sweep_chunk];
            for (int a0 = 0; a0 < m; a0 += sweep_chunk)
              sweep_partners<false>(xs.data(), xi, &p(i, a0),
                                    m - a0 < sweep_chunk ? m - a0 : sweep_chunk, box, lj, s, dx, dy,
                                    dz, dx);
          } else {
            for (int a = 0; a < m; ++a) s.add(lj, box.displacement(xi, load<T>(xs, p(i, a))));
          }
          store_full<ExecSpace>(o, i, s);
        });
    return;
  }
  auto forces = out.f;
  Kokkos::deep_copy(space, forces, T(0));
  // Per-thread copies or atomics, whichever the backend's default is.
  using Scatter = Kokkos::Experimental::ScatterView<
      T* [3], typename Types<ExecSpace, T>::Vectors::array_layout,
      Kokkos::Device<ExecSpace, typename ExecSpace::memory_space>>;
  Scatter scatter(forces);
  scatter.reset_except(space, forces);
  Kokkos::parallel_for(
      "kmol::md::neighbours::half", Kokkos::RangePolicy<ExecSpace>(space, 0, n),
      KOKKOS_LAMBDA(int k) {
        auto f = scatter.access();
        const int i = order(k);
        const Vec3<T> xi = load<T>(xs, i);
        PairSum<T> s;
        const int m = cnt(i);
        if (on_host) {
          // Vectorised pair terms a chunk at a time, then the partners' shares scattered one by
          // one.
          T fr[sweep_chunk], dx[sweep_chunk], dy[sweep_chunk], dz[sweep_chunk];
          for (int a0 = 0; a0 < m; a0 += sweep_chunk) {
            const int c = m - a0 < sweep_chunk ? m - a0 : sweep_chunk;
            sweep_partners<true>(xs.data(), xi, &p(i, a0), c, box, lj, s, dx, dy, dz, fr);
            for (int a = 0; a < c; ++a) {
              const int j = p(i, a0 + a);
              f(j, 0) -= fr[a] * dx[a];
              f(j, 1) -= fr[a] * dy[a];
              f(j, 2) -= fr[a] * dz[a];
            }
          }
        } else {
          for (int a = 0; a < m; ++a) {
            const int j = p(i, a);
            const Vec3<T> d = box.displacement(xi, load<T>(xs, j));
            const T r2 = norm2(d);
            if (r2 < lj.cutoff2) {
              T f_over_r, e;
              lj.evaluate(r2, f_over_r, e);
              const Vec3<T> fij = f_over_r * d;
              s.f = s.f + fij;
              s.energy += e;
              s.virial = math::fma(f_over_r, r2, s.virial);
              f(j, 0) -= fij.x;
              f(j, 1) -= fij.y;
              f(j, 2) -= fij.z;
            }
          }
        }
        f(i, 0) += s.f.x;
        f(i, 1) += s.f.y;
        f(i, 2) += s.f.z;
        o.energy(i) = s.energy;
        o.virial(i) = s.virial;
      });
  Kokkos::Experimental::contribute(space, forces, scatter);
}

}  // namespace kmol::md
