#include "kernels/md/selection.hpp"

#include <algorithm>

#include "kernels/md/host/lj_host.hpp"
#include "kernels/md/implementations.hpp"
#include "kmol/core/errors.hpp"
#include "kmol/core/names.hpp"

namespace kmol {
namespace {

double shortest_side(const MdShape& s) { return std::min({s.box.x, s.box.y, s.box.z}); }

constexpr Named<MdList> md_list_names[] = {{MdList::full, "full"}, {MdList::half, "half"}};
constexpr Named<Thermostat> thermostat_names[] = {{Thermostat::none, "none"},
                                                  {Thermostat::andersen, "andersen"},
                                                  {Thermostat::langevin, "langevin"}};

}  // namespace

// Cells of edge >= r_c; with fewer than three per side a neighbour cell would be met twice.
std::string md_cells_refusal(const MdShape& shape, Platform) {
  return shortest_side(shape) >= 3 * shape.cutoff ? "" : "cells need a box at least 3 r_c across";
}

std::string md_lists_refusal(const MdShape& shape, Platform) {
  return shortest_side(shape) >= 3 * (shape.cutoff + shape.skin)
             ? ""
             : "neighbour lists need a box at least 3 (r_c + skin) across";
}

std::string md_host_refusal(const MdShape& shape, Platform platform) {
  if (!lj_host_available()) return "host needs a build with AVX2 (x86-64-v3 flags)";
  return md_lists_refusal(shape, platform);
}

std::string to_string(MdForceImpl value) { return implementation_name(md_implementations, value); }

MdForceImpl md_force_impl_from_string(const std::string& name) {
  // Accepted aliases: scripts name the CPU kernel so, and the lists by their kind.
  if (name == "cpu") return MdForceImpl::host;
  if (name == "neighbour_full" || name == "neighbour_half") return MdForceImpl::neighbour;
  return implementation_named(md_implementations, name, "impl", "md implementation");
}

std::string to_string(MdList value) { return name_of(md_list_names, value); }

MdList md_list_from_string(const std::string& name) {
  return value_named(md_list_names, name, "list", "neighbour list");
}

void set_md_force(MdSettings& settings, const std::string& impl) {
  settings.impl = md_force_impl_from_string(impl);
  if (impl == "neighbour_full") settings.list = MdList::full;
  if (impl == "neighbour_half") settings.list = MdList::half;
}

std::string to_string(Thermostat value) { return name_of(thermostat_names, value); }

Thermostat thermostat_from_string(const std::string& name) {
  return value_named(thermostat_names, name, "thermostat", "thermostat");
}

std::string md_force_refusal(MdForceImpl impl, const MdShape& shape, Platform platform) {
  return implementation_refusal(md_implementations, impl, shape, platform);
}

MdForceImpl choose_md_force_impl(const MdShape& shape, Platform platform, MdForceImpl requested) {
  return choose_implementation(md_implementations, "md", requested, shape, platform);
}

std::vector<std::string> md_force_names() {
  std::vector<std::string> names;
  for (const MdForceImpl impl : compiled_implementations(md_implementations)) {
    if (impl != MdForceImpl::neighbour) {
      names.push_back(to_string(impl));
      continue;
    }
    names.push_back("neighbour_half");
    names.push_back("neighbour_full");
  }
  return names;
}

AlgorithmSummary md_summary() {
  return implementation_summary(
      "md", "Lennard-Jones molecular dynamics (shifted force, orthorhombic box, velocity Verlet)",
      md_implementations);
}

}  // namespace kmol
