#pragma once
// The portable Gaussian density engine: one code for every Kokkos backend.
//   cells: each atom's cell (or none: too far from the slab), grouped by order_by_cell (sorted by
//     index, so sums never depend on the fill's race) and gathered into contiguous arrays;
//   sums: a thread per run of points_per_thread lattice points along x, looping over the cells
//     within the cut radius of the run; an atom's y and z distances are shared by the whole run.
#include <Kokkos_Core.hpp>

#include <string>

#include "kernels/cell_order_kokkos.hpp"
#include "kernels/density/half.hpp"
#include "kernels/density/implementations.hpp"
#include "kernels/density/job.hpp"
#include "kernels/empty_view.hpp"
#include "kernels/kept_arrays.hpp"
#include "kernels/launch_pieces_kokkos.hpp"

namespace kmol::density {

// An atom as the sums read it, in one load on GPUs.
struct alignas(16) CellAtom {
  float x, y, z, factor;
};

template <class Memory>
struct DeviceCells {
  using Starts = Kokkos::View<std::int64_t*, Memory>;
  using Atoms = Kokkos::View<CellAtom*, Memory>;
  using Floats = Kokkos::View<float*, Memory>;
  Starts starts = empty_view<Starts>();  // cells + 1
  Atoms atoms = empty_view<Atoms>();     // in cell order
  Floats height = empty_view<Floats>();  // in cell order, if any
};

// A device copy of a host array in the call's kept set (through its page-locked ring on GPUs: a
// pageable copy crawls through the driver's bounce buffer), valid while the set's lease lasts.
template <class ExecSpace, class V>
Kokkos::View<V*, typename ExecSpace::memory_space> upload(const ExecSpace& space,
                                                          KeptArrays<ExecSpace>& kept,
                                                          const DefaultInitVector<V>& host,
                                                          const char* name) {
  const auto staged = kept.copy_in(space, name, host.data(), host.size());
  return Kokkos::View<V*, typename ExecSpace::memory_space>(staged.data(), host.size());
}

template <class Memory>
struct DeviceAtoms {
  using Floats = Kokkos::View<float*, Memory>;
  Floats x = empty_view<Floats>(), y = empty_view<Floats>(), z = empty_view<Floats>(),
         factor = empty_view<Floats>();
  Floats height = empty_view<Floats>();  // zero-length when all 1
};

// The atoms' arrays in Memory, or zero-length ones where no kernel reads them, in `kept` (kept
// arrays: a GPU call allocates and frees nothing, and every free would wait for the device).
template <class ExecSpace>
DeviceAtoms<typename ExecSpace::memory_space> upload_atoms(const ExecSpace& space,
                                                           KeptArrays<ExecSpace>& kept,
                                                           const DensityJob& job, bool needed) {
  const DefaultInitVector<float> none;
  const auto& pick = [&](const DefaultInitVector<float>& v) -> const DefaultInitVector<float>& {
    return needed ? v : none;
  };
  return {upload(space, kept, pick(job.coords[0]), "density_x"),
          upload(space, kept, pick(job.coords[1]), "density_y"),
          upload(space, kept, pick(job.coords[2]), "density_z"),
          upload(space, kept, pick(job.factors), "density_factor"),
          upload(space, kept, pick(job.heights), "density_height")};
}

template <class ExecSpace>
DeviceCells<typename ExecSpace::memory_space> build_cells(
    const ExecSpace& space, KeptArrays<ExecSpace>& kept, const DensityJob& job,
    const DeviceAtoms<typename ExecSpace::memory_space>& atoms) {
  using Memory = typename ExecSpace::memory_space;
  const CellGrid grid = job.cells;
  const std::int64_t n = job.n, cells = grid.cells();
  const Kokkos::View<std::int64_t*, Memory> cell_of(
      kept.template array<std::int64_t>("density_cell_of", std::size_t(n)).data(), n);
  const auto x = atoms.x, y = atoms.y, z = atoms.z;
  Kokkos::parallel_for(
      "kmol::density::cell_of", Kokkos::RangePolicy<ExecSpace>(space, 0, n),
      KOKKOS_LAMBDA(const std::int64_t a) {
        const std::int64_t c[3] = {grid.global_cell(x(a)) - grid.lo[0],
                                   grid.global_cell(y(a)) - grid.lo[1],
                                   grid.global_cell(z(a)) - grid.lo[2]};
        bool in = true;
        for (int d = 0; d < 3; ++d) in = in && c[d] >= 0 && c[d] < grid.dims[d];
        cell_of(a) = in ? (c[2] * grid.dims[1] + c[1]) * grid.dims[0] + c[0] : -1;
      });
  const auto sorted = order_by_cell(space, Kokkos::View<const std::int64_t*, Memory>(cell_of),
                                    cells, "kmol::density::cell", kept);
  const auto starts = sorted.start, order = sorted.order;
  const std::int64_t placed = order.extent(0);
  const bool weighted = atoms.height.extent(0) > 0;
  const std::int64_t heights = weighted ? placed : 0;
  const DeviceCells<Memory> out{
      starts,
      Kokkos::View<CellAtom*, Memory>(
          kept.template array<CellAtom>("density_cell_atoms", std::size_t(placed)).data(), placed),
      Kokkos::View<float*, Memory>(
          kept.template array<float>("density_cell_height", std::size_t(heights)).data(), heights)};
  const auto gathered = out.atoms;
  const auto sh = out.height, f = atoms.factor, h = atoms.height;
  Kokkos::parallel_for(
      "kmol::density::cell_gather", Kokkos::RangePolicy<ExecSpace>(space, 0, placed),
      KOKKOS_LAMBDA(const std::int64_t s) {
        const std::int64_t a = order(s);
        gathered(s) = CellAtom{x(a), y(a), z(a), f(a)};
        if (weighted) sh(s) = h(a);
      });
  return out;
}

// A sum as the map stores it.
KOKKOS_INLINE_FUNCTION void store(float& slot, float value) { slot = value; }
KOKKOS_INLINE_FUNCTION void store(std::uint16_t& slot, float value) { slot = float_to_half(value); }

// The sums of one slab; Weighted: each Gaussian times its height (a separate instantiation, so
// that unit heights cost nothing).
template <bool Weighted, class ExecSpace, class Out>
void sum_slab(const ExecSpace& space, const DensityJob& job,
              const DeviceCells<typename ExecSpace::memory_space>& cells,
              Kokkos::View<Out*, typename ExecSpace::memory_space> out) {
  constexpr int P = points_per_thread;
  // Consecutive threads take tiles of tile_runs runs by tile_rows rows: a GPU warp's runs then
  // lie close together and walk mostly the same cells.
  constexpr int tile_runs = 8, tile_rows = 4, tile = tile_runs * tile_rows;
  const CellGrid grid = job.cells;
  const std::int64_t nx = job.counts[0], ny = job.counts[1], k0 = job.k_begin;
  const std::int64_t runs = (nx + P - 1) / P, tiles_x = (runs + tile_runs - 1) / tile_runs,
                     tiles_y = (ny + tile_rows - 1) / tile_rows;
  const std::int64_t threads = tiles_x * tiles_y * tile * (job.k_end - job.k_begin);
  const float hx = job.spacing[0], hy = job.spacing[1], hz = job.spacing[2], cut = job.cut,
              limit = job.limit;
  const auto starts = cells.starts;
  const auto atoms = cells.atoms;
  const auto height = cells.height;
  parallel_for_in_pieces(
      "kmol::density::sum", space, threads, "the density map", KOKKOS_LAMBDA(const std::int64_t t) {
        const std::int64_t lane = t % tile, tile_index = t / tile;
        const std::int64_t run = tile_index % tiles_x * tile_runs + lane % tile_runs;
        const std::int64_t j = tile_index / tiles_x % tiles_y * tile_rows + lane / tile_runs;
        const std::int64_t kk = tile_index / (tiles_x * tiles_y);
        if (run >= runs || j >= ny) return;
        const std::int64_t i0 = run * P;
        float px[P], sum[P];
        for (int p = 0; p < P; ++p) {
          px[p] = float(i0 + p) * hx;
          sum[p] = 0;
        }
        const float py = float(j) * hy, pz = float(k0 + kk) * hz;
        std::int64_t lo[3] = {grid.global_cell(px[0] - cut), grid.global_cell(py - cut),
                              grid.global_cell(pz - cut)};
        std::int64_t hi[3] = {grid.global_cell(px[P - 1] + cut), grid.global_cell(py + cut),
                              grid.global_cell(pz + cut)};
        for (int d = 0; d < 3; ++d) {
          lo[d] = lo[d] - grid.lo[d] < 0 ? 0 : lo[d] - grid.lo[d];
          hi[d] = hi[d] - grid.lo[d] >= grid.dims[d] ? grid.dims[d] - 1 : hi[d] - grid.lo[d];
        }
        for (std::int64_t cz = lo[2]; cz <= hi[2]; ++cz)
          for (std::int64_t cy = lo[1]; cy <= hi[1]; ++cy) {
            const std::int64_t row = (cz * grid.dims[1] + cy) * grid.dims[0];
            // Cells lo[0]..hi[0] of a row are contiguous in the sorted arrays.
            const std::int64_t begin = starts(row + lo[0]), end = starts(row + hi[0] + 1);
            for (std::int64_t s = begin; s < end; ++s) {
              const CellAtom atom = atoms(s);
              const float dy = atom.y - py, dz = atom.z - pz;
              const float dyz = math::fma(dy, dy, dz * dz);
              if (dyz * atom.factor > limit) continue;
              const float h = Weighted ? height(s) : 1.0f;
              for (int p = 0; p < P; ++p) {
                const float dx = atom.x - px[p];
                const float term = gaussian_term(math::fma(dx, dx, dyz), atom.factor, limit);
                if constexpr (Weighted)
                  sum[p] = math::fma(h, term, sum[p]);
                else
                  sum[p] += term;
              }
            }
          }
        const std::int64_t base = (kk * ny + j) * nx;
        for (int p = 0; p < P; ++p) {
          if (i0 + p >= nx) break;
          store(out(base + i0 + p), sum[p]);
        }
      });
}

// The slab's values in plane order (k - k_begin), stored as float or as binary16 bits.
template <class ExecSpace, class Out>
void density_kokkos(const ExecSpace& space, KeptArrays<ExecSpace>& kept, const DensityJob& job,
                    const DeviceAtoms<typename ExecSpace::memory_space>& atoms,
                    Kokkos::View<Out*, typename ExecSpace::memory_space> out) {
  const auto cells = build_cells(space, kept, job, atoms);
  if (atoms.height.extent(0) == 0)
    sum_slab<false>(space, job, cells, out);
  else
    sum_slab<true>(space, job, cells, out);
}

}  // namespace kmol::density

namespace kmol {

// A slab into host memory: computed there by spaces that reach it, otherwise into a kept view of
// the space and copied out through page-locked chunks (kept_arrays.hpp).
template <>
struct DensityRunner<DensityImpl::kokkos> {
  template <class ExecSpace, class Out>
  static std::string run(const ExecSpace& space, const density::DensityJob& job,
                         const density::DeviceAtoms<typename ExecSpace::memory_space>& atoms,
                         Out* host_out) {
    using Memory = typename ExecSpace::memory_space;
    const std::size_t points = std::size_t(job.slab_points());
    typename KeptArrays<ExecSpace>::Lease kept;  // the cells' arrays, and the map on GPUs
    if constexpr (Kokkos::SpaceAccessibility<ExecSpace, Kokkos::HostSpace>::accessible) {
      density::density_kokkos(space, *kept, job, atoms,
                              Kokkos::View<Out*, Memory>(host_out, points));
      space.fence();
    } else {
      const auto out = kept->template array<Out>("density_map", points);
      density::density_kokkos(space, *kept, job, atoms,
                              Kokkos::View<Out*, Memory>(out.data(), points));
      kept->copy_out(space, host_out, out, points);
    }
    return "kokkos: " + std::to_string(density::points_per_thread) +
           " points per thread, cells of " + std::to_string(job.cut) + " A";
  }
};

}  // namespace kmol
