// The wave vectors of a box, grouped by q (scattering_waves.hpp).
#include "drivers/library/scattering_waves.hpp"

#include <fmt/core.h>

#include <cmath>
#include <string>

#include "kmol/core/errors.hpp"

namespace kmol {
namespace {

Vec3<double> cross(Vec3<double> a, Vec3<double> b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

// Only one of k and -k: the first nonzero index positive.
bool first_of_pair(std::int64_t a, std::int64_t b, std::int64_t c) {
  return a > 0 || (a == 0 && (b > 0 || (b == 0 && c > 0)));
}

}  // namespace

BoxWaves box_waves(const BoxSpec& box, const std::vector<double>& q, double half_width,
                   const std::string& option) {
  const BoxSpec cell = validated(box);
  const Vec3<double> a = cell.edges[0], b = cell.edges[1], c = cell.edges[2];
  const double v = dot(a, cross(b, c));
  const Vec3<double> r[3] = {(2 * M_PI / v) * cross(b, c), (2 * M_PI / v) * cross(c, a),
                             (2 * M_PI / v) * cross(a, b)};
  const double q_top = q.back() + half_width, q_low = q.front() - half_width;
  // n_i = k . a_i / (2 pi), so |n_i| <= q_top |a_i| / (2 pi).
  std::int64_t n_max[3];
  double expected = 1;
  for (int i = 0; i < 3; ++i) {
    n_max[i] = std::int64_t(std::ceil(q_top * std::sqrt(norm2(cell.edges[i])) / (2 * M_PI)));
    expected *= double(2 * n_max[i] + 1);
  }
  if (expected > 4e8)
    throw InputError({"", option, -1},
                     fmt::format("q up to {:.4g} 1/Angstrom in this box takes {:.3g} wave vectors "
                                 "to test: lower --qmax",
                                 q.back(), expected));
  BoxWaves out;
  out.count.assign(q.size(), 0);
  const double step = q.size() > 1 ? q[1] - q[0] : 1;
  for (std::int64_t i = -n_max[0]; i <= n_max[0]; ++i)
    for (std::int64_t j = -n_max[1]; j <= n_max[1]; ++j)
      for (std::int64_t l = -n_max[2]; l <= n_max[2]; ++l) {
        if (!first_of_pair(i, j, l)) continue;
        const Vec3<double> k = double(i) * r[0] + double(j) * r[1] + double(l) * r[2];
        const double length = std::sqrt(norm2(k));
        if (length >= q_top || length <= q_low) continue;
        const auto nearest = std::int64_t(std::llround((length - q.front()) / step));
        if (nearest < 0 || nearest >= std::int64_t(q.size())) continue;
        if (std::abs(length - q[std::size_t(nearest)]) >= half_width) continue;
        out.k.push_back(k);
        out.bin.push_back(std::int32_t(nearest));
        ++out.count[std::size_t(nearest)];
      }
  if (out.k.size() > 50'000'000)
    throw InputError({"", option, -1},
                     fmt::format("{} wave vectors: too many for the direct route; lower --qmax "
                                 "or --qbins",
                                 out.k.size()));
  for (std::size_t j = 0; j < q.size(); ++j)
    if (out.count[j] == 0)
      throw InputError(
          {"", option, -1},
          fmt::format("no wave vector of the box lies within {:.4g} 1/Angstrom of q = {:.4g} "
                      "1/Angstrom (the box allows multiples of about {:.4g}): raise --qmin or "
                      "lower --qbins",
                      half_width, q[j], 2 * M_PI / std::cbrt(std::abs(v))));
  return out;
}

}  // namespace kmol
