#include "drivers/library/pool_potential.hpp"

#include <algorithm>
#include <mutex>
#include <string>

#include "kernels/coulomb/job.hpp"
#include "kernels/coulomb/platform_runners.hpp"
#include "kernels/coulomb/validation.hpp"
#include "kernels/run_on_device.hpp"
#include "kmol/core/errors.hpp"

namespace kmol {
namespace {

// The blocks of `all` clipped to z planes [z0, z1).
std::vector<LatticeBlock> clip_to_slab(const std::vector<LatticeBlock>& all, std::int64_t z0,
                                       std::int64_t z1) {
  std::vector<LatticeBlock> clipped;
  for (LatticeBlock b : all) {
    const std::int64_t lo = std::max(b.begin[2], z0), hi = std::min(b.begin[2] + b.size[2], z1);
    if (hi <= lo) continue;
    b.begin[2] = lo;
    b.size[2] = hi - lo;
    if (b.points() > 0) clipped.push_back(b);
  }
  return clipped;
}

}  // namespace

template <class T>
PotentialMap<T> coulomb_potential_on_pool(WorkerPool& pool, const CoulombInput<T>& input,
                                          const CoulombSettings& settings, std::int64_t slabs,
                                          std::int64_t first_slab, std::int64_t last_slab) {
  const CoulombJob<T> whole = prepare_coulomb(input, settings);
  PotentialMap<T> map;
  map.lattice = settings.lattice;
  map.units = settings.units;
  map.values.assign(std::size_t(settings.lattice.points()), T(0));
  const std::int64_t nz = settings.lattice.counts[2];
  const std::int64_t n_slabs =
      std::clamp<std::int64_t>(slabs > 0 ? slabs : 3 * std::int64_t(pool.size()), 1, nz);
  std::mutex record;
  std::string launch;
  const std::int64_t first = std::clamp<std::int64_t>(first_slab, 0, n_slabs);
  const std::int64_t last =
      last_slab < 0 ? n_slabs : std::clamp<std::int64_t>(last_slab, first, n_slabs);
  pool.run(last - first, [&](const WorkerContext& worker, std::int64_t unit) {
    const std::int64_t slab = first + unit;
    CoulombJob<T> part = whole;
    part.values = map.values.data();
    part.blocks = clip_to_slab(whole.blocks, slab_begin(nz, n_slabs, slab),
                               slab_begin(nz, n_slabs, slab + 1));
    for (const LatticeBlock& b : part.blocks)  // the slab's own points: no other unit writes them
      for (std::int64_t k = b.begin[2]; k < b.begin[2] + b.size[2]; ++k)
        for (std::int64_t j = b.begin[1]; j < b.begin[1] + b.size[1]; ++j)
          std::fill_n(map.values.begin() + whole.index(b.begin[0], j, k), b.size[0], T(0));
    if (part.blocks.empty()) return;
    const std::string how = run_on_device<CoulombRunner, coulomb_implementations>(
        "potential", platform_implementation(coulomb_implementations, worker.device.platform),
        worker.device, part);
    std::lock_guard<std::mutex> lock(record);
    if (worker.spec.kind == WorkerKind::gpu || launch.empty()) launch = how;
  });
  const bool gpu = pool.size() > 0 && pool.workers()[0].kind == WorkerKind::gpu;
  map.impl_used =
      platform_implementation(coulomb_implementations, gpu ? Platform::cuda : Platform::host);
  map.launch = launch + "; " + std::to_string(n_slabs) + " slabs on " + pool.describe();
  return map;
}

template PotentialMap<float> coulomb_potential_on_pool(WorkerPool&, const CoulombInput<float>&,
                                                       const CoulombSettings&, std::int64_t,
                                                       std::int64_t, std::int64_t);
template PotentialMap<double> coulomb_potential_on_pool(WorkerPool&, const CoulombInput<double>&,
                                                        const CoulombSettings&, std::int64_t,
                                                        std::int64_t, std::int64_t);

}  // namespace kmol
