#include "kernels/coulomb/selection.hpp"

#include "kernels/coulomb/cuda/cutoff_bins.hpp"
#include "kmol/core/errors.hpp"
#include "kmol/core/names.hpp"

namespace kmol {
namespace {

constexpr Named<CoulombMethod> coulomb_method_names[] = {{CoulombMethod::direct, "direct"},
                                                         {CoulombMethod::cutoff, "cutoff"},
                                                         {CoulombMethod::mdh, "mdh"}};
constexpr Named<CoulombImpl> coulomb_impl_names[] = {{CoulombImpl::automatic, "auto"},
                                                     {CoulombImpl::kokkos, "kokkos"},
                                                     {CoulombImpl::host, "host"},
                                                     {CoulombImpl::cuda, "cuda"}};
constexpr Named<PotentialUnits> potential_units_names[] = {
    {PotentialUnits::kT_per_e, "kT/e"},
    {PotentialUnits::volt, "V"},
    {PotentialUnits::kcal_per_mol_e, "kcal/mol/e"}};

}  // namespace

std::string to_string(CoulombMethod value) { return name_of(coulomb_method_names, value); }

CoulombMethod coulomb_method_from_string(const std::string& name) {
  return value_named(coulomb_method_names, name, "--method", "method");
}

std::string to_string(CoulombImpl value) { return name_of(coulomb_impl_names, value); }

CoulombImpl coulomb_impl_from_string(const std::string& name) {
  return value_named(coulomb_impl_names, name, "--impl", "potential implementation");
}

std::string to_string(PotentialUnits value) { return name_of(potential_units_names, value); }

PotentialUnits potential_units_from_string(const std::string& name) {
  return value_named(potential_units_names, name, "--units", "units");
}

std::string coulomb_refusal(CoulombImpl impl, [[maybe_unused]] const CoulombShape& shape,
                            Platform platform) {
  switch (impl) {
    case CoulombImpl::kokkos:
      return {};
    case CoulombImpl::host:
      return platform == Platform::host ? "" : "host runs on CPU execution spaces only";
    case CoulombImpl::cuda:
#ifdef KMOL_HAVE_CUDA
      if (platform != Platform::cuda) return "cuda runs on the Cuda execution space only";
      if (shape.method == CoulombMethod::cutoff &&
          !coulomb::cutoff_fits_cuda(shape.spacing, shape.cutoff))
        return "cuda: the cutoff reaches more than 4096 neighbour bins (use kokkos)";
      return {};
#else
      return "cuda is not compiled into this build (configure with KMOL_CONFIG=cuda)";
#endif
    case CoulombImpl::automatic:
      break;
  }
  return "automatic is not an implementation";
}

CoulombImpl choose_coulomb_impl(const CoulombShape& shape, Platform platform,
                                CoulombImpl requested) {
  if (requested != CoulombImpl::automatic) {
    const std::string why = coulomb_refusal(requested, shape, platform);
    if (!why.empty())
      throw UnsupportedError("potential --impl " + to_string(requested) + ": " + why);
    return requested;
  }
  // Measured on an H200 (perf/results/2026-11-21-h200-coulomb.json, docs/coulomb.md): the raw
  // kernel wins direct whole lattices (1,336 vs 1,236 G evaluations/s); the portable one, with a
  // point per thread, wins mdh faces (2-D faces leave the raw kernel's row tiles too few blocks:
  // 42 vs 339 ms) and the water-box cutoff (35.6 vs 39.0 ms).
  if (platform == Platform::cuda && (shape.faces_only || shape.method == CoulombMethod::cutoff))
    return CoulombImpl::kokkos;
  for (CoulombImpl impl : {CoulombImpl::cuda, CoulombImpl::host})
    if (coulomb_refusal(impl, shape, platform).empty()) return impl;
  return CoulombImpl::kokkos;
}

AlgorithmSummary coulomb_summary() {
  AlgorithmSummary s{
      "coulomb",
      "electrostatic potential maps: direct Coulomb, cutoff (NAMD shifting), multiple "
      "Debye-Hueckel; whole lattice or mdh boundary faces",
      {}};
  s.implementations.push_back(
      {"kokkos", "every backend; direct, cutoff (cell list), mdh; float, double",
       "cutoff and mdh faces on the Cuda space; backends without a specialised kernel"});
  s.implementations.push_back(
      {"host",
       "CPU spaces; direct and mdh row by row (vectorised), cutoff atom by atom over the clipped "
       "cylinder of points; float, double",
       "every method on CPU spaces"});
#ifdef KMOL_HAVE_CUDA
  s.implementations.push_back(
      {"cuda",
       "Cuda space; atom tiles in constant memory (direct, mdh), fixed-capacity bins with "
       "overflow on the CPU (cutoff); float, double",
       "direct and whole-lattice mdh on the Cuda space"});
#endif
  return s;
}

}  // namespace kmol
