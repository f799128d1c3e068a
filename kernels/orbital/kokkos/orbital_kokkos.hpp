#pragma once
// The portable orbital engines: one code for every Kokkos backend.
//   orbital_kokkos: one lattice point per thread, the packed tables in the space's memory.
//   orbitals_gemm: a chunk of lattice points at a time, the Cartesian basis values (one thread per
//     point) times the monomial coefficient matrix of all requested orbitals (KokkosBlas::gemm).
#include <KokkosBlas3_gemm.hpp>
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "kernels/orbital/evaluator.hpp"
#include "kernels/orbital/implementations.hpp"
#include "kernels/orbital/packing.hpp"

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

}  // namespace orbital_detail

template <class ExecSpace, class T>
std::string orbital_kokkos(const ExecSpace& space, const orbital::PackedTables& packed,
                           const Grid& lattice, T* values) {
  using Memory = typename ExecSpace::memory_space;
  const auto bytes = orbital_detail::tables_on<Memory>(packed);
  const orbital::OrbitalTables<T> t = orbital::tables_at<T>(bytes.data(), packed.layout);
  Kokkos::View<T*, Memory> out(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("kmol::orbital::values")),
      lattice.points());
  const std::int64_t nx = lattice.counts[0], ny = lattice.counts[1];
  const T h = T(lattice.spacing[0]);
  Kokkos::parallel_for(
      "kmol::orbital::points", Kokkos::RangePolicy<ExecSpace>(space, 0, lattice.points()),
      KOKKOS_LAMBDA(const std::int64_t p) {
        std::int64_t ijk[3];
        orbital_detail::locate(p, nx, ny, ijk);
        out(p) = orbital::orbital_value(t, T(ijk[0]) * h, T(ijk[1]) * h, T(ijk[2]) * h);
      });
  Kokkos::deep_copy(
      space, Kokkos::View<T*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(values, lattice.points()),
      out);
  space.fence();
  return "kokkos: one point per thread";
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
    for (int m = 0; m < n_mo; ++m) std::copy_n(&psi_host(0, m), n, values[std::size_t(m)] + first);
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
