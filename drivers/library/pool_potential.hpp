#pragma once
// Potential maps on the worker pool, split into slabs of z planes. Every slab is a set of blocks
// of the one validated job (same origin, same folded charges), so each lattice point is computed
// exactly as a single-device run of that implementation computes it; each slab's points are
// owned by the unit that computes them, cleared before every attempt, so a retried slab leaves
// no trace of the failed one. Mixed CPU and GPU workers give each slab the values of its
// implementation (the two agree to the tolerances of docs/coulomb.md, not bit for bit).
#include <cstdint>

#include "drivers/library/worker_pool.hpp"
#include "kernels/coulomb/coulomb.hpp"

namespace kmol {

// The z planes [first, last) of slab s of `slabs` over nz planes.
inline std::int64_t slab_begin(std::int64_t nz, std::int64_t slabs, std::int64_t s) {
  return nz * s / slabs;
}

// Computes slabs [first_slab, last_slab) of `slabs` (0: three per worker; last_slab -1: all);
// the map's other points stay 0 (MPI ranks each compute their own range of slabs).
template <class T>
PotentialMap<T> coulomb_potential_on_pool(WorkerPool& pool, const CoulombInput<T>& input,
                                          const CoulombSettings& settings, std::int64_t slabs = 0,
                                          std::int64_t first_slab = 0, std::int64_t last_slab = -1);

}  // namespace kmol
