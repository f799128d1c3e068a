#include "drivers/library/result_check.hpp"

#include <fmt/core.h>

#include <cmath>

#include "kmol/core/errors.hpp"

namespace kmol {
namespace {

std::string range_text(double r_min, double r_max, const ResultOptions& o) {
  const double f = o.unit_per_angstrom;
  if (r_min > 0)
    return fmt::format("in [{:.6g}, {:.6g}) {} ({})", f * r_min, f * r_max, o.unit, o.range);
  return fmt::format("within {} {:.6g} {}", o.range, f * r_max, o.unit);
}

// The refusal of an empty result (`field` and `hint` say what changes it), or with allow_empty
// the warning that it is kept.
std::string empty_result(const std::string& what, const std::string& field, const std::string& hint,
                         const ResultOptions& o) {
  if (o.allow_empty) return what + "; kept as asked (" + o.allow_empty_option + ")";
  throw InputError({o.input, field, -1}, what + "; " + hint + ", or use " + o.allow_empty_option +
                                             " to accept an empty result");
}

// A default range names the box it came from: a damaged box gives a range nothing fits in.
std::string empty_range(const std::string& what, const ResultOptions& o) {
  const std::string hint = o.range_origin.empty()
                               ? "check the unit and value of " + o.range
                               : o.range_origin + "; check that box, or give " + o.range;
  return empty_result(what, o.range, hint, o);
}

}  // namespace

std::string minimum_image_radius_origin(const BoxSpec& box, const std::string& where) {
  const auto length = [](const Vec3<double>& e) {
    return std::sqrt(e.x * e.x + e.y * e.y + e.z * e.z);
  };
  return fmt::format(
      "the default is the minimum-image radius of the box {} ({:.6g} x {:.6g} x {:.6g} "
      "Angstrom{})",
      where, length(box.edges[0]), length(box.edges[1]), length(box.edges[2]),
      box.kind == BoxKind::triclinic ? ", triclinic" : "");
}

std::int64_t distinct_pairs(std::int64_t n_a, std::int64_t n_b, bool one_set, std::int64_t shared) {
  return one_set ? n_a * (n_a - 1) / 2 : n_a * n_b - shared;
}

std::string check_pair_counts(const std::vector<std::uint64_t>& counts, double r_min, double r_max,
                              std::int64_t pairs, const ResultOptions& o) {
  std::uint64_t total = 0;
  for (auto c : counts) total += c;
  if (total > 0) return "";
  if (pairs == 0)
    return empty_result("no pair to count: the selections hold no two distinct atoms", "",
                        "check the selections", o);
  return empty_range(
      fmt::format("no pair {} was counted: every bin is 0{}", range_text(r_min, r_max, o),
                  pairs > 0 ? fmt::format(" ({} distinct pairs, all outside it)", pairs) : ""),
      o);
}

std::string check_rdf(const RdfCountsSummary& s, const Rdf& rdf, const ResultOptions& o) {
  for (std::size_t k = 0; k < rdf.g.size(); ++k) {
    if (std::isfinite(rdf.g[k]) && std::isfinite(rdf.coordination[k])) continue;
    const std::string cause =
        !(std::isfinite(s.mean_inverse_volume))
            ? fmt::format("the mean 1/V of the boxes is {} (a box of zero or no volume)",
                          s.mean_inverse_volume)
            : "the normalisation divides by no pair or no frame";
    throw InputError({o.input, "", -1},
                     fmt::format("the result is not finite: bin {} (r = {:.6g}) is "
                                 "{}; {}",
                                 k, rdf.centres[k], rdf.g[k], cause));
  }
  const std::int64_t pairs =
      distinct_pairs(s.n_a, s.n_b, s.one_set, s.shared_atoms) - s.excluded_pairs;
  std::string warning = check_pair_counts(s.counts, s.r_min, s.r_max, pairs, o);
  if (!warning.empty()) return warning;
  // Counts but no value: a normalisation that scaled them all away.
  bool any = false;
  for (double g : rdf.g) any = any || g != 0;
  if (!any) return empty_range("every value of the result is 0 although pairs were counted", o);
  return "";
}

void check_finite(const std::vector<double>& values, const std::string& column) {
  for (std::size_t k = 0; k < values.size(); ++k)
    if (!std::isfinite(values[k]))
      throw std::runtime_error(
          fmt::format("the result is not finite: {}[{}] = {} (of {} values); nothing was written",
                      column, k, values[k], values.size()));
}

}  // namespace kmol
