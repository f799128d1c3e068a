#pragma once
#include <cstdint>
#include <vector>

#include "kernels/density/density.hpp"
#include "kernels/density/job.hpp"

namespace kmol::density {

// Checks the settings and the radii (InputError naming the field or the atom) and builds the job
// with every plane of the lattice; slab_job() narrows it to planes [k_begin, k_end). A resident
// input's atoms are left to the space (resident_atoms), which finishes the job with
// finish_density_job.
DensityJob prepare_density(const DensityInput& input, const DensitySettings& settings);
void finish_density_job(DensityJob& job, const DensitySettings& settings, double widest_sigma);
void narrow_to_slab(DensityJob& job, std::int64_t k_begin, std::int64_t k_end);

// Planes per slab so that one slab's map and work arrays fit `budget` bytes.
std::int64_t planes_per_slab(const DensityJob& job, double budget, int bytes_per_value);

}  // namespace kmol::density
