#pragma once
// Turns user input into a CoulombJob, refusing bad settings with errors that name the option.
#include "kernels/coulomb/coulomb.hpp"
#include "kernels/coulomb/job.hpp"

namespace kmol {

// Bytes a map of this lattice needs on the host in precision T (the values; GPU runs need as much
// again on the device).
std::int64_t potential_map_bytes(const Grid& lattice, int value_bytes);

// Throws InputError naming the option for spacing <= 0, cutoff <= 0 (cutoff method), negative
// ionic strength, temperature or dielectric <= 0, faces_only outside mdh, non-finite atoms, and a
// lattice whose map would not fit in memory (with the estimate).
void validate_coulomb(std::int64_t n_atoms, const CoulombSettings& settings, int value_bytes);

// The relative permittivity the method uses: the given one, or vacuum (direct, cutoff) / water
// (mdh).
double effective_dielectric(const CoulombSettings& settings);

// The job for `input` (validated settings); job.values is left for the caller to point at the map.
// on_device (a resident input that the kokkos implementation runs): the atoms are left where they
// are, for that implementation to check and prepare.
template <class T>
CoulombJob<T> prepare_coulomb(const CoulombInput<T>& input, const CoulombSettings& settings,
                              bool on_device = false);

// The boxes of lattice indices to compute: the whole lattice, or its six faces without overlap.
std::vector<LatticeBlock> lattice_blocks(const Grid& lattice, bool faces_only);

}  // namespace kmol
