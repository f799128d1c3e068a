#pragma once
// Verlet neighbour lists with a skin, built on the device from cell lists (edge >= r_c + skin on
// GPUs, half that on CPUs), and the force loops over them. Full lists hold every partner of an
// atom (each atom sums its own force, no atomics); half lists hold each pair once (on CPUs under
// the atom earlier in cell order, which balances the lists and halves the stencil a build scans;
// on GPUs under the lower index) and scatter the partner's share through a ScatterView
// (per-thread copies on CPUs, atomics on GPUs).
// The list is rebuilt only once some atom has moved more than skin / 2 since the last build.
#include <Kokkos_Core.hpp>
#include <Kokkos_ScatterView.hpp>

#include "kernels/empty_view.hpp"
#include "kernels/md/kokkos/cell_list.hpp"
#include "kernels/md/kokkos/forces.hpp"
#include "kernels/md/kokkos/sweep_registers.hpp"
#include "kernels/openmp_thread_ids.hpp"

namespace kmol::md {

enum class ListKind { half, full };

// CPU list builds read positions copied in cell order, one array per axis, so that the candidates
// in a row of cells along x are one contiguous run of slots (two where the row wraps round the
// box), tested up to build_batch at a time by a loop GCC vectorises; the loop runs over whole
// registers of build_lanes slots (the slot arrays are padded that far).
inline constexpr int build_batch = 256, build_lanes = 8;

#if defined(__CUDA_ARCH__)
#define KMOL_SIMD
#else
#define KMOL_SIMD _Pragma("omp simd")
#endif
// The periodic image a cell coordinate v of a stencil refers to: -1 below the box, +1 above it.
template <class T>
KOKKOS_INLINE_FUNCTION T image_of(int v, int n) {
  return v < 0 ? T(-1) : v >= n ? T(1) : T(0);
}

// Appends to the list `out` of the atom in slot k the atoms of the slots [b, e) within reach (all
// others for a full list, those of later slots for a half list), branch-free, and returns the new
// count (which may pass the capacity). The run lies `image` box lengths away from slot k along each
// axis: d - image L is the minimum image d's wrap gives for every partner within reach (the
// stencil reaches less than half the box beyond it), so the distances, and with them the lists,
// are the minimum image's exactly.
template <class T>
KOKKOS_INLINE_FUNCTION int keep_run(const T* px, const T* py, const T* pz, const int* slot_atom,
                                    int b, int e, Vec3<T> xi, Vec3<T> image, int k, bool half,
                                    const PeriodicBox<T>& box_in, T reach2, int* out, int cap,
                                    int c) {
  const PeriodicBox<T> box = box_in;  // a local copy: GCC does not vectorise through the reference
  if (half && b <= k) b = k + 1;
  for (int a0 = b; a0 < e; a0 += build_batch) {
    const int m = e - a0 < build_batch ? e - a0 : build_batch;
    const int whole = (m + build_lanes - 1) / build_lanes * build_lanes;
    int kept[build_batch];
    KMOL_SIMD
    for (int l = 0; l < whole; ++l) {  // slots past e (padding, other cells) are never read
      const int s = a0 + l;
      const T x = math::fma(-image.x, box.length.x, xi.x - px[s]);
      const T y = math::fma(-image.y, box.length.y, xi.y - py[s]);
      const T z = math::fma(-image.z, box.length.z, xi.z - pz[s]);
      const T r2 = math::fma(x, x, math::fma(y, y, z * z));  // as norm2
      kept[l] = (r2 < reach2) & (s != k);
    }
    for (int l = 0; l < m; ++l) {
      if (c < cap) out[c] = slot_atom[a0 + l];  // kept only if counted below
      c += kept[l];
    }
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
  // CPU builds: positions in cell order (x, y, z one after the other) and the atom in each slot
  typename Ty::Scalars slot_positions = empty_view<typename Ty::Scalars>();
  typename Ty::Ints slot_atoms = empty_view<typename Ty::Ints>();
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
    if constexpr (Traits<ExecSpace>::on_host)
      return fill_by_rows(space, x, box, reach2);
    else
      return fill_by_cells(space, x, box, reach2);
  }

  // GPUs: each thread walks its atom's stencil cell by cell.
  int fill_by_cells(const ExecSpace& space, const typename Ty::Vectors& x, PeriodicBox<T> box,
                    T reach2) {
    const auto g = cells.grid;
    const auto of = cells.cell_of_atom, off = cells.offsets, at = cells.atoms;
    const auto xs = x;
    const auto p = partners;
    const auto cnt = counts;
    const int cap = capacity;
    const bool half = kind == ListKind::half;
    int most = 0;
    Kokkos::parallel_reduce(
        "kmol::md::neighbours::build", Kokkos::RangePolicy<ExecSpace>(space, 0, int(x.extent(0))),
        KOKKOS_LAMBDA(int k, int& longest) {
          const int i = at(k);
          const Vec3<T> xi = load<T>(xs, i);
          int c = 0;
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
          cnt(i) = c;
          if (c > longest) longest = c;
        },
        Kokkos::Max<int>(most));
    return most;
  }

  // CPUs: positions copied in cell order (padded by build_lanes slots, so that every run reads
  // whole batches), then each atom's stencil a row of cells along x at a time (keep_run), in the
  // same order as fill_by_cells, so the lists are the same.
  int fill_by_rows(const ExecSpace& space, const typename Ty::Vectors& x, PeriodicBox<T> box,
                   T reach2) {
    static_assert(std::is_same_v<typename Ty::Table::array_layout, Kokkos::LayoutRight>,
                  "each atom's list is one row");
    const int n = int(x.extent(0));
    const std::size_t stride = std::size_t(n) + build_lanes;
    if (slot_positions.extent(0) != 3 * stride) {
      slot_positions = typename Ty::Scalars(std::string("md::slot_positions"), 3 * stride);
      slot_atoms = typename Ty::Ints(std::string("md::slot_atoms"), stride);
    }
    const auto g = cells.grid;
    const auto of = cells.cell_of_atom, off = cells.offsets, at = cells.atoms;
    const auto xs = x;
    const auto ps = slot_positions;
    const auto sa = slot_atoms;
    const auto p = partners;
    const auto cnt = counts;
    const int cap = capacity;
    const bool half = kind == ListKind::half;
    Kokkos::parallel_for(
        "kmol::md::neighbours::slots", Kokkos::RangePolicy<ExecSpace>(space, 0, n),
        KOKKOS_LAMBDA(int k) {
          const int i = at(k);
          sa(k) = i;
          for (int d = 0; d < 3; ++d) ps(std::size_t(d) * stride + std::size_t(k)) = xs(i, d);
        });
    int most = 0;
    Kokkos::parallel_reduce(
        "kmol::md::neighbours::build_rows", Kokkos::RangePolicy<ExecSpace>(space, 0, n),
        KOKKOS_LAMBDA(int k, int& longest) {
          const T *px = ps.data(), *py = px + stride, *pz = py + stride;
          const int* slot_atom = sa.data();
          const int i = slot_atom[k];
          int* out = &p(i, 0);
          const Vec3<T> xi{px[k], py[k], pz[k]};
          const int w = g.span, nx = g.n[0], cell = of(i);
          const int cx = cell % nx, cy = cell / nx % g.n[1], cz = cell / (nx * g.n[1]);
          int c = 0;
          for (int oz = -w; oz <= w; ++oz)
            for (int oy = -w; oy <= w; ++oy) {
              const int y = cy + oy, z = cz + oz;
              const T iy = image_of<T>(y, g.n[1]), iz = image_of<T>(z, g.n[2]);
              const int row = nx * (g.wrap(y, 1) + g.n[1] * g.wrap(z, 2));
              const int lo = cx - w, hi = cx + w;  // n >= 2 w + 1: at most one end wraps
              // The row's cells in stencil order: those wrapped round from the far end first.
              const int first = lo < 0 ? row + lo + nx : row + lo;
              const int last = lo < 0 || hi >= nx ? row + nx : row + hi + 1;
              c = keep_run(px, py, pz, slot_atom, off(first), off(last), xi,
                           Vec3<T>{lo < 0 ? T(-1) : T(0), iy, iz}, k, half, box, reach2, out, cap,
                           c);
              if (lo < 0 || hi >= nx)
                c = keep_run(
                    px, py, pz, slot_atom, off(row), off(row + (lo < 0 ? hi + 1 : hi + 1 - nx)), xi,
                    Vec3<T>{lo < 0 ? T(0) : T(1), iy, iz}, k, half, box, reach2, out, cap, c);
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
              sweep_partners_on_host<false>(xs.data(), n, xi, &p(i, a0),
                                            m - a0 < sweep_chunk ? m - a0 : sweep_chunk, box, lj, s,
                                            dx, dy, dz);
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
  renumber_openmp_threads(space);  // the per-thread copies
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
          T dx[sweep_chunk], dy[sweep_chunk], dz[sweep_chunk];
          for (int a0 = 0; a0 < m; a0 += sweep_chunk) {
            const int c = m - a0 < sweep_chunk ? m - a0 : sweep_chunk;
            sweep_partners_on_host<true>(xs.data(), n, xi, &p(i, a0), c, box, lj, s, dx, dy, dz);
            for (int a = 0; a < c; ++a) {
              const int j = p(i, a0 + a);
              f(j, 0) -= dx[a];
              f(j, 1) -= dy[a];
              f(j, 2) -= dz[a];
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
