// Cutoff maps in raw CUDA, after Rodrigues et al. (VMD's multilevel summation short-range part).
//
// Atoms are hashed on the device into cubic bins of points_per_bin^3 lattice points (about 4 A),
// each with a fixed capacity chosen from the occupancy so that almost no atom overflows; the bins
// and their fill counts live in global memory. Each bin keeps its atoms in index order (a count,
// a scan, an atomic fill, then each bin sorted), so the map never depends on the fill's race.
// A block computes one region of lattice points (the size of a bin), walking the list of bin
// offsets within the cutoff of its region, which sits in __constant__ memory (this unit includes
// no Kokkos). The filled slots of a batch of bins are staged, compacted, in shared memory and
// every thread sums its points over them. Atoms that do not fit their bin come back to the host,
// which sums them with the caller's function while the GPU runs.
//
// Only the coordinates and charges go up; the host never walks the atoms in bin order, which
// scatters at random once they outgrow its caches. The map comes back slab by slab. Calls that
// stage (cuda_staging.hpp: a workspace's later calls of a size) go through page-locked memory
// kept with the device buffers, the map through two slab buffers in turn that the host threads
// copy out of while the GPU computes the next slabs. A first call copies pageable, straight from
// the job and into the map, which the host threads fault in while the GPU computes.
#include <cuda_runtime.h>
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/coulomb/cuda/coulomb_cuda.hpp"
#include "kernels/coulomb/cuda/cutoff_bins.hpp"
#include "kernels/coulomb/evaluator.hpp"
#include "kernels/cuda_check.hpp"
#include "kernels/cuda_device_mutex.hpp"
#include "kernels/cuda_staging.hpp"
#include "kernels/host_copy.hpp"

namespace kmol {
namespace {

constexpr int kPointsPerThread = 4;  // along x: each atom's dy^2 + dz^2 serves all four
constexpr int kBinsPerBatch = 32;    // one warp lane per bin when a batch is compacted
constexpr std::size_t kStagedBytes = 32 * 1024;
constexpr long long kSlabs = 8;  // of the map, copied back while the next is computed
constexpr double kOverflowFraction =
    0.002;  // capacity: at most this share of atoms left to the host

constexpr CudaCheck check{"CUDA cutoff potential"};

template <class T>
struct alignas(4 * sizeof(T)) Atom4 {
  T x, y, z, q;
};

__constant__ int4 c_offsets[coulomb::cutoff_max_offsets];
PerDeviceMutex c_offsets_mutex;  // one bank per device: calls on one device take turns

struct Geometry {
  int m, capacity, n_offsets, batch, threads_per_row;
  long long regions[3], bins[3], counts[3];
  int pad;
  long long first_region_z;  // of the slab being launched
  long long k_begin, k_end;  // the z planes computed: the job's (the whole lattice, or a slab of
                             // the worker pool), the only planes the device map holds
};

// One block per region of m^3 points. Each thread owns up to four points of one row (x), so the
// part of the squared distance across the row is computed once per atom. The bins within the
// cutoff are visited a batch at a time: warp 0 scans the batch's fill counts, and the block copies
// only the filled slots into shared memory, one contiguous run, so that empty slots of the fixed
// capacity cost no arithmetic.
template <class T, coulomb::Summation S>
__global__ void cutoff_kernel(const Atom4<T>* __restrict__ bins, const int* __restrict__ filled,
                              Geometry g, T h, T rc2, T inv_rc2, T* __restrict__ out) {
  extern __shared__ unsigned char staged_bytes[];
  Atom4<T>* staged = reinterpret_cast<Atom4<T>*>(staged_bytes);
  __shared__ long long batch_bin[kBinsPerBatch];
  __shared__ int batch_start[kBinsPerBatch], batch_count[kBinsPerBatch], batch_total;
  const int t = threadIdx.x, m = g.m;
  const int row = t / g.threads_per_row, lane_in_row = t % g.threads_per_row;
  const long long i0 = blockIdx.x * (long long)m, j = blockIdx.y * (long long)m + row % m,
                  k = (blockIdx.z + g.first_region_z) * m + row / m;
  const bool row_valid = row < m * m && j < g.counts[1] && k >= g.k_begin && k < g.k_end;
  const T py = T(j) * h, pz = T(k) * h;
  T px[kPointsPerThread];
  long long index[kPointsPerThread];
  coulomb::Accumulator<T, S> acc[kPointsPerThread];
#pragma unroll
  for (int s = 0; s < kPointsPerThread; ++s) {
    const int local = lane_in_row + s * g.threads_per_row;
    const long long i = i0 + local;
    index[s] = row_valid && local < m && i < g.counts[0]
                   ? ((k - g.k_begin) * g.counts[1] + j) * g.counts[0] + i
                   : -1;
    px[s] = T(i) * h;
  }
  const long long hx = blockIdx.x + g.pad, hy = blockIdx.y + g.pad,
                  hz = blockIdx.z + g.first_region_z + g.pad;
  for (int first = 0; first < g.n_offsets; first += g.batch) {
    __syncthreads();  // the previous batch is summed
    if (t < 32) {
      int count = 0;
      if (t < g.batch && first + t < g.n_offsets) {
        const int4 o = c_offsets[first + t];
        const long long bin = ((hz + o.z) * g.bins[1] + (hy + o.y)) * g.bins[0] + (hx + o.x);
        count = filled[bin];
        batch_bin[t] = bin;
      }
      int inclusive = count;
      for (int d = 1; d < 32; d *= 2) {
        const int below = __shfl_up_sync(0xffffffffu, inclusive, d);
        if (t >= d) inclusive += below;
      }
      batch_start[t] = inclusive - count;
      batch_count[t] = count;
      if (t == 31) batch_total = inclusive;
    }
    __syncthreads();
    const int slots = g.batch * g.capacity;
    for (int u = t; u < slots; u += blockDim.x) {
      const int b = u / g.capacity, s = u % g.capacity;
      if (s < batch_count[b]) staged[batch_start[b] + s] = bins[batch_bin[b] * g.capacity + s];
    }
    __syncthreads();
    const int n_staged = batch_total;
    for (int a = 0; a < n_staged; ++a) {
      const Atom4<T> atom = staged[a];
      const T dy = atom.y - py, dz = atom.z - pz;
      const T across2 = math::fma(dy, dy, dz * dz);
      // Every point of the row is then as far or farther (r2 >= across2): all its terms are 0
      // (adding them changes no sum). Whole warps skip about a quarter of the atoms they stage.
      if (!(across2 < rc2)) continue;
#pragma unroll
      for (int s = 0; s < kPointsPerThread; ++s) {
        const T dx = atom.x - px[s];
        acc[s].add(coulomb::cutoff_term(atom.q, math::fma(dx, dx, across2), rc2, inv_rc2));
      }
    }
  }
#pragma unroll
  for (int s = 0; s < kPointsPerThread; ++s)
    if (index[s] >= 0) out[index[s]] = acc[s].value();
}

// Where atoms fall: bin floor(coordinate / side) + pad along each axis, as the regions lie.
struct BinGrid {
  double per_side;
  long long bins[3];
  int pad;
};

// The bin of each atom (-1: beyond every bin, so farther than the cutoff from every point, or
// uncharged) and the bins' atom counts. `atoms` holds the n x, then y, z and charges.
template <class T>
__global__ void bin_atoms(int n, const T* __restrict__ atoms, BinGrid grid,
                          int* __restrict__ bin_of, int* __restrict__ count) {
  const int a = blockIdx.x * blockDim.x + threadIdx.x;
  if (a >= n) return;
  long long c[3];
  bool inside = true;
#pragma unroll
  for (int d = 0; d < 3; ++d) {
    c[d] = (long long)floor(double(atoms[std::size_t(d) * n + a]) * grid.per_side) + grid.pad;
    inside = inside && c[d] >= 0 && c[d] < grid.bins[d];
  }
  const bool charged = atoms[std::size_t(3) * n + a] != T(0);
  const int bin = inside && charged ? int((c[2] * grid.bins[1] + c[1]) * grid.bins[0] + c[0]) : -1;
  bin_of[a] = bin;
  if (bin >= 0) atomicAdd(&count[bin], 1);
}

// histogram[c]: the bins holding exactly c atoms, c up to `most`, the last entry the fuller ones;
// histogram[most + 2]: the atoms in all bins. Counted per block in shared memory first.
__global__ void occupancy_histogram(int n_bins, const int* __restrict__ count, int most,
                                    unsigned long long* histogram) {
  extern __shared__ unsigned int local[];  // most + 2 entries
  for (int i = threadIdx.x; i < most + 2; i += blockDim.x) local[i] = 0;
  __syncthreads();
  unsigned long long atoms = 0;
  for (int b = blockIdx.x * blockDim.x + threadIdx.x; b < n_bins; b += gridDim.x * blockDim.x) {
    atomicAdd(&local[min(count[b], most + 1)], 1u);
    atoms += unsigned(count[b]);
  }
  for (int d = 16; d > 0; d /= 2) atoms += __shfl_down_sync(0xffffffffu, atoms, d);
  if (threadIdx.x % 32 == 0) atomicAdd(&histogram[most + 2], atoms);
  __syncthreads();
  for (int i = threadIdx.x; i < most + 2; i += blockDim.x)
    if (local[i] > 0) atomicAdd(&histogram[i], (unsigned long long)local[i]);
}

// Each binned atom's index into its bin's run of `order` (runs start at `start`, in any order).
__global__ void gather_by_bin(int n, const int* __restrict__ bin_of, const int* __restrict__ start,
                              int* __restrict__ cursor, int* __restrict__ order) {
  const int a = blockIdx.x * blockDim.x + threadIdx.x;
  if (a >= n) return;
  const int bin = bin_of[a];
  if (bin >= 0) order[start[bin] + atomicAdd(&cursor[bin], 1)] = a;
}

// Each bin's run sorted by atom index; its first `capacity` atoms go into its slots, the rest to
// the overflow list (any order; the host sorts it). count becomes the bin's filled slots.
template <class T>
__global__ void fill_bins(int n_bins, int n, int capacity, const T* __restrict__ atoms,
                          const int* __restrict__ start, int* __restrict__ count,
                          int* __restrict__ order, Atom4<T>* __restrict__ slots,
                          int* __restrict__ overflow, int* __restrict__ n_overflow) {
  const int b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b >= n_bins) return;
  const int begin = start[b], held = count[b];
  for (int s = 1; s < held; ++s) {  // a bin holds a few atoms: insertion sort
    const int a = order[begin + s];
    int t = s;
    for (; t > 0 && order[begin + t - 1] > a; --t) order[begin + t] = order[begin + t - 1];
    order[begin + t] = a;
  }
  for (int s = 0; s < held; ++s) {
    const int a = order[begin + s];
    if (s < capacity)
      slots[std::size_t(b) * capacity + s] = {atoms[a], atoms[std::size_t(n) + a],
                                              atoms[std::size_t(2) * n + a],
                                              atoms[std::size_t(3) * n + a]};
    else
      overflow[atomicAdd(n_overflow, 1)] = a;
  }
  count[b] = min(held, capacity);
}

// The overflow atoms' job restricted to planes [first, end) of the lattice: the same lattice and
// coordinates (so each point's terms do not depend on where slabs begin), one block of those
// planes, adding to the whole map at `values`.
template <class T>
CoulombJob<T> planes_of(const CoulombJob<T>& overflow, long long first, long long end, T* values) {
  CoulombJob<T> out = overflow;
  out.blocks = {LatticeBlock{{0, 0, first}, {out.counts[0], out.counts[1], end - first}, 0}};
  out.values = values;
  return out;
}

// The smallest capacity that leaves at most kOverflowFraction of the binned atoms over, from
// bins_with[c], the bins holding exactly c atoms (the last entry: more than max_capacity).
int choose_capacity(const unsigned long long* bins_with, std::int64_t binned, int max_capacity) {
  for (int capacity = 1; capacity <= max_capacity; ++capacity) {
    std::int64_t over = 0;
    for (int c = capacity + 1; c <= max_capacity + 1; ++c)
      over += std::int64_t(bins_with[c]) * (c - capacity);
    if (double(over) <= kOverflowFraction * double(binned)) return capacity;
  }
  return max_capacity;
}

// What a caller keeps between calls on one device: the atoms going up and the overflow coming
// back (page-locked), the device's atoms, bin arrays and map, two page-locked slab buffers, the
// copy stream and events, and the sizes it has served.
struct CutoffWorkspace {
  cuda_staging::PinnedBuffer host_atoms, host_counts, host_overflow, host_slabs;
  cuda_staging::DeviceBuffer atoms, bin_of, order, counts, starts, cursors, scan_scratch, histogram,
      slots, map;
  cuda_staging::EventSet computed, copied, placed;
  cuda_staging::StagingRule rule;
  cudaStream_t copies = nullptr;

  CutoffWorkspace() {
    check(cudaStreamCreateWithFlags(&copies, cudaStreamNonBlocking), "create the copy stream");
  }
  CutoffWorkspace(const CutoffWorkspace&) = delete;
  CutoffWorkspace& operator=(const CutoffWorkspace&) = delete;
  ~CutoffWorkspace() { cudaStreamDestroy(copies); }
};

constexpr int kThreads = 256;  // per block of the binning kernels

int blocks_for(std::int64_t items) { return int((items + kThreads - 1) / kThreads); }

}  // namespace

template <class T>
std::string coulomb_cuda_cutoff(const CoulombJob<T>& job, cudaStream_t stream,
                                const HostCutoff<T>& host_cutoff, int host_threads) {
  const double h = double(job.spacing), rc = double(job.cutoff);
  Geometry g{};
  g.m = coulomb::cutoff_points_per_bin(h);
  const double side = g.m * h;
  const auto offsets = coulomb::cutoff_bin_offsets(side, rc);
  if (offsets.size() > std::size_t(coulomb::cutoff_max_offsets))
    throw std::invalid_argument("CUDA cutoff potential: cutoff too long for the bin neighbourhood");
  g.n_offsets = int(offsets.size());
  for (const auto& o : offsets)
    g.pad = std::max({g.pad, std::abs(o[0]), std::abs(o[1]), std::abs(o[2])});
  for (int d = 0; d < 3; ++d) {
    g.counts[d] = job.counts[d];
    g.regions[d] = (job.counts[d] + g.m - 1) / g.m;
    g.bins[d] = g.regions[d] + 2 * g.pad;
  }
  // Only the z planes of the job's blocks run; each point's sum is the same whichever they are.
  g.k_begin = g.counts[2];
  g.k_end = 0;
  for (const LatticeBlock& b : job.blocks) {
    g.k_begin = std::min<long long>(g.k_begin, b.begin[2]);
    g.k_end = std::max<long long>(g.k_end, b.begin[2] + b.size[2]);
  }
  if (g.k_end <= g.k_begin) return "cuda: no points";
  const long long region_lo = g.k_begin / g.m, region_hi = (g.k_end + g.m - 1) / g.m;
  g.threads_per_row = (g.m + kPointsPerThread - 1) / kPointsPerThread;
  const int block = std::max(32, (g.m * g.m * g.threads_per_row + 31) / 32 * 32);

  const std::int64_t n_bins = g.bins[0] * g.bins[1] * g.bins[2];
  if (job.n >= (std::int64_t(1) << 31) || n_bins >= (std::int64_t(1) << 31))
    throw std::invalid_argument(
        "CUDA cutoff potential: more than 2^31 atoms or bins (use --impl kokkos)");
  const int n = int(job.n), bins = int(n_bins);
  const std::size_t un = std::size_t(n);
  const std::size_t plane = std::size_t(job.counts[0] * job.counts[1]);
  const std::size_t map_values = std::size_t(g.k_end - g.k_begin) * plane;
  auto ws = cuda_staging::workspaces<CutoffWorkspace>().lease();
  const bool staged = ws->rule.stages(4 * un * sizeof(T), map_values * sizeof(T));
  // The atoms go up as four columns (x, y, z, charge).
  const T* const columns[4] = {job.coords[0].data(), job.coords[1].data(), job.coords[2].data(),
                               job.charges.data()};
  T* const d_atoms = ws->atoms.reserve<T>(4 * un);
  if (staged) {
    T* const staging = ws->host_atoms.reserve<T>(4 * un);
    for (std::size_t c = 0; c < 4; ++c)
      copy_in_parallel(staging + c * un, columns[c], un * sizeof(T), host_threads);
    check(cudaMemcpyAsync(d_atoms, staging, 4 * un * sizeof(T), cudaMemcpyHostToDevice, stream),
          "copy atoms");
  } else {
    for (std::size_t c = 0; c < 4; ++c)
      check(cudaMemcpyAsync(d_atoms + c * un, columns[c], un * sizeof(T), cudaMemcpyHostToDevice,
                            stream),
            "copy atoms");
  }
  // Count the atoms of each bin, and how many bins hold each count: the capacity.
  const int most = int(kStagedBytes / sizeof(Atom4<T>));
  int* const d_count = ws->counts.reserve<int>(std::size_t(bins));
  int* const d_bin_of = ws->bin_of.reserve<int>(std::max<std::size_t>(un, 1));
  // The histogram's most + 3 entries (occupancy_histogram), then the overflow's count.
  unsigned long long* const d_histogram =
      ws->histogram.reserve<unsigned long long>(std::size_t(most) + 4);
  int* const d_n_overflow = reinterpret_cast<int*>(d_histogram + most + 3);
  check(cudaMemsetAsync(d_count, 0, std::size_t(bins) * sizeof(int), stream), "clear counts");
  check(
      cudaMemsetAsync(d_histogram, 0, (std::size_t(most) + 4) * sizeof(unsigned long long), stream),
      "clear the histogram");
  const BinGrid grid{1 / side, {g.bins[0], g.bins[1], g.bins[2]}, g.pad};
  if (n > 0)
    bin_atoms<T><<<blocks_for(n), kThreads, 0, stream>>>(n, d_atoms, grid, d_bin_of, d_count);
  occupancy_histogram<<<std::min(blocks_for(bins), 1024), kThreads,
                        (std::size_t(most) + 2) * sizeof(unsigned), stream>>>(bins, d_count, most,
                                                                              d_histogram);
  check(cudaGetLastError(), "bin the atoms");
  auto* const histogram = ws->host_counts.reserve<unsigned long long>(std::size_t(most) + 4);
  check(
      cudaMemcpyAsync(histogram, d_histogram, (std::size_t(most) + 3) * sizeof(unsigned long long),
                      cudaMemcpyDeviceToHost, stream),
      "copy the occupancy");
  check(cudaStreamSynchronize(stream), "count the bins");
  g.capacity = choose_capacity(histogram, std::int64_t(histogram[most + 2]), most);
  g.batch = int(std::min<std::size_t>(kBinsPerBatch,
                                      kStagedBytes / (std::size_t(g.capacity) * sizeof(Atom4<T>))));
  // The bins' runs of atom indices, sorted, then their slots (left uninitialised beyond each bin's
  // filled ones, which are all the kernel reads) and the overflow.
  int* const d_start = ws->starts.reserve<int>(std::size_t(bins));
  int* const d_cursor = ws->cursors.reserve<int>(std::size_t(bins));
  int* const d_order = ws->order.reserve<int>(std::max<std::size_t>(un, 1));
  std::size_t scan_bytes = 0;
  check(cub::DeviceScan::ExclusiveSum(nullptr, scan_bytes, d_count, d_start, bins, stream),
        "scan size");
  unsigned char* const scan_scratch =
      ws->scan_scratch.reserve<unsigned char>(std::max<std::size_t>(scan_bytes, 1));
  check(cub::DeviceScan::ExclusiveSum(scan_scratch, scan_bytes, d_count, d_start, bins, stream),
        "scan the bins");
  check(cudaMemsetAsync(d_cursor, 0, std::size_t(bins) * sizeof(int), stream), "clear cursors");
  Atom4<T>* const d_bins = ws->slots.reserve<Atom4<T>>(std::size_t(bins) * std::size_t(g.capacity));
  int* const d_overflow = d_bin_of;  // the bins are read by gather_by_bin alone, before
  if (n > 0)
    gather_by_bin<<<blocks_for(n), kThreads, 0, stream>>>(n, d_bin_of, d_start, d_cursor, d_order);
  fill_bins<T><<<blocks_for(bins), kThreads, 0, stream>>>(
      bins, n, g.capacity, d_atoms, d_start, d_count, d_order, d_bins, d_overflow, d_n_overflow);
  check(cudaGetLastError(), "fill the bins");
  int* const n_overflow = reinterpret_cast<int*>(histogram + most + 3);
  check(cudaMemcpyAsync(n_overflow, d_n_overflow, sizeof(int), cudaMemcpyDeviceToHost, stream),
        "copy the overflow count");
  check(cudaEventRecord(ws->placed[0], stream), "record the bins");
  const int* const d_filled = d_count;

  std::size_t spilled = 0;  // atoms over their bin's capacity
  T* d_map = ws->map.reserve<T>(map_values);
  std::vector<int4> packed(offsets.size());
  for (std::size_t o = 0; o < offsets.size(); ++o)
    packed[o] = make_int4(offsets[o][0], offsets[o][1], offsets[o][2], 0);
  const T rc2 = job.cutoff * job.cutoff;
  // Slabs of regions along z: each comes back as soon as it is done, and the host copies it into
  // the map (and adds the overflow atoms' terms to it) while the GPU computes the slabs after it.
  const long long slabs = std::min<long long>(kSlabs, region_hi - region_lo);
  const auto plane_of = [&](long long s) {
    return std::clamp((region_lo + (region_hi - region_lo) * s / slabs) * g.m, g.k_begin, g.k_end);
  };
  std::size_t slab_values = 0;  // the most values of one slab
  for (long long slab = 0; slab < slabs; ++slab)
    slab_values = std::max(slab_values, std::size_t(plane_of(slab + 1) - plane_of(slab)) * plane);
  T* const ring = staged ? ws->host_slabs.reserve<T>(2 * slab_values) : nullptr;
  // Slab `slab` once computed: into the ring buffer slab % 2, or pageable straight into the map
  // (the host waits for that copy).
  const auto download = [&](long long slab) {
    const long long first = plane_of(slab), end = plane_of(slab + 1);
    check(cudaStreamWaitEvent(ws->copies, ws->computed[std::size_t(slab)], 0), "wait for a slab");
    T* const to = staged ? ring + std::size_t(slab % 2) * slab_values
                         : job.values + std::size_t(first) * plane;
    check(cudaMemcpyAsync(to, d_map + std::size_t(first - g.k_begin) * plane,
                          std::size_t(end - first) * plane * sizeof(T), cudaMemcpyDeviceToHost,
                          ws->copies),
          "copy the map back");
    check(cudaEventRecord(ws->copied[std::size_t(slab)], ws->copies), "record a copy");
  };
  {
    std::lock_guard<std::mutex> lock(c_offsets_mutex.current());
    check(cudaMemcpyToSymbolAsync(c_offsets, packed.data(), packed.size() * sizeof(int4), 0,
                                  cudaMemcpyHostToDevice, stream),
          "copy offsets");
    const std::size_t shared = std::size_t(g.batch) * std::size_t(g.capacity) * sizeof(Atom4<T>);
    for (long long slab = 0; slab < slabs; ++slab) {
      Geometry part = g;
      part.first_region_z = region_lo + (region_hi - region_lo) * slab / slabs;
      const long long end_z = region_lo + (region_hi - region_lo) * (slab + 1) / slabs;
      const dim3 grid(unsigned(g.regions[0]), unsigned(g.regions[1]),
                      unsigned(end_z - part.first_region_z));
      coulomb::with_summation(job.compensated, [&](auto s) {
        cutoff_kernel<T, decltype(s)::value><<<grid, block, shared, stream>>>(
            d_bins, d_filled, part, job.spacing, rc2, T(1) / rc2, d_map);
      });
      check(cudaGetLastError(), "kernel launch");
      check(cudaEventRecord(ws->computed[std::size_t(slab)], stream), "record a slab");
    }
    // The overflow atoms, in index order as the bins take them, while the GPU computes.
    check(cudaEventSynchronize(ws->placed[0]), "fill the bins");
    spilled = std::size_t(*n_overflow);
    int* const overflow_index = ws->host_overflow.reserve<int>(std::max<std::size_t>(spilled, 1));
    check(cudaMemcpyAsync(overflow_index, d_overflow, spilled * sizeof(int), cudaMemcpyDeviceToHost,
                          ws->copies),
          "copy the overflow");
    check(cudaStreamSynchronize(ws->copies), "copy the overflow");
    std::sort(overflow_index, overflow_index + spilled);
    CoulombJob<T> overflow;
    overflow.method = CoulombMethod::cutoff;
    overflow.spacing = job.spacing;
    overflow.counts = job.counts;
    overflow.cutoff = job.cutoff;
    overflow.compensated = job.compensated;
    overflow.blocks = job.blocks;
    overflow.n = std::int64_t(spilled);
    for (int d = 0; d < 3; ++d) overflow.coords[d].resize(spilled);
    overflow.charges.resize(spilled);
    for (std::size_t o = 0; o < spilled; ++o) {
      const std::size_t a = std::size_t(overflow_index[o]);
      for (int d = 0; d < 3; ++d) overflow.coords[d][o] = job.coords[d][a];
      overflow.charges[o] = job.charges[a];
    }
    // The driver fills pageable memory from one thread: the host threads take the map's page
    // faults first, while the device computes.
    if (!staged)
      zero_in_parallel(job.values + std::size_t(g.k_begin) * plane, map_values * sizeof(T),
                       host_threads);
    for (long long slab = 0; slab < (staged ? std::min<long long>(2, slabs) : 0); ++slab)
      download(slab);
    for (long long slab = 0; slab < slabs; ++slab) {
      const long long first = plane_of(slab), end = plane_of(slab + 1);
      if (staged) {
        check(cudaEventSynchronize(ws->copied[std::size_t(slab)]), "copy the map back");
        copy_in_parallel(job.values + std::size_t(first) * plane,
                         ring + std::size_t(slab % 2) * slab_values,
                         std::size_t(end - first) * plane * sizeof(T), host_threads);
        if (slab + 2 < slabs) download(slab + 2);  // into the buffer just emptied
      } else {
        download(slab);
      }
      if (overflow.n > 0 && end > first) host_cutoff(planes_of(overflow, first, end, job.values));
    }
    // The last copy followed every kernel and the upload: nothing queued uses the workspace now.
    ws.done();
  }
  return "cuda: " + std::to_string(g.m) + "^3-point regions, bins of " + std::to_string(side) +
         " A holding " + std::to_string(g.capacity) + " atoms, " + std::to_string(g.n_offsets) +
         " neighbour bins, " + std::to_string(spilled) + " overflow atoms on the host" +
         (staged ? "" : ", pageable copies");
}

template std::string coulomb_cuda_cutoff(const CoulombJob<float>&, cudaStream_t,
                                         const HostCutoff<float>&, int);
template std::string coulomb_cuda_cutoff(const CoulombJob<double>&, cudaStream_t,
                                         const HostCutoff<double>&, int);

}  // namespace kmol
