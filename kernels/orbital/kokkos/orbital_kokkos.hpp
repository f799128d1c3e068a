#pragma once
// The portable orbital engines: one code for every Kokkos backend.
//   orbital_kokkos: each work item evaluates a few points of one lattice row together, sharing
//     every table load among them; the packed tables in the space's memory.
//   orbitals_gemm: a chunk of lattice points at a time, the Cartesian basis values (one thread per
//     point) times the monomial coefficient matrix of all requested orbitals (KokkosBlas::gemm).
#include <KokkosBlas3_gemm.hpp>
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "kernels/host_copy.hpp"
#include "kernels/launch_pieces_kokkos.hpp"
#include "kernels/orbital/evaluator.hpp"
#include "kernels/orbital/exp2_polynomial.hpp"
#include "kernels/orbital/implementations.hpp"
#include "kernels/orbital/packing.hpp"
#include "kmol/core/execution_space.hpp"
#include "kmol/core/vectorise.hpp"

namespace kmol {
namespace orbital_detail {

template <class Memory>
Kokkos::View<unsigned char*, Memory> tables_on(const orbital::PackedTables& packed) {
  Kokkos::View<unsigned char*, Memory> out(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("kmol::orbital::tables")),
      packed.bytes.size());
  Kokkos::deep_copy(out,
                    Kokkos::View<const unsigned char*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                        packed.bytes.data(), packed.bytes.size()));
  return out;
}

// Flat index p of `counts` (x fastest) to lattice indices.
KOKKOS_INLINE_FUNCTION void locate(std::int64_t p, std::int64_t nx, std::int64_t ny,
                                   std::int64_t ijk[3]) {
  ijk[0] = p % nx;
  ijk[1] = (p / nx) % ny;
  ijk[2] = p / (nx * ny);
}

// How a work item's points lie in a row: `Points` of them, `Stride` apart. CPUs take neighbouring
// points (Stride 1), so the loops over them vectorise, with the polynomial exp2 (libm's is scalar);
// GPUs take points a warp apart (Stride 32), so that neighbouring threads store neighbouring
// values, and exp2 is one special-function instruction.
template <class ExecSpace>
struct PointShape {
  static constexpr bool host = runs_on_host<ExecSpace>;
  static constexpr int Points = host ? 16 : 4;
  static constexpr int Stride = host ? 1 : 32;
};

template <int L, int Points, class T>
KOKKOS_INLINE_FUNCTION void add_shell(const T* dx, T dy, T dz, const T* radial, const T* c,
                                      T* psi) {
  KMOL_VECTORISE
  for (int m = 0; m < Points; ++m)
    psi[m] = math::fma(radial[m], orbital::angular(L, dx[m], dy, dz, c), psi[m]);
}

template <class T, class Shape, class Out>
struct OrbitalPoints {
  static constexpr int Points = Shape::Points, Stride = Shape::Stride;
  orbital::OrbitalTables<T> t;
  Out out;
  std::int64_t nx, ny, segments;  // segments of Points x Stride points per row
  T h;

  KOKKOS_INLINE_FUNCTION static T exp2_of(T x) {
    if constexpr (Shape::host)
      return orbital::exp2_polynomial(x);
    else
      return orbital::exp2_(x);
  }

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t q) const {
    const std::int64_t lane = q % Stride, group = q / Stride;
    const std::int64_t row = group / segments, i0 = (group % segments) * (Points * Stride) + lane;
    const T py = T(row % ny) * h, pz = T(row / ny) * h;
    T px[Points], psi[Points];
    KMOL_VECTORISE
    for (int m = 0; m < Points; ++m) {
      px[m] = T(i0 + m * Stride) * h;
      psi[m] = 0;
    }
    for (int a = 0; a < t.atoms; ++a) {
      const T ax = t.xyz[3 * a], dy = py - t.xyz[3 * a + 1], dz = pz - t.xyz[3 * a + 2];
      const T across = math::fma(dy, dy, dz * dz);
      T dx[Points], r2[Points];
      KMOL_VECTORISE
      for (int m = 0; m < Points; ++m) {
        dx[m] = px[m] - ax;
        r2[m] = math::fma(dx[m], dx[m], across);
      }
      for (int s = t.atom_shells[a]; s < t.atom_shells[a + 1]; ++s) {
        T radial[Points];
        for (int m = 0; m < Points; ++m) radial[m] = 0;
        for (int p = t.shell_prims[s]; p < t.shell_prims[s + 1]; ++p) {
          const T minus_alpha = -t.alpha[p], d = t.d[p];
          KMOL_VECTORISE
          for (int m = 0; m < Points; ++m)
            radial[m] = math::fma(d, exp2_of(minus_alpha * r2[m]), radial[m]);
        }
        const T* c = t.coef + t.shell_coef[s];
        orbital::with_constant_l(t.shell_l[s], [&](auto l) {
          add_shell<decltype(l)::value, Points>(dx, dy, dz, radial, c, psi);
        });
      }
    }
    const std::int64_t first = row * nx;
    for (int m = 0; m < Points; ++m)
      if (i0 + m * Stride < nx) out(first + i0 + m * Stride) = psi[m];
  }
};

}  // namespace orbital_detail

template <class ExecSpace, class T>
std::string orbital_kokkos(const ExecSpace& space, const orbital::PackedTables& packed,
                           const Grid& lattice, T* values) {
  using Memory = typename ExecSpace::memory_space;
  using Shape = orbital_detail::PointShape<ExecSpace>;
  using Out = Kokkos::View<T*, Memory>;
  const auto bytes = orbital_detail::tables_on<Memory>(packed);
  const orbital::OrbitalTables<T> t = orbital::tables_at<T>(bytes.data(), packed.layout);
  Out out(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("kmol::orbital::values")),
          lattice.points());
  const std::int64_t nx = lattice.counts[0], ny = lattice.counts[1];
  const std::int64_t per_segment = Shape::Points * Shape::Stride;
  const std::int64_t segments = (nx + per_segment - 1) / per_segment;
  const std::int64_t items = ny * lattice.counts[2] * segments * Shape::Stride;
  parallel_for_in_pieces("kmol::orbital::points", space, items, "the orbital map",
                         orbital_detail::OrbitalPoints<T, Shape, Out>{t, out, nx, ny, segments,
                                                                      T(lattice.spacing[0])});
  Kokkos::deep_copy(
      space, Kokkos::View<T*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(values, lattice.points()),
      out);
  space.fence();
  return "kokkos: " + std::to_string(Shape::Points) + " points of a row per thread, " +
         std::to_string(Shape::Stride) + " apart";
}

// coef: n_mono monomials x orbitals, column-major (orbital m's coefficients at m * n_mono).
template <class ExecSpace, class T>
std::string orbitals_gemm(const ExecSpace& space, const orbital::PackedTables& packed,
                          const std::vector<double>& coef, int n_mono, const Grid& lattice,
                          const std::vector<T*>& values) {
  using Memory = typename ExecSpace::memory_space;
  using Matrix = Kokkos::View<T**, Kokkos::LayoutLeft, Memory>;
  const int n_mo = int(values.size());
  const auto bytes = orbital_detail::tables_on<Memory>(packed);
  const orbital::OrbitalTables<T> t = orbital::tables_at<T>(bytes.data(), packed.layout);
  Matrix c(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("kmol::orbital::coefficients")),
      n_mono, n_mo);
  {
    auto host = Kokkos::create_mirror_view(c);
    for (int m = 0; m < n_mo; ++m)
      for (int b = 0; b < n_mono; ++b)
        host(b, m) = T(coef[std::size_t(m) * std::size_t(n_mono) + std::size_t(b)]);
    Kokkos::deep_copy(c, host);
  }
  // Chunks of basis values of about 256 MB.
  const std::int64_t points = lattice.points();
  const std::int64_t chunk = std::min<std::int64_t>(
      points,
      std::max<std::int64_t>(1024, (std::int64_t(1) << 28) / (std::int64_t(sizeof(T)) * n_mono)));
  Matrix basis(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("kmol::orbital::basis_values")),
      chunk, n_mono);
  Matrix psi(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("kmol::orbital::chunk_values")),
      chunk, n_mo);
  auto psi_host = Kokkos::create_mirror_view(psi);
  const std::int64_t nx = lattice.counts[0], ny = lattice.counts[1];
  const T h = T(lattice.spacing[0]);
  for (std::int64_t first = 0; first < points; first += chunk) {
    if (cancel_requested()) throw_if_cancelled("the orbital maps");
    const std::int64_t n = std::min(chunk, points - first);
    Kokkos::parallel_for(
        "kmol::orbital::basis_values", Kokkos::RangePolicy<ExecSpace>(space, 0, chunk),
        KOKKOS_LAMBDA(const std::int64_t q) {
          if (q >= n) {  // the last chunk's tail: zero rows, so that gemm always sees whole chunks
            for (int m = 0; m < n_mono; ++m) basis(q, m) = T(0);
            return;
          }
          std::int64_t ijk[3];
          orbital_detail::locate(first + q, nx, ny, ijk);
          const T px = T(ijk[0]) * h, py = T(ijk[1]) * h, pz = T(ijk[2]) * h;
          for (int a = 0; a < t.atoms; ++a) {
            const T dx = px - t.xyz[3 * a], dy = py - t.xyz[3 * a + 1], dz = pz - t.xyz[3 * a + 2];
            const T r2 = math::fma(dx, dx, math::fma(dy, dy, dz * dz));
            for (int s = t.atom_shells[a]; s < t.atom_shells[a + 1]; ++s) {
              T v[15];
              const int l = t.shell_l[s];
              orbital::monomials(l, dx, dy, dz, orbital::radial(t, s, r2), v);
              const int first_mono = t.shell_coef[s];
              for (int m = 0; m < (l + 1) * (l + 2) / 2; ++m) basis(q, first_mono + m) = v[m];
            }
          }
        });
    KokkosBlas::gemm("N", "N", T(1), basis, c, T(0), psi);
    Kokkos::deep_copy(space, psi_host, psi);
    space.fence();
    // Every host thread: one alone would take all the page faults of the fresh maps.
    std::vector<void*> to(std::size_t(n_mo), nullptr);
    std::vector<const void*> from(std::size_t(n_mo), nullptr);
    for (int m = 0; m < n_mo; ++m) {
      to[std::size_t(m)] = values[std::size_t(m)] + first;
      from[std::size_t(m)] = &psi_host(0, m);
    }
    copy_blocks_in_parallel(to.data(), from.data(), std::size_t(n) * sizeof(T), n_mo,
                            Kokkos::DefaultHostExecutionSpace().concurrency());
  }
  return "kokkos gemm: chunks of " + std::to_string(chunk) + " points x " + std::to_string(n_mono) +
         " basis values";
}

template <>
struct OrbitalRunner<OrbitalImpl::kokkos> {
  template <class ExecSpace, class T>
  static std::string run(const ExecSpace& space, const orbital::PackedTables& tables,
                         const OrbitalSettings& settings, T* values) {
    return orbital_kokkos(space, tables, settings.lattice, values);
  }
};

}  // namespace kmol
