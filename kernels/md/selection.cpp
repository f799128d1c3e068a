#include "kernels/md/selection.hpp"

#include <algorithm>

#include "kernels/md/host/lj_host.hpp"
#include "kmol/core/errors.hpp"
#include "kmol/core/names.hpp"

namespace kmol {
namespace {

constexpr Named<MdForceImpl> md_force_impl_names[] = {
    {MdForceImpl::automatic, "auto"},
    {MdForceImpl::all_pairs, "all_pairs"},
    {MdForceImpl::cuda, "cuda"},
    {MdForceImpl::cells, "cells"},
    {MdForceImpl::neighbour_half, "neighbour_half"},
    {MdForceImpl::neighbour_full, "neighbour_full"},
    {MdForceImpl::host, "host"}};
constexpr Named<Thermostat> thermostat_names[] = {{Thermostat::none, "none"},
                                                  {Thermostat::andersen, "andersen"},
                                                  {Thermostat::langevin, "langevin"}};

double shortest_side(const MdShape& s) { return std::min({s.box.x, s.box.y, s.box.z}); }

}  // namespace

std::string to_string(MdForceImpl value) { return name_of(md_force_impl_names, value); }

MdForceImpl md_force_impl_from_string(const std::string& name) {
  if (name == "cpu") return MdForceImpl::host;  // accepted alias: scripts name the CPU kernel so
  return value_named(md_force_impl_names, name, "impl", "md implementation");
}

std::string to_string(Thermostat value) { return name_of(thermostat_names, value); }

Thermostat thermostat_from_string(const std::string& name) {
  return value_named(thermostat_names, name, "thermostat", "thermostat");
}

std::string md_force_refusal(MdForceImpl impl, const MdShape& shape, Platform platform) {
  switch (impl) {
    case MdForceImpl::all_pairs:
      return {};
    case MdForceImpl::cuda:
#ifdef KMOL_HAVE_CUDA
      return platform == Platform::cuda ? "" : "cuda runs on the Cuda execution space only";
#else
      return "cuda is not compiled into this build (configure with KMOL_CONFIG=cuda)";
#endif
    case MdForceImpl::cells:
      // Cells of edge >= r_c; with fewer than three per side a neighbour cell would be met twice.
      return shortest_side(shape) >= 3 * shape.cutoff ? ""
                                                      : "cells need a box at least 3 r_c across";
    case MdForceImpl::neighbour_half:
    case MdForceImpl::neighbour_full:
      return shortest_side(shape) >= 3 * (shape.cutoff + shape.skin)
                 ? ""
                 : "neighbour lists need a box at least 3 (r_c + skin) across";
    case MdForceImpl::host:
      if (platform != Platform::host) return "host runs on host execution spaces only";
      if (!lj_host_available()) return "host needs a build with AVX2 (x86-64-v3 flags)";
      return shortest_side(shape) >= 3 * (shape.cutoff + shape.skin)
                 ? ""
                 : "neighbour lists need a box at least 3 (r_c + skin) across";
    case MdForceImpl::automatic:
      break;
  }
  return "automatic is not an implementation";
}

MdForceImpl choose_md_force_impl(const MdShape& shape, Platform platform, MdForceImpl requested) {
  if (requested != MdForceImpl::automatic) {
    const std::string why = md_force_refusal(requested, shape, platform);
    if (!why.empty()) throw UnsupportedError("md --impl " + to_string(requested) + ": " + why);
    return requested;
  }
  // Measured (perf/bench_md, same run, perf/results/2026-11-21-*-md-*.json): on CPUs the AVX2
  // half list (host) beats full lists 2.5-3.5x per core; on the H200 full lists win (no atomics:
  // 1.2-1.35x half lists).
  for (MdForceImpl impl :
       {MdForceImpl::host, MdForceImpl::neighbour_full, MdForceImpl::cells, MdForceImpl::cuda})
    if (md_force_refusal(impl, shape, platform).empty()) return impl;
  return MdForceImpl::all_pairs;
}

AlgorithmSummary md_summary() {
  AlgorithmSummary s{
      "md",
      "Lennard-Jones molecular dynamics (shifted force, orthorhombic box, velocity Verlet)",
      {}};
  s.implementations.push_back({"all_pairs", "every backend; team scratch tiles; float, double",
                               "boxes too small for cells"});
#ifdef KMOL_HAVE_CUDA
  s.implementations.push_back(
      {"cuda", "Cuda space; shared-memory tiles; float, double", "small boxes on the Cuda space"});
#endif
  s.implementations.push_back(
      {"cells", "every backend; box >= 3 r_c; float, double", "box too small for lists"});
  s.implementations.push_back({"neighbour_half",
                               "every backend; box >= 3 (r_c + skin); ScatterView forces",
                               "never automatically (--impl neighbour_half)"});
  s.implementations.push_back({"neighbour_full", "every backend; box >= 3 (r_c + skin); no atomics",
                               "GPUs: boxes at least 3 (r_c + skin) across"});
  s.implementations.push_back({"host",
                               "host spaces, AVX2 builds (--impl cpu is an alias); box >= 3 (r_c + "
                               "skin); half list in cell order, "
                               "per-thread forces",
                               "CPUs: boxes at least 3 (r_c + skin) across"});
  return s;
}

}  // namespace kmol
