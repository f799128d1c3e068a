#pragma once
// A test system for potential maps: rigid TIP3P-like waters (O -0.834 e, H +0.417 e, O-H 0.9572 A,
// H-O-H 104.52 degrees) at random positions and orientations in a cube, as in Rodrigues et al.'s
// accuracy test (10^6 A^3, 0.1 atoms/A^3: 32,200 waters, 96,600 atoms). Overlaps are allowed.
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "kmol/core/vec3.hpp"

namespace kmol::coulomb {

struct WaterBox {
  std::vector<Vec3<double>> positions;
  std::vector<double> charges, radii;  // radii: O 1.7682, H 0 (APBS' TIP3P parameters)
};

inline WaterBox water_box(std::int64_t molecules, double length, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  const double oh = 0.9572, half_angle = 0.5 * 104.52 * 3.14159265358979323846 / 180;
  WaterBox box;
  for (std::int64_t m = 0; m < molecules; ++m) {
    const Vec3<double> o{length * u(rng), length * u(rng), length * u(rng)};
    // A random orthonormal frame (e1, e2) from two random directions (Gram-Schmidt).
    auto direction = [&] {
      const double z = 2 * u(rng) - 1, phi = 2 * 3.14159265358979323846 * u(rng),
                   s = std::sqrt(1 - z * z);
      return Vec3<double>{s * std::cos(phi), s * std::sin(phi), z};
    };
    const Vec3<double> e1 = direction();
    Vec3<double> e2 = direction();
    e2 = e2 - dot(e1, e2) * e1;
    e2 = (1 / std::sqrt(norm2(e2))) * e2;
    const double c = oh * std::cos(half_angle), s = oh * std::sin(half_angle);
    box.positions.push_back(o);
    box.positions.push_back(o + c * e1 + s * e2);
    box.positions.push_back(o + c * e1 - s * e2);
    box.charges.insert(box.charges.end(), {-0.834, 0.417, 0.417});
    box.radii.insert(box.radii.end(), {1.7682, 0.0, 0.0});
  }
  return box;
}

}  // namespace kmol::coulomb
