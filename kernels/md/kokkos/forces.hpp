#pragma once
// The portable force loops, all calling ShiftedForceLJ::evaluate. Each writes per atom the force,
// an energy and a virial whose sums are the system's (full-list loops give each atom half of
// each pair; the half-list loop gives the whole pair to the atom that owns it).
#include <Kokkos_Core.hpp>
#include <Kokkos_ScatterView.hpp>

#include "kernels/empty_view.hpp"
#include "kernels/md/kokkos/cell_list.hpp"
#include "kernels/md/kokkos/traits.hpp"

namespace kmol::md {

template <class ExecSpace, class T>
struct ForceOutput {
  using Vectors = typename Types<ExecSpace, T>::Vectors;
  using Scalars = typename Types<ExecSpace, T>::Scalars;
  Vectors f = empty_view<Vectors>();
  Scalars energy = empty_view<Scalars>(), virial = empty_view<Scalars>();
};

// Adds pair (i, j) to the accumulators of i when within the cutoff.
template <class T>
struct PairSum {
  Vec3<T> f;
  T energy = 0, virial = 0;

  KOKKOS_INLINE_FUNCTION void add(const ShiftedForceLJ<T>& lj, Vec3<T> d) {
    const T r2 = norm2(d);
    if (r2 < lj.cutoff2) {
      T f_over_r, e;
      lj.evaluate(r2, f_over_r, e);
      f = {math::fma(f_over_r, d.x, f.x), math::fma(f_over_r, d.y, f.y),
           math::fma(f_over_r, d.z, f.z)};
      energy += e;
      virial = math::fma(f_over_r, r2, virial);
    }
  }
};

// Pair terms of atom i with up to `sweep_chunk` partners, for CPUs: a scalar loop copies the raw
// differences into contiguous arrays (GCC does not use AVX2 gathers on generic tuning), then a
// branch-free loop that vectorises does the minimum image and the evaluator. That loop runs over
// whole registers of sweep_lanes pairs: the slots past m hold a difference of half the box along
// each axis, beyond the cutoff (the box is at least 3 r_c across), which adds zero, so no pair
// takes the scalar remainder loop. With KeepPairs, (dx, dy, dz)[a] are left holding the pair's
// force on i, for a half list's scatter.
inline constexpr int sweep_chunk = 128, sweep_lanes = 8;
#if defined(__CUDA_ARCH__)
#define KMOL_SIMD_PAIR_SUMS
#else
#define KMOL_SIMD_PAIR_SUMS _Pragma("omp simd reduction(+ : fx, fy, fz, energy, virial)")
#endif
template <bool KeepPairs, class T>
KOKKOS_INLINE_FUNCTION void sweep_partners(const T* xp, Vec3<T> xi, const int* partners, int m,
                                           const PeriodicBox<T>& box_in,
                                           const ShiftedForceLJ<T>& lj_in, PairSum<T>& s, T* dx,
                                           T* dy, T* dz) {
  const PeriodicBox<T> box = box_in;  // local copies: GCC does not vectorise through the references
  const ShiftedForceLJ<T> lj = lj_in;
  for (int a = 0; a < m; ++a) {
    const int j = partners[a];
    dx[a] = xi.x - xp[3 * j];
    dy[a] = xi.y - xp[3 * j + 1];
    dz[a] = xi.z - xp[3 * j + 2];
  }
  const int whole = (m + sweep_lanes - 1) / sweep_lanes * sweep_lanes;
  for (int a = m; a < whole; ++a) {
    dx[a] = T(0.5) * box.length.x;
    dy[a] = T(0.5) * box.length.y;
    dz[a] = T(0.5) * box.length.z;
  }
  T fx = 0, fy = 0, fz = 0, energy = 0, virial = 0;
  KMOL_SIMD_PAIR_SUMS
  for (int a = 0; a < whole; ++a) {
    // Scalars only: omp simd would privatise a Vec3 into an array of structs that cannot vectorise.
    const T x = OrthorhombicBox<T>::wrap(dx[a], box.length.x, box.inverse.x);
    const T y = OrthorhombicBox<T>::wrap(dy[a], box.length.y, box.inverse.y);
    const T z = OrthorhombicBox<T>::wrap(dz[a], box.length.z, box.inverse.z);
    const T r2 = math::fma(x, x, math::fma(y, y, z * z));  // as norm2
    const bool in = r2 < lj.cutoff2;
    T f_over_r, e;
    lj.evaluate(in ? r2 : T(1), f_over_r, e);
    f_over_r = in ? f_over_r : T(0);
    const T f_x = f_over_r * x, f_y = f_over_r * y, f_z = f_over_r * z;
    fx += f_x;
    fy += f_y;
    fz += f_z;
    energy += in ? e : T(0);
    virial += f_over_r * r2;
    if constexpr (KeepPairs) {
      dx[a] = f_x;
      dy[a] = f_y;
      dz[a] = f_z;
    }
  }
  s.f = s.f + Vec3<T>{fx, fy, fz};
  s.energy += energy;
  s.virial += virial;
}

template <class ExecSpace, class T, class Out>
KOKKOS_INLINE_FUNCTION void store_full(const Out& out, int i, const PairSum<T>& s) {
  out.f(i, 0) = s.f.x;
  out.f(i, 1) = s.f.y;
  out.f(i, 2) = s.f.z;
  out.energy(i) = T(0.5) * s.energy;
  out.virial(i) = T(0.5) * s.virial;
}

// All pairs in tiles: the team stages a tile of partners in scratch, and each thread sweeps its
// own atoms of the block over it, keeping their sums in scratch between tiles.
template <class ExecSpace, class T>
struct AllPairsTiles {
  using Tr = Traits<ExecSpace>;
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  using Scratch =
      Kokkos::View<T*, typename ExecSpace::scratch_memory_space, Kokkos::MemoryUnmanaged>;
  typename Types<ExecSpace, T>::Vectors x = empty_view<typename Types<ExecSpace, T>::Vectors>();
  ForceOutput<ExecSpace, T> out;
  PeriodicBox<T> box;
  ShiftedForceLJ<T> lj;
  int n;

  static std::size_t scratch_bytes() {
    return Scratch::shmem_size(3 * Tr::tile) + Scratch::shmem_size(5 * Tr::block) +
           64;  // alignment slack
  }

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    const int level = Tr::scratch_level;  // a copy: device code cannot take the member's address
    Scratch xs(team.team_scratch(level), 3 * Tr::tile);
    Scratch sums(team.team_scratch(level), 5 * Tr::block);
    const int i0 = team.league_rank() * Tr::block;
    const int ni = n - i0 < Tr::block ? n - i0 : Tr::block;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, 5 * Tr::block), [&](int k) { sums(k) = 0; });
    for (int j0 = 0; j0 < n; j0 += Tr::tile) {
      const int nj = n - j0 < Tr::tile ? n - j0 : Tr::tile;
      team.team_barrier();
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, nj), [&](int k) {
        xs(k) = x(j0 + k, 0);
        xs(Tr::tile + k) = x(j0 + k, 1);
        xs(2 * Tr::tile + k) = x(j0 + k, 2);
      });
      team.team_barrier();
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, ni), [&](int a) {
        const int i = i0 + a;
        const Vec3<T> xi = load<T>(x, i);
        PairSum<T> s{{sums(a), sums(Tr::block + a), sums(2 * Tr::block + a)},
                     sums(3 * Tr::block + a),
                     sums(4 * Tr::block + a)};
        for (int k = 0; k < nj; ++k)
          if (j0 + k != i)
            s.add(lj, box.displacement(xi, {xs(k), xs(Tr::tile + k), xs(2 * Tr::tile + k)}));
        sums(a) = s.f.x;
        sums(Tr::block + a) = s.f.y;
        sums(2 * Tr::block + a) = s.f.z;
        sums(3 * Tr::block + a) = s.energy;
        sums(4 * Tr::block + a) = s.virial;
      });
    }
    team.team_barrier();
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, ni), [&](int a) {
      store_full<ExecSpace>(out, i0 + a,
                            PairSum<T>{{sums(a), sums(Tr::block + a), sums(2 * Tr::block + a)},
                                       sums(3 * Tr::block + a),
                                       sums(4 * Tr::block + a)});
    });
  }
};

template <class ExecSpace, class T>
void all_pairs_forces(const ExecSpace& space, const typename Types<ExecSpace, T>::Vectors& x,
                      const ForceOutput<ExecSpace, T>& out, PeriodicBox<T> box,
                      ShiftedForceLJ<T> lj) {
  using Tr = Traits<ExecSpace>;
  const int n = int(x.extent(0));
  using F = AllPairsTiles<ExecSpace, T>;
  Kokkos::TeamPolicy<ExecSpace> policy(space, (n + Tr::block - 1) / Tr::block, Tr::team_size);
  Kokkos::parallel_for(
      "kmol::md::all_pairs",
      policy.set_scratch_size(Tr::scratch_level, Kokkos::PerTeam(F::scratch_bytes())),
      F{x, out, box, lj, n});
}

// Cell lists: each atom (taken cell after cell, so neighbouring threads share cells) sums over
// the 27 cells around its own.
template <class ExecSpace, class T>
void cell_forces(const ExecSpace& space, const typename Types<ExecSpace, T>::Vectors& x,
                 const CellList<ExecSpace, T>& cells, const ForceOutput<ExecSpace, T>& out,
                 PeriodicBox<T> box, ShiftedForceLJ<T> lj) {
  const auto g = cells.grid;
  const auto of = cells.cell_of_atom, off = cells.offsets, at = cells.atoms;
  const auto xs = x;
  const auto o = out;
  Kokkos::parallel_for(
      "kmol::md::cells", Kokkos::RangePolicy<ExecSpace>(space, 0, int(x.extent(0))),
      KOKKOS_LAMBDA(int k) {
        const int i = at(k);
        const Vec3<T> xi = load<T>(xs, i);
        PairSum<T> s;
        for (int m = 0; m < 27; ++m) {
          const int c = g.neighbour(of(i), m);
          for (int a = off(c); a < off(c + 1); ++a) {
            const int j = at(a);
            if (j != i) s.add(lj, box.displacement(xi, load<T>(xs, j)));
          }
        }
        store_full<ExecSpace>(o, i, s);
      });
}

}  // namespace kmol::md
