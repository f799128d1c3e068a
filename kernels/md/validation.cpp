#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include "kernels/md/validation.hpp"

#include "kmol/core/errors.hpp"
#include "kmol/core/preflight.hpp"
#include "kmol/core/significant.hpp"

namespace kmol::md {
namespace {

bool positive(double x) { return x > 0 && std::isfinite(x); }

double wrapped(double x, double side) { return x - side * std::floor(x / side); }

}  // namespace

std::optional<std::pair<std::size_t, std::size_t>> coincident_atoms(
    const std::vector<Vec3<double>>& positions, Vec3<double> box) {
  // Without a proper box, raw coordinates; non-finite points are other checks' business.
  const bool periodic = positive(box.x) && positive(box.y) && positive(box.z);
  std::vector<std::array<double, 3>> at(positions.size());
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < positions.size(); ++i) {
    const Vec3<double>& p = positions[i];
    at[i] = periodic ? std::array{wrapped(p.x, box.x), wrapped(p.y, box.y), wrapped(p.z, box.z)}
                     : std::array{p.x, p.y, p.z};
    if (std::isfinite(at[i][0]) && std::isfinite(at[i][1]) && std::isfinite(at[i][2]))
      order.push_back(i);
  }
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return at[a] != at[b] ? at[a] < at[b] : a < b; });
  std::optional<std::pair<std::size_t, std::size_t>> first;
  for (std::size_t k = 1; k < order.size(); ++k)
    if (at[order[k - 1]] == at[order[k]] && (!first || order[k - 1] < first->first))
      first = std::pair{order[k - 1], order[k]};
  return first;
}

void validate(const MdState& start, const MdSettings& s) {
  const std::size_t n = start.positions.size();
  if (n < 2) throw InputError({"", "positions", -1}, "need at least two atoms");
  if (n > std::size_t(1) << 30) throw InputError({"", "positions", -1}, "at most 2^30 atoms");
  if (!start.velocities.empty() && start.velocities.size() != n)
    throw InputError({"", "velocities", -1}, "one velocity per atom expected (" +
                                                 std::to_string(n) + "), got " +
                                                 std::to_string(start.velocities.size()));
  if (!positive(s.cutoff)) throw InputError({"", "cutoff", -1}, "must be a positive number");
  if (!(s.skin >= 0) || !std::isfinite(s.skin))
    throw InputError({"", "skin", -1}, "must be a non-negative number");
  if (!positive(s.dt)) throw InputError({"", "dt", -1}, "must be a positive number");
  if (s.thermostat != Thermostat::none) {
    if (!(s.temperature >= 0) || !std::isfinite(s.temperature))
      throw InputError({"", "temperature", -1}, "must be a non-negative number");
    if (!positive(s.coupling)) throw InputError({"", "coupling", -1}, "must be a positive number");
  }
  const double l[3] = {start.box.x, start.box.y, start.box.z};
  for (double side : l) {
    if (!positive(side)) throw InputError({"", "box", -1}, "box lengths must be positive numbers");
    if (side < 2 * s.cutoff)
      throw InputError({"", "box", -1}, "every box length must be at least twice the cutoff (" +
                                            std::to_string(2 * s.cutoff) +
                                            ") for the minimum image");
  }
  // Cells of the cutoff plus skin tile the box (at least 8 bytes each): a cutoff tiny against
  // the box would ask for more of them than memory holds.
  const double reach = s.cutoff + s.skin;
  const double cells =
      std::floor(l[0] / reach) * std::floor(l[1] / reach) * std::floor(l[2] / reach);
  const double available = available_memory_bytes();
  if (!(cells * 8 <= (available > 0 ? available : 1e18)))
    throw ResourceError({"", "cutoff", -1}, "cutoff + skin " + significant(reach) +
                                                " divides the box into " + significant(cells) +
                                                " cells, more than memory holds");
  for (std::size_t i = 0; i < n; ++i) {
    const auto& p = start.positions[i];
    if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z))
      throw InputError({"", "positions", long(i)}, "positions must be finite");
    if (!start.velocities.empty()) {
      const auto& u = start.velocities[i];
      if (!std::isfinite(u.x) || !std::isfinite(u.y) || !std::isfinite(u.z))
        throw InputError({"", "velocities", long(i)}, "velocities must be finite");
    }
  }
  if (const auto pair = coincident_atoms(start.positions, start.box))
    throw InputError({"", "positions", long(pair->second)},
                     "atoms " + std::to_string(pair->first) + " and " +
                         std::to_string(pair->second) +
                         " sit at the same point: the force between them is infinite");
}

}  // namespace kmol::md
