#include "drivers/library/trajectory.hpp"

#include <fmt/core.h>

#include <cstdio>
#include <cstdlib>

#include "drivers/library/frame_list.hpp"
#include "drivers/library/result_check.hpp"
#include "kmol/core/errors.hpp"
#include "kmol/core/io/units.hpp"

namespace kmol {
namespace {

bool bare_number(const std::string& text) {
  char* end = nullptr;
  std::strtod(text.c_str(), &end);
  return end != text.c_str() && *end == '\0';
}

// A length option in Angstrom. A bare number is read in the source's bare-length unit where it
// has one, and the notes say so: with kmol rdf --gmx every output is in nm, and "--rmax 1.2" read
// as Angstrom would give an empty g(r).
double length_option(const std::string& text, const std::string& option, const TrajectorySource& o,
                     std::vector<std::string>& notes) {
  if (o.bare_length_unit.empty() || !bare_number(text)) return io::parse_length(text, option);
  const double value = io::parse_length(text + o.bare_length_unit, option);
  if (value != 0)
    notes.push_back(fmt::format("{} {} read as {} ({})", option, text, o.bare_length_unit,
                                o.bare_length_reason));
  return value;
}

}  // namespace

Trajectory open_trajectory(const TrajectorySource& o) {
  Trajectory t;
  t.reader = io::open_trajectory_file(o.trajectory, o.group);
  io::TrajectoryReader& r = *t.reader;
  if (!o.quiet)
    for (const auto& w : r.warnings()) fmt::print(stderr, "kmol: warning: {}\n", w);
  if (r.n_frames() == 0)
    throw InputError({o.trajectory, "frames", -1}, "the trajectory has no frames");
  t.frames = frame_list(o.frames, r.n_frames());
  t.atoms.n_atoms = r.n_atoms();
  t.atoms.species = r.species();
  t.atoms.species_names = r.species_names();
  if (!o.top.empty()) {
    t.topology = std::make_unique<io::Topology>(io::read_topology(o.top));
    if (std::int64_t(t.topology->size()) != r.n_atoms())
      throw InputError({o.top, "", -1}, "has " + std::to_string(t.topology->size()) +
                                            " atoms, the trajectory " + o.trajectory + " " +
                                            std::to_string(r.n_atoms()));
    t.atoms.names = t.topology->names;
    t.atoms.resnames = t.topology->resnames;
    t.atoms.resids = t.topology->resids;
  }
  if (!o.no_pbc && r.box_kind() == BoxKind::none)
    throw InputError({o.trajectory, "box", -1},
                     "the trajectory has no periodic box, but periodic distances are asked for "
                     "(use --no-pbc for "
                     "plain distances)");
  t.first_box = o.no_pbc ? BoxSpec::none() : r.frame_info(t.frames.front()).box;
  t.r_min = length_option(o.r_min, "--rmin", o, t.notes);
  if (o.r_max.empty()) {
    if (t.first_box.kind == BoxKind::none)
      throw InputError({"", "--rmax", -1}, "required without a periodic box");
    t.r_max = 0.999999 * minimum_image_radius(validated(t.first_box));
    t.r_max_origin =
        minimum_image_radius_origin(t.first_box, fmt::format("of frame {}", t.frames.front()));
  } else {
    t.r_max = length_option(o.r_max, "--rmax", o, t.notes);
  }
  if (!(t.r_max > t.r_min) || t.r_min < 0)
    throw InputError(
        {"", "--rmax", -1},
        fmt::format("must exceed --rmin ({} Angstrom) and --rmin must not be negative", t.r_min));
  return t;
}

}  // namespace kmol
