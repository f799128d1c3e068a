#include "kernels/orbital/host/orbital_host.hpp"

#include <omp.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "kernels/orbital/evaluator.hpp"
#include "kernels/orbital/exp2_polynomial.hpp"
#include "kmol/core/cancel.hpp"

namespace kmol {
namespace {

template <class T>
struct RowBuffers {
  std::vector<T> dx, r2, radial, psi;
  explicit RowBuffers(std::int64_t n)
      : dx(std::size_t(n)), r2(std::size_t(n)), radial(std::size_t(n)), psi(std::size_t(n)) {}
};

template <int L, class T>
void add_shell(int n, const T* dx, T dy, T dz, const T* radial, const T* c, T* psi) {
#pragma omp simd
  for (int i = 0; i < n; ++i)
    psi[i] = math::fma(radial[i], orbital::angular(L, dx[i], dy, dz, c), psi[i]);
}

template <class T>
void row(const orbital::OrbitalTables<T>& t, int n, T h, T py, T pz, RowBuffers<T>& b, T* out) {
  T* dx = b.dx.data();
  T* r2 = b.r2.data();
  T* radial = b.radial.data();
  T* psi = b.psi.data();
  for (int i = 0; i < n; ++i) psi[i] = 0;
  for (int a = 0; a < t.atoms; ++a) {
    const T ax = t.xyz[3 * a], dy = py - t.xyz[3 * a + 1], dz = pz - t.xyz[3 * a + 2];
    const T across = math::fma(dy, dy, dz * dz);
#pragma omp simd
    for (int i = 0; i < n; ++i) {
      dx[i] = T(i) * h - ax;
      r2[i] = math::fma(dx[i], dx[i], across);
    }
    for (int s = t.atom_shells[a]; s < t.atom_shells[a + 1]; ++s) {
      for (int i = 0; i < n; ++i) radial[i] = 0;
      for (int p = t.shell_prims[s]; p < t.shell_prims[s + 1]; ++p) {
        const T minus_alpha = -t.alpha[p], d = t.d[p];
#pragma omp simd
        for (int i = 0; i < n; ++i)
          radial[i] = math::fma(d, orbital::exp2_polynomial(minus_alpha * r2[i]), radial[i]);
      }
      const T* c = t.coef + t.shell_coef[s];
      orbital::with_constant_l(t.shell_l[s], [&](auto l) {
        add_shell<decltype(l)::value>(n, dx, dy, dz, radial, c, psi);
      });
    }
  }
  std::memcpy(out, psi, std::size_t(n) * sizeof(T));
}

}  // namespace

template <class T>
std::string orbital_host(const orbital::PackedTables& tables, const Grid& lattice, T* values,
                         int threads) {
  const auto t = orbital::tables_at<T>(tables.bytes.data(), tables.layout);
  const std::int64_t nx = lattice.counts[0], ny = lattice.counts[1], rows = ny * lattice.counts[2];
  const T h = T(lattice.spacing[0]);
#pragma omp parallel num_threads(threads)
  {
    RowBuffers<T> buffers(nx);
#pragma omp for schedule(dynamic, 4)
    for (std::int64_t r = 0; r < rows; ++r)
      if (!cancel_requested())  // the map of a cancelled run is discarded
        row(t, int(nx), h, T(r % ny) * h, T(r / ny) * h, buffers, values + r * nx);
  }
  throw_if_cancelled("the orbital map");
  return "host: rows of " + std::to_string(nx) + " points, vectorised, " + std::to_string(threads) +
         " threads";
}

template std::string orbital_host(const orbital::PackedTables&, const Grid&, float*, int);
template std::string orbital_host(const orbital::PackedTables&, const Grid&, double*, int);

}  // namespace kmol
