// Starting configurations: an FCC crystal and Maxwell-Boltzmann velocities from kmol's rand48.
#include <Kokkos_Core.hpp>

#include <cmath>

#include "kernels/md/md.hpp"
#include "kernels/rng/rand48_fill.hpp"
#include "kmol/core/errors.hpp"

namespace kmol {

MdState fcc_lattice(std::array<int, 3> cells, double density) {
  if (!(density > 0) || !std::isfinite(density))
    throw InputError({"", "density", -1}, "must be a positive number");
  for (int c : cells)
    if (c < 1) throw InputError({"", "cells", -1}, "every lattice count must be at least 1");
  const double a = std::cbrt(4 / density);
  const Vec3<double> basis[4] = {{0, 0, 0}, {0.5, 0.5, 0}, {0.5, 0, 0.5}, {0, 0.5, 0.5}};
  MdState s;
  s.box = {a * cells[0], a * cells[1], a * cells[2]};
  s.positions.reserve(std::size_t(4) * cells[0] * cells[1] * cells[2]);
  for (int k = 0; k < cells[2]; ++k)
    for (int j = 0; j < cells[1]; ++j)
      for (int i = 0; i < cells[0]; ++i)
        for (const auto& b : basis)
          s.positions.push_back(a * Vec3<double>{i + b.x, j + b.y, k + b.z});
  return s;
}

int fcc_cells_per_side(std::int64_t atoms) {
  return std::max(1, int(std::lround(std::cbrt(double(atoms) / 4))));
}

void maxwell_boltzmann(MdState& state, double temperature, std::int64_t seed) {
  if (!(temperature >= 0) || !std::isfinite(temperature))
    throw InputError({"", "temperature", -1}, "must be a non-negative number");
  const std::size_t n = state.positions.size();
  if (n < 2) throw InputError({"", "atoms", -1}, "need at least two atoms for a temperature");
  // Box-Muller turns each pair of glibc drand48 numbers into two independent normals.
  const std::size_t normals = 3 * n + 1;
  Kokkos::View<double*, Kokkos::HostSpace> u(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("uniforms")), normals + 1);
  rand48_fill(Kokkos::DefaultHostExecutionSpace(), rand48_seed_state(seed), Rand48Kind::drand48, u);
  std::vector<double> g(normals + 1);
  const double two_pi = 6.283185307179586;
  for (std::size_t k = 0; k + 1 < g.size(); k += 2) {
    const double r = std::sqrt(-2 * std::log(1 - u(k)));
    g[k] = r * std::cos(two_pi * u(k + 1));
    g[k + 1] = r * std::sin(two_pi * u(k + 1));
  }
  state.velocities.resize(n);
  Vec3<double> momentum;
  for (std::size_t i = 0; i < n; ++i) {
    state.velocities[i] = {g[3 * i], g[3 * i + 1], g[3 * i + 2]};
    momentum = momentum + state.velocities[i];
  }
  const Vec3<double> drift = (1.0 / double(n)) * momentum;
  double twice_kinetic = 0;
  for (auto& v : state.velocities) {
    v = v - drift;
    twice_kinetic += norm2(v);
  }
  const double scale =
      twice_kinetic > 0 ? std::sqrt(temperature * double(3 * n - 3) / twice_kinetic) : 0;
  for (auto& v : state.velocities) v = scale * v;
}

}  // namespace kmol
