#include "kernels/md/selection.hpp"

#include <algorithm>

#include "kernels/md/host/lj_host.hpp"
#include "kmol/core/errors.hpp"

namespace kmol {
namespace {

constexpr MdForceImpl all_impls[] = {MdForceImpl::all_pairs,      MdForceImpl::cuda,
                                     MdForceImpl::cells,          MdForceImpl::neighbour_half,
                                     MdForceImpl::neighbour_full, MdForceImpl::cpu};

double shortest_side(const MdShape& s) { return std::min({s.box.x, s.box.y, s.box.z}); }

}  // namespace

std::string to_string(MdForceImpl impl) {
  switch (impl) {
    case MdForceImpl::all_pairs:
      return "all_pairs";
    case MdForceImpl::cuda:
      return "cuda";
    case MdForceImpl::cells:
      return "cells";
    case MdForceImpl::neighbour_half:
      return "neighbour_half";
    case MdForceImpl::neighbour_full:
      return "neighbour_full";
    case MdForceImpl::cpu:
      return "cpu";
    case MdForceImpl::automatic:
      break;
  }
  return "auto";
}

MdForceImpl md_force_impl_from_string(const std::string& name) {
  if (name == "auto") return MdForceImpl::automatic;
  for (MdForceImpl impl : all_impls)
    if (to_string(impl) == name) return impl;
  throw InputError(
      {"", "impl", -1},
      "unknown md implementation '" + name +
          "' (expected auto, all_pairs, cuda, cells, neighbour_half, neighbour_full or cpu)");
}

std::string to_string(Thermostat thermostat) {
  switch (thermostat) {
    case Thermostat::none:
      return "none";
    case Thermostat::andersen:
      return "andersen";
    case Thermostat::langevin:
      return "langevin";
  }
  return "?";
}

Thermostat thermostat_from_string(const std::string& name) {
  for (Thermostat t : {Thermostat::none, Thermostat::andersen, Thermostat::langevin})
    if (to_string(t) == name) return t;
  throw InputError({"", "thermostat", -1},
                   "unknown thermostat '" + name + "' (expected none, andersen or langevin)");
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
    case MdForceImpl::cpu:
      if (platform != Platform::host) return "cpu runs on host execution spaces only";
      if (!lj_host_available()) return "cpu needs a build with AVX2 (x86-64-v3 flags)";
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
  // half list (cpu) beats full lists 2.5-3.5x per core; on the H200 full lists win (no atomics:
  // 1.2-1.35x half lists).
  for (MdForceImpl impl :
       {MdForceImpl::cpu, MdForceImpl::neighbour_full, MdForceImpl::cells, MdForceImpl::cuda})
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
  s.implementations.push_back(
      {"cpu",
       "host spaces, AVX2 builds; box >= 3 (r_c + skin); half list in cell order, "
       "per-thread forces",
       "CPUs: boxes at least 3 (r_c + skin) across"});
  return s;
}

}  // namespace kmol
