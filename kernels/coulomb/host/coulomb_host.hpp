#pragma once
// Potential maps on the host CPU over OpenMP threads. direct and mdh go row by row: each thread
// takes a row of lattice points, precomputes every atom's squared distance to the row's line
// once, then sums atoms for each point of the row in a lane-parallel (vectorised) loop. cutoff
// goes atom by atom: each thread owns a slab of z planes and adds each atom's shifted potential
// to the points of the slab inside the atom's sphere, row segment by row segment (the cylinder of
// points clipped to the sphere), so no two threads write the same point.
#include <string>

#include "kernels/coulomb/implementations.hpp"
#include "kernels/coulomb/job.hpp"
#include "kmol/core/device.hpp"

namespace kmol {

// Stores the job's points into job.values with up to `threads` OpenMP threads; returns the launch.
template <class T>
std::string coulomb_host(const CoulombJob<T>& job, int threads);

template <>
struct CoulombRunner<CoulombImpl::host> {
  template <class T>
  static std::string run(const Device& device, const CoulombJob<T>& job) {
    return coulomb_host(job, device.host_threads);
  }
};

}  // namespace kmol
