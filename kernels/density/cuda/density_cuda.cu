// Gaussian density maps in raw CUDA, after QuickSurf's design: atoms hashed into cells on the
// device (atomic counts, a CUB exclusive scan, atomic fill, each cell sorted by atom index so the
// sums do not depend on the fill's race), gathered as float4 records in cell order; each thread
// sums a run of points_per_thread lattice points along x from the cells within the cut radius.
#include <cuda_runtime.h>
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "kernels/cuda_check.hpp"
#include "kernels/cuda_pieces.hpp"
#include "kernels/cuda_staging.hpp"
#include "kernels/density/cuda/density_cuda.hpp"
#include "kernels/density/half.hpp"
#include "kernels/host_copy.hpp"

namespace kmol::density {
namespace {

constexpr int kRunsX = 8, kRowsY = 16;  // a block: 8 runs of 4 points along x, 16 rows along y

constexpr CudaCheck check{"CUDA density"};

__global__ void cell_of_kernel(CellGrid grid, int n, const float* __restrict__ x,
                               const float* __restrict__ y, const float* __restrict__ z,
                               int* __restrict__ cell_of, int* __restrict__ counts) {
  const int a = blockIdx.x * blockDim.x + threadIdx.x;
  if (a >= n) return;
  const long long c[3] = {grid.global_cell(x[a]) - grid.lo[0], grid.global_cell(y[a]) - grid.lo[1],
                          grid.global_cell(z[a]) - grid.lo[2]};
  bool in = true;
  for (int d = 0; d < 3; ++d) in = in && c[d] >= 0 && c[d] < grid.dims[d];
  const int cell = in ? int((c[2] * grid.dims[1] + c[1]) * grid.dims[0] + c[0]) : -1;
  cell_of[a] = cell;
  if (in) atomicAdd(&counts[cell], 1);
}

__global__ void fill_kernel(int n, const int* __restrict__ cell_of, const int* __restrict__ starts,
                            int* cursor, int* __restrict__ order) {
  const int a = blockIdx.x * blockDim.x + threadIdx.x;
  if (a >= n) return;
  const int cell = cell_of[a];
  if (cell >= 0) order[starts[cell] + atomicAdd(&cursor[cell], 1)] = a;
}

__global__ void sort_gather_kernel(long long cells, const int* __restrict__ starts,
                                   int* __restrict__ order, const float* __restrict__ x,
                                   const float* __restrict__ y, const float* __restrict__ z,
                                   const float* __restrict__ factor,
                                   const float* __restrict__ height, float4* __restrict__ atoms,
                                   float* __restrict__ sorted_height) {
  const long long c = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (c >= cells) return;
  const int begin = starts[c], end = starts[c + 1];
  for (int s = begin + 1; s < end; ++s) {
    const int a = order[s];
    int t = s;
    for (; t > begin && order[t - 1] > a; --t) order[t] = order[t - 1];
    order[t] = a;
  }
  for (int s = begin; s < end; ++s) {
    const int a = order[s];
    atoms[s] = make_float4(x[a], y[a], z[a], factor[a]);
    if (height != nullptr) sorted_height[s] = height[a];
  }
}

template <class Out>
__device__ __forceinline__ Out store_as(float v);
template <>
__device__ __forceinline__ float store_as<float>(float v) {
  return v;
}
template <>
__device__ __forceinline__ unsigned short store_as<unsigned short>(float v) {
  return float_to_half(v);
}

// Weighted: each Gaussian times its height (unit heights cost nothing in the other instance).
template <class Out, bool Weighted>
__global__ void __launch_bounds__(kRunsX* kRowsY)
    sum_kernel(CellGrid grid, long long nx, long long ny, long long k0, float hx, float hy,
               float hz, float cut, float limit, const int* __restrict__ starts,
               const float4* __restrict__ atoms, const float* __restrict__ heights,
               Out* __restrict__ out) {
  constexpr int P = points_per_thread;
  const long long i0 = ((long long)blockIdx.x * kRunsX + threadIdx.x) * P;
  const long long j = (long long)blockIdx.y * kRowsY + threadIdx.y, kk = blockIdx.z;
  if (i0 >= nx || j >= ny) return;
  float px[P], sum[P];
#pragma unroll
  for (int p = 0; p < P; ++p) {
    px[p] = float(i0 + p) * hx;
    sum[p] = 0;
  }
  const float py = float(j) * hy, pz = float(k0 + kk) * hz;
  long long lo[3] = {grid.global_cell(px[0] - cut), grid.global_cell(py - cut),
                     grid.global_cell(pz - cut)};
  long long hi[3] = {grid.global_cell(px[P - 1] + cut), grid.global_cell(py + cut),
                     grid.global_cell(pz + cut)};
#pragma unroll
  for (int d = 0; d < 3; ++d) {
    lo[d] = max(lo[d] - grid.lo[d], 0LL);
    hi[d] = min(hi[d] - grid.lo[d], grid.dims[d] - 1LL);
  }
  for (long long cz = lo[2]; cz <= hi[2]; ++cz)
    for (long long cy = lo[1]; cy <= hi[1]; ++cy) {
      const long long row = (cz * grid.dims[1] + cy) * grid.dims[0];
      const int begin = __ldg(&starts[row + lo[0]]), end = __ldg(&starts[row + hi[0] + 1]);
      for (int s = begin; s < end; ++s) {
        const float4 a = __ldg(&atoms[s]);
        const float dy = a.y - py, dz = a.z - pz;
        const float dyz = fmaf(dy, dy, dz * dz);
        if (dyz * a.w > limit) continue;
#pragma unroll
        for (int p = 0; p < P; ++p) {
          const float dx = a.x - px[p];
          const float term = gaussian_term(fmaf(dx, dx, dyz), a.w, limit);
          if constexpr (Weighted)
            sum[p] = fmaf(__ldg(&heights[s]), term, sum[p]);
          else
            sum[p] += term;
        }
      }
    }
  const long long base = (kk * ny + j) * nx;
#pragma unroll
  for (int p = 0; p < P; ++p)
    if (i0 + p < nx) out[base + i0 + p] = store_as<Out>(sum[p]);
}

// What a caller keeps between calls on one device (cuda_staging.hpp): the atoms and the map in
// page-locked memory, and every device array, so that a repeated map pays neither allocations
// nor copies through pageable memory.
struct DensityWorkspace {
  cuda_staging::PinnedBuffer host_atoms, host_map;
  cuda_staging::DeviceBuffer coords, cell_of, counts, starts, order, scratch, atoms, heights, map;
  cuda_staging::StagingRule rule;
  bool staging = false;  // the current call's choice

  // Whether a slab stages: a call's first slab as the rule says, its other slabs as the first
  // (pinning for a call's own later slabs costs more than their pageable copies).
  bool stages(std::size_t atom_bytes, std::size_t map_bytes, bool first_slab) {
    if (first_slab) staging = rule.stages(atom_bytes, map_bytes);
    return staging;
  }
};

// Returns whether the copies were staged through page-locked memory.
template <class Out>
bool run(const DensityJob& job, Out* host_out, cudaStream_t stream, int host_threads) {
  const int n = int(job.n);
  const long long cells = job.cells.cells();
  const std::int64_t points = job.slab_points();
  auto ws = cuda_staging::workspaces<DensityWorkspace>().lease();
  // x, y, z, the factors and any heights one after the other on the device.
  const std::size_t un = std::size_t(n);
  const bool weighted = !job.heights.empty();
  const std::size_t columns = weighted ? 5 : 4;
  const std::size_t map_bytes = sizeof(Out) * std::size_t(points);
  const bool staged = ws->stages(sizeof(float) * columns * un, map_bytes, job.k_begin == 0);
  const float* column[5] = {job.coords[0].data(), job.coords[1].data(), job.coords[2].data(),
                            job.factors.data(), job.heights.data()};
  float* const xyzf = ws->coords.reserve<float>(columns * un);
  if (staged) {  // one copy up
    float* host_atoms = ws->host_atoms.reserve<float>(columns * un);
    for (std::size_t c = 0; c < columns; ++c)
      copy_in_parallel(host_atoms + c * un, column[c], sizeof(float) * un, host_threads);
    check(cudaMemcpyAsync(xyzf, host_atoms, sizeof(float) * columns * un, cudaMemcpyHostToDevice,
                          stream),
          "copy atoms");
  } else {
    for (std::size_t c = 0; c < columns; ++c)
      check(cudaMemcpyAsync(xyzf + c * un, column[c], sizeof(float) * un, cudaMemcpyHostToDevice,
                            stream),
            "copy atoms");
  }
  const float *x = xyzf, *y = xyzf + un, *z = xyzf + 2 * un, *factor = xyzf + 3 * un;
  const float* height = weighted ? xyzf + 4 * un : nullptr;
  int* const cell_of = ws->cell_of.reserve<int>(un);
  int* const counts = ws->counts.reserve<int>(std::size_t(cells + 1));
  int* const starts = ws->starts.reserve<int>(std::size_t(cells + 1));
  int* const order = ws->order.reserve<int>(un);
  check(cudaMemsetAsync(counts, 0, sizeof(int) * std::size_t(cells + 1), stream), "clear counts");
  const int block = 256;
  if (n > 0)
    cell_of_kernel<<<(n + block - 1) / block, block, 0, stream>>>(job.cells, n, x, y, z, cell_of,
                                                                  counts);
  std::size_t scratch_bytes = 0;
  check(
      cub::DeviceScan::ExclusiveSum(nullptr, scratch_bytes, counts, starts, int(cells + 1), stream),
      "scan size");
  unsigned char* const scratch =
      ws->scratch.reserve<unsigned char>(std::max<std::size_t>(scratch_bytes, 1));
  check(
      cub::DeviceScan::ExclusiveSum(scratch, scratch_bytes, counts, starts, int(cells + 1), stream),
      "scan");
  check(cudaMemsetAsync(counts, 0, sizeof(int) * std::size_t(cells + 1), stream), "clear cursors");
  if (n > 0)
    fill_kernel<<<(n + block - 1) / block, block, 0, stream>>>(n, cell_of, starts, counts, order);
  float4* const atoms = ws->atoms.reserve<float4>(un);
  float* const heights = weighted ? ws->heights.reserve<float>(un) : nullptr;
  sort_gather_kernel<<<unsigned((cells + block - 1) / block), block, 0, stream>>>(
      cells, starts, order, x, y, z, factor, height, atoms, heights);
  Out* const out = ws->map.reserve<Out>(std::size_t(points));
  const long long nx = job.counts[0], ny = job.counts[1],
                  runs = (nx + points_per_thread - 1) / points_per_thread;
  const dim3 threads(kRunsX, kRowsY);
  const unsigned blocks_x = unsigned((runs + kRunsX - 1) / kRunsX),
                 blocks_y = unsigned((ny + kRowsY - 1) / kRowsY);
  const auto sum = weighted ? sum_kernel<Out, true> : sum_kernel<Out, false>;
  // Planes in pieces a cancel can stop between (a cancelled call drops its workspace).
  const auto planes = [&](std::int64_t first, std::int64_t end) {
    sum<<<dim3(blocks_x, blocks_y, unsigned(end - first)), threads, 0, stream>>>(
        job.cells, nx, ny, job.k_begin + first, job.spacing[0], job.spacing[1], job.spacing[2],
        job.cut, job.limit, starts, atoms, heights, out + first * nx * ny);
    check(cudaGetLastError(), "launch");
  };
  // The driver fills pageable memory from one thread: the host threads take the fresh map's page
  // faults first, while the device sorts the atoms into cells.
  if (!staged) zero_in_parallel(host_out, map_bytes, host_threads);
  launch_in_pieces_on(stream, job.k_end - job.k_begin,
                      std::int64_t(blocks_x) * blocks_y * kRunsX * kRowsY, "the density map",
                      planes);
  if (!staged) {
    check(cudaMemcpyAsync(host_out, out, map_bytes, cudaMemcpyDeviceToHost, stream), "copy map");
    check(cudaStreamSynchronize(stream), "density kernels");
    ws.done();
    return false;
  }
  Out* const host_map = ws->host_map.reserve<Out>(std::size_t(points));
  check(cudaMemcpyAsync(host_map, out, map_bytes, cudaMemcpyDeviceToHost, stream), "copy map");
  check(cudaStreamSynchronize(stream), "density kernels");
  ws.done();
  copy_in_parallel(host_out, host_map, map_bytes, host_threads);
  return true;
}

}  // namespace

std::string density_cuda(const DensityJob& job, bool half, void* out, cudaStream_t stream,
                         int host_threads) {
  if (job.n >= (std::int64_t(1) << 31) || job.cells.cells() >= (std::int64_t(1) << 31) - 1)
    throw std::runtime_error("CUDA density: more than 2^31 atoms or cells (use --impl kokkos)");
  const bool staged = half ? run(job, static_cast<unsigned short*>(out), stream, host_threads)
                           : run(job, static_cast<float*>(out), stream, host_threads);
  return "cuda: " + std::to_string(kRunsX) + "x" + std::to_string(kRowsY) + " threads of " +
         std::to_string(points_per_thread) + " points, cells of " + std::to_string(job.cut) + " A" +
         (staged ? "" : ", pageable copies");
}

}  // namespace kmol::density
