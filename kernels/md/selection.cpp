#include "kernels/md/selection.hpp"

#include <algorithm>

#include "kernels/implementation_table.hpp"
#include "kernels/md/host/lj_host.hpp"
#include "kmol/core/errors.hpp"
#include "kmol/core/names.hpp"

namespace kmol {
namespace {

double shortest_side(const MdShape& s) { return std::min({s.box.x, s.box.y, s.box.z}); }

// Cells of edge >= r_c; with fewer than three per side a neighbour cell would be met twice.
std::string cells_refusal(const MdShape& shape, Platform) {
  return shortest_side(shape) >= 3 * shape.cutoff ? "" : "cells need a box at least 3 r_c across";
}

std::string lists_refusal(const MdShape& shape, Platform) {
  return shortest_side(shape) >= 3 * (shape.cutoff + shape.skin)
             ? ""
             : "neighbour lists need a box at least 3 (r_c + skin) across";
}

std::string host_refusal(const MdShape& shape, Platform platform) {
  if (!lj_host_available()) return "host needs a build with AVX2 (x86-64-v3 flags)";
  return lists_refusal(shape, platform);
}

// The force implementations, one row each (implementation_table.hpp); the engine (engine.hpp)
// keeps each one's state between steps, so they run there rather than through runners.
constexpr ImplementationRow<MdForceImpl, MdShape> md_implementations[] = {
    {MdForceImpl::all_pairs, "all_pairs", ImplementationKind::portable, nullptr,
     "every backend; team scratch tiles; float, double", "boxes too small for cells"},
    {MdForceImpl::cuda, "cuda", ImplementationKind::cuda, nullptr,
     "Cuda space; shared-memory tiles; float, double", "small boxes on the Cuda space"},
    {MdForceImpl::cells, "cells", ImplementationKind::portable, cells_refusal,
     "every backend; box >= 3 r_c; float, double", "box too small for lists"},
    {MdForceImpl::neighbour, "neighbour", ImplementationKind::portable, lists_refusal,
     "every backend; box >= 3 (r_c + skin); --list full (no atomics) or half (ScatterView "
     "forces)",
     "GPUs: boxes at least 3 (r_c + skin) across (full lists)"},
    {MdForceImpl::host, "host", ImplementationKind::host, host_refusal,
     "host spaces, AVX2 builds (--impl cpu is an alias); box >= 3 (r_c + skin); half list in "
     "cell order, per-thread forces",
     "CPUs: boxes at least 3 (r_c + skin) across"}};

constexpr Named<MdList> md_list_names[] = {{MdList::full, "full"}, {MdList::half, "half"}};
constexpr Named<Thermostat> thermostat_names[] = {{Thermostat::none, "none"},
                                                  {Thermostat::andersen, "andersen"},
                                                  {Thermostat::langevin, "langevin"}};

}  // namespace

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
  // Measured (perf/bench_md, same run, perf/results/2026-11-21-*-md-*.json): on CPUs the AVX2
  // half list (host) beats full lists 2.5-3.5x per core; on the H200 full lists win (no atomics:
  // 1.2-1.35x half lists).
  using Impl = MdForceImpl;
  return choose_implementation(md_implementations, "md", requested, shape, platform,
                               {Impl::host, Impl::neighbour, Impl::cells, Impl::cuda});
}

AlgorithmSummary md_summary() {
  return implementation_summary(
      "md", "Lennard-Jones molecular dynamics (shifted force, orthorhombic box, velocity Verlet)",
      md_implementations);
}

}  // namespace kmol
