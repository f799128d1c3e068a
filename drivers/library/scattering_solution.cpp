// The observation spheres of a solute in solution (scattering_solution.hpp).
#include "drivers/library/scattering_solution.hpp"

#include <fmt/core.h>

#include <cmath>
#include <set>

#include "kmol/core/errors.hpp"

namespace kmol {

Vec3<double> solute_centre(const std::vector<Vec3<double>>& xyz,
                           const std::vector<std::int64_t>& solute, const BoxSpec& box) {
  const Vec3<double> anchor = xyz[std::size_t(solute.front())];
  Vec3<double> sum{0, 0, 0};
  visit_box<double>(box, [&](const auto& wrap) {
    for (auto i : solute) sum = sum + wrap.minimum_image(xyz[std::size_t(i)] - anchor);
  });
  return anchor + (1.0 / double(solute.size())) * sum;
}

void atoms_in_sphere(const std::vector<Vec3<double>>& xyz, const std::vector<std::int32_t>& labels,
                     const BoxSpec& box, Vec3<double> centre, double radius,
                     std::vector<Vec3<double>>& inside, std::vector<std::int32_t>& inside_labels) {
  inside.clear();
  inside_labels.clear();
  visit_box<double>(box, [&](const auto& wrap) {
    for (std::size_t i = 0; i < xyz.size(); ++i) {
      const Vec3<double> d = wrap.minimum_image(xyz[i] - centre);
      if (norm2(d) < radius * radius) {
        inside.push_back(d);
        inside_labels.push_back(labels[i]);
      }
    }
  });
}

void check_sphere_fits(double radius, const BoxSpec& box, const std::string& option,
                       const std::string& file) {
  if (box.kind == BoxKind::none)
    throw InputError({file, "box", -1}, "a solution and its solvent need periodic boxes");
  const double limit = inscribed_radius(validated(box));
  if (!(radius > 0) || radius > limit)
    throw InputError({file, option, -1},
                     fmt::format("the observation sphere of radius {:.6g} Angstrom does not fit in "
                                 "the box (the largest sphere inside has radius {:.6g} Angstrom)",
                                 radius, limit));
}

std::vector<std::int32_t> solvent_labels(const ScatteringTypes& solution,
                                         const std::vector<char>& in_solute,
                                         const ScatteringTypes& solvent,
                                         const std::string& solvent_file) {
  std::set<std::string> of_solution, of_solvent(solvent.names.begin(), solvent.names.end());
  for (std::size_t i = 0; i < solution.of_atom.size(); ++i)
    if (!in_solute[i]) of_solution.insert(solution.names[std::size_t(solution.of_atom[i])]);
  std::string missing, extra;
  for (const auto& t : of_solvent)
    if (!of_solution.count(t)) extra += (extra.empty() ? "" : ", ") + t;
  for (const auto& t : of_solution)
    if (!of_solvent.count(t)) missing += (missing.empty() ? "" : ", ") + t;
  if (!extra.empty() || !missing.empty())
    throw InputError(
        {solvent_file, "--solvent", -1},
        fmt::format("is not the solution's solvent: {}{}{}", extra.empty() ? "" : "it has " + extra,
                    !extra.empty() && !missing.empty() ? "; " : "",
                    missing.empty() ? ""
                                    : "the solution's atoms outside --solute have " + missing +
                                          ", which it lacks"));
  std::vector<std::int32_t> labels;
  labels.reserve(solvent.of_atom.size());
  for (auto t : solvent.of_atom) {
    const std::string& name = solvent.names[std::size_t(t)];
    std::int32_t index = 0;
    while (solution.names[std::size_t(index)] != name) ++index;
    labels.push_back(index);
  }
  return labels;
}

ScatteringResult excess_intensity(const ScatteringResult& a, const ScatteringResult& b) {
  ScatteringResult out = a;
  out.partial.clear();
  out.pair_names.clear();
  // Relative to the excess at the lowest q: Delta I crosses zero, a pointwise ratio would not
  // say how good the curve is.
  out.max_relative_error = 0;
  const double scale = std::max(std::abs(a.intensity[0] - b.intensity[0]), 1e-300);
  for (std::size_t k = 0; k < a.q.size(); ++k) {
    out.intensity[k] = a.intensity[k] - b.intensity[k];
    out.sigma[k] = std::sqrt(a.sigma[k] * a.sigma[k] + b.sigma[k] * b.sigma[k]);
    out.error[k] = a.error[k] + b.error[k];
    out.max_relative_error = std::max(out.max_relative_error, out.error[k] / scale);
  }
  out.guinier = guinier_fit(out.q, out.intensity);
  return out;
}

}  // namespace kmol
