#include "kernels/md/health.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace kmol {
namespace {

std::string hint(double dt) {
  std::ostringstream text;
  text << "; the time step (--dt " << dt
       << ") is likely too large for this temperature and density (0.005 is usual in reduced "
          "units), or atoms overlap in the starting configuration";
  return text.str();
}

}  // namespace

std::optional<std::string> md_health_problem(const MdThermo& before, const MdThermo& now,
                                             const MdState& state, double dt) {
  std::ostringstream text;
  text.precision(6);
  const char* names[] = {"total energy per atom", "potential energy per atom", "temperature",
                         "pressure"};
  const double values[] = {now.total, now.potential, now.temperature, now.pressure};
  for (int q = 0; q < 4; ++q)
    if (!std::isfinite(values[q])) {
      text << "step " << now.step << ": the " << names[q] << " is " << values[q] << hint(dt);
      return text.str();
    }
  const double scale = std::max({1.0, std::abs(before.total), before.temperature});
  if (std::abs(now.total - before.total) > energy_jump_factor * scale) {
    text << "step " << now.step << ": the total energy per atom jumped from " << before.total
         << " (step " << before.step << ") to " << now.total << ", more than " << energy_jump_factor
         << " times its scale " << scale << hint(dt);
    return text.str();
  }
  const double box[3] = {state.box.x, state.box.y, state.box.z};
  const double half = 0.5 * std::min({box[0], box[1], box[2]});
  for (std::size_t i = 0; i < state.positions.size(); ++i) {
    const double x[3] = {state.positions[i].x, state.positions[i].y, state.positions[i].z};
    for (int d = 0; d < 3; ++d)
      if (!std::isfinite(x[d]) || x[d] < -box[d] || x[d] > 2 * box[d]) {
        text << "step " << now.step << ": atom " << i << " is at "
             << "xyz"[d] << " = " << x[d] << ", more than a box length (" << box[d]
             << ") outside the box" << hint(dt);
        return text.str();
      }
    if (i < state.velocities.size()) {
      const auto& v = state.velocities[i];
      const double per_step = std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z) * dt;
      if (!(per_step < half)) {
        text << "step " << now.step << ": atom " << i << " moves " << per_step
             << " per step, more than half the box (" << half << ")" << hint(dt);
        return text.str();
      }
    }
  }
  return std::nullopt;
}

}  // namespace kmol
