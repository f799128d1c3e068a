#include "kernels/coulomb/selection.hpp"

#include "kernels/coulomb/cuda/cutoff_bins.hpp"
#include "kernels/coulomb/implementations.hpp"
#include "kmol/core/errors.hpp"
#include "kmol/core/names.hpp"

namespace kmol {
namespace {

constexpr Named<CoulombMethod> coulomb_method_names[] = {{CoulombMethod::direct, "direct"},
                                                         {CoulombMethod::cutoff, "cutoff"},
                                                         {CoulombMethod::mdh, "mdh"}};
constexpr Named<PotentialUnits> potential_units_names[] = {
    {PotentialUnits::kT_per_e, "kT/e"},
    {PotentialUnits::volt, "V"},
    {PotentialUnits::kcal_per_mol_e, "kcal/mol/e"}};

}  // namespace

std::string to_string(CoulombMethod value) { return name_of(coulomb_method_names, value); }

CoulombMethod coulomb_method_from_string(const std::string& name) {
  return value_named(coulomb_method_names, name, "--method", "method");
}

std::string to_string(CoulombImpl value) {
  return implementation_name(coulomb_implementations, value);
}

CoulombImpl coulomb_impl_from_string(const std::string& name) {
  return implementation_named(coulomb_implementations, name, "--impl", "potential implementation");
}

std::string to_string(PotentialUnits value) { return name_of(potential_units_names, value); }

PotentialUnits potential_units_from_string(const std::string& name) {
  return value_named(potential_units_names, name, "--units", "units");
}

std::string coulomb_cuda_refusal(const CoulombShape& shape, Platform) {
  if (shape.resident) return "cuda reads host arrays, not Views already in the space's memory";
  if (shape.faces_only)
    return "cuda: mdh boundary faces run on kokkos (a 2-D face gives the raw kernel's row tiles "
           "too few blocks to fill the GPU)";
  if (shape.method == CoulombMethod::cutoff &&
      !coulomb::cutoff_fits_cuda(shape.spacing, shape.cutoff))
    return "cuda: the cutoff reaches more than 4096 neighbour bins (use kokkos)";
  return {};
}

std::string coulomb_refusal(CoulombImpl impl, const CoulombShape& shape, Platform platform) {
  return implementation_refusal(coulomb_implementations, impl, shape, platform);
}

CoulombImpl choose_coulomb_impl(const CoulombShape& shape, Platform platform,
                                CoulombImpl requested) {
  return choose_implementation(coulomb_implementations, "potential", requested, shape, platform);
}

AlgorithmSummary coulomb_summary() {
  return implementation_summary("coulomb",
                                "electrostatic potential maps: direct Coulomb, cutoff (NAMD "
                                "shifting), multiple Debye-Hueckel; whole lattice or mdh boundary "
                                "faces",
                                coulomb_implementations);
}

}  // namespace kmol
