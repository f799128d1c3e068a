#pragma once
// Brute-force double-precision shifted-force Lennard-Jones: every pair, minimum image by rounding.
#include <cmath>
#include <vector>

#include "kernels/md/md.hpp"

namespace kmol::test {

struct LjReference {
  std::vector<Vec3<double>> forces;
  double potential = 0, virial = 0;
};

inline LjReference oracle_lj(const MdState& s, double rc) {
  const std::size_t n = s.positions.size();
  const double ir6c = std::pow(rc, -6.0);
  const double fc = 24 * ir6c * (2 * ir6c - 1) / rc, vc = 4 * ir6c * (ir6c - 1);
  LjReference r;
  r.forces.assign(n, {});
  const double l[3] = {s.box.x, s.box.y, s.box.z};
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j) {
      double d[3] = {s.positions[i].x - s.positions[j].x, s.positions[i].y - s.positions[j].y,
                     s.positions[i].z - s.positions[j].z};
      for (int k = 0; k < 3; ++k) d[k] -= l[k] * std::round(d[k] / l[k]);
      const double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
      if (r2 >= rc * rc) continue;
      const double rr = std::sqrt(r2), ir6 = std::pow(r2, -3.0);
      const double f_over_r = (24 * ir6 * (2 * ir6 - 1) / rr - fc) / rr;
      r.potential += 4 * ir6 * (ir6 - 1) - vc + (rr - rc) * fc;
      r.virial += f_over_r * r2;
      const Vec3<double> fij{f_over_r * d[0], f_over_r * d[1], f_over_r * d[2]};
      r.forces[i] = r.forces[i] + fij;
      r.forces[j] = r.forces[j] - fij;
    }
  return r;
}

}  // namespace kmol::test
