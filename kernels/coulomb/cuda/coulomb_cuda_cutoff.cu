// Cutoff maps in raw CUDA, after Rodrigues et al. (VMD's multilevel summation short-range part).
//
// Atoms are hashed on the host into cubic bins of points_per_bin^3 lattice points (about 4 A),
// each with a fixed capacity chosen from the occupancy so that almost no atom overflows; the bins
// and their fill counts live in global memory. A block computes one region of lattice points (the
// size of a bin), walking the list of bin offsets within the cutoff of its region, which sits in
// __constant__ memory (this unit includes no Kokkos). The filled slots of a batch of bins are
// staged, compacted, in shared memory and every thread sums its points over them. Atoms that do
// not fit their bin are summed on the host by the caller's function while the GPU runs.
//
// The bins are hashed straight into page-locked memory and the map comes back slab by slab
// through two page-locked buffers in turn, all kept between calls with the device buffers
// (cuda_staging.hpp): the host copies one slab into the map while the GPU computes the next.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
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
template <class T, bool Compensated>
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
  coulomb::Accumulator<T, Compensated> acc[kPointsPerThread];
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

// The smallest capacity that leaves at most kOverflowFraction of the binned atoms over.
int choose_capacity(const std::vector<int>& occupancy, std::int64_t binned, int max_capacity) {
  std::vector<std::int64_t> bins_with(std::size_t(max_capacity) + 2,
                                      0);  // bins holding exactly c (last: more)
  for (int c : occupancy) ++bins_with[std::min(c, max_capacity + 1)];
  for (int capacity = 1; capacity <= max_capacity; ++capacity) {
    std::int64_t over = 0;
    for (int c = capacity + 1; c <= max_capacity + 1; ++c) over += bins_with[c] * (c - capacity);
    if (double(over) <= kOverflowFraction * double(binned)) return capacity;
  }
  return max_capacity;
}

// What a caller keeps between calls on one device: the bins (fill counts, then slots) on both
// sides, the device map, two page-locked slab buffers, the copy stream and events, host scratch.
struct CutoffWorkspace {
  cuda_staging::PinnedBuffer host_bins, host_slabs;
  cuda_staging::DeviceBuffer bins, map;
  cuda_staging::EventSet computed, copied;
  std::vector<std::int64_t> bin_of;
  std::vector<int> occupancy;
  cudaStream_t copies = nullptr;

  CutoffWorkspace() {
    check(cudaStreamCreateWithFlags(&copies, cudaStreamNonBlocking), "create the copy stream");
  }
  CutoffWorkspace(const CutoffWorkspace&) = delete;
  CutoffWorkspace& operator=(const CutoffWorkspace&) = delete;
  ~CutoffWorkspace() { cudaStreamDestroy(copies); }
};

constexpr std::size_t kCountsAlign = 256;  // the slots start here past the fill counts

}  // namespace

template <class T>
std::string coulomb_cuda_cutoff(const CoulombJob<T>& job, cudaStream_t stream,
                                const HostCutoff<T>& host_cutoff, const HostCopy<T>& host_copy) {
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

  auto ws = cuda_staging::workspaces<CutoffWorkspace>().lease();
  // Hash the atoms; those beyond every bin are farther than the cutoff from every point.
  const std::int64_t n_bins = g.bins[0] * g.bins[1] * g.bins[2];
  std::vector<std::int64_t>& bin_of = ws->bin_of;
  std::vector<int>& occupancy = ws->occupancy;
  bin_of.assign(std::size_t(job.n), -1);
  occupancy.assign(std::size_t(n_bins), 0);
  std::int64_t binned = 0;
  const double per_side = 1 / side;
  for (std::int64_t a = 0; a < job.n; ++a) {
    std::int64_t c[3];
    bool inside = true;
    for (int d = 0; d < 3; ++d) {
      c[d] = std::int64_t(std::floor(double(job.coords[d][a]) * per_side)) + g.pad;
      inside = inside && c[d] >= 0 && c[d] < g.bins[d];
    }
    if (!inside || job.charges[a] == T(0)) continue;
    bin_of[a] = (c[2] * g.bins[1] + c[1]) * g.bins[0] + c[0];
    ++occupancy[bin_of[a]];
    ++binned;
  }
  g.capacity = choose_capacity(occupancy, binned, int(kStagedBytes / sizeof(Atom4<T>)));
  g.batch = int(std::min<std::size_t>(kBinsPerBatch,
                                      kStagedBytes / (std::size_t(g.capacity) * sizeof(Atom4<T>))));
  // Fill counts, then the slots (left uninitialised: the kernel reads only each bin's filled ones).
  const std::size_t counts_bytes =
      (std::size_t(n_bins) * sizeof(int) + kCountsAlign - 1) / kCountsAlign * kCountsAlign;
  const std::size_t upload_bytes =
      counts_bytes + std::size_t(n_bins) * std::size_t(g.capacity) * sizeof(Atom4<T>);
  unsigned char* staged_bins = ws->host_bins.reserve<unsigned char>(upload_bytes);
  int* filled = reinterpret_cast<int*>(staged_bins);
  Atom4<T>* bins = reinterpret_cast<Atom4<T>*>(staged_bins + counts_bytes);
  std::fill_n(filled, n_bins, 0);
  CoulombJob<T> overflow;
  overflow.method = CoulombMethod::cutoff;
  overflow.spacing = job.spacing;
  overflow.counts = job.counts;
  overflow.cutoff = job.cutoff;
  overflow.compensated = job.compensated;
  overflow.blocks = job.blocks;
  for (std::int64_t a = 0; a < job.n; ++a) {
    if (bin_of[a] < 0) continue;
    int& count = filled[bin_of[a]];
    if (count < g.capacity) {
      bins[bin_of[a] * g.capacity + count++] = {job.coords[0][a], job.coords[1][a],
                                                job.coords[2][a], job.charges[a]};
    } else {
      for (int d = 0; d < 3; ++d) overflow.coords[d].push_back(job.coords[d][a]);
      overflow.charges.push_back(job.charges[a]);
      ++overflow.n;
    }
  }

  const std::size_t plane = std::size_t(job.counts[0] * job.counts[1]);
  unsigned char* d_upload = ws->bins.reserve<unsigned char>(upload_bytes);
  const int* d_filled = reinterpret_cast<const int*>(d_upload);
  const Atom4<T>* d_bins = reinterpret_cast<const Atom4<T>*>(d_upload + counts_bytes);
  T* d_map = ws->map.reserve<T>(std::size_t(g.k_end - g.k_begin) * plane);
  check(cudaMemcpyAsync(d_upload, staged_bins, upload_bytes, cudaMemcpyHostToDevice, stream),
        "copy bins");
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
  T* const ring = ws->host_slabs.reserve<T>(2 * slab_values);
  const auto download = [&](long long slab) {  // into the ring buffer slab % 2, once computed
    const long long first = plane_of(slab), end = plane_of(slab + 1);
    check(cudaStreamWaitEvent(ws->copies, ws->computed[std::size_t(slab)], 0), "wait for a slab");
    check(cudaMemcpyAsync(ring + std::size_t(slab % 2) * slab_values,
                          d_map + std::size_t(first - g.k_begin) * plane,
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
      if (job.compensated)
        cutoff_kernel<T, true><<<grid, block, shared, stream>>>(d_bins, d_filled, part, job.spacing,
                                                                rc2, T(1) / rc2, d_map);
      else
        cutoff_kernel<T, false><<<grid, block, shared, stream>>>(
            d_bins, d_filled, part, job.spacing, rc2, T(1) / rc2, d_map);
      check(cudaGetLastError(), "kernel launch");
      check(cudaEventRecord(ws->computed[std::size_t(slab)], stream), "record a slab");
    }
    for (long long slab = 0; slab < std::min<long long>(2, slabs); ++slab) download(slab);
    for (long long slab = 0; slab < slabs; ++slab) {
      const long long first = plane_of(slab), end = plane_of(slab + 1);
      check(cudaEventSynchronize(ws->copied[std::size_t(slab)]), "copy the map back");
      host_copy(job.values + std::size_t(first) * plane, ring + std::size_t(slab % 2) * slab_values,
                std::size_t(end - first) * plane);
      if (slab + 2 < slabs) download(slab + 2);  // into the buffer just emptied
      if (overflow.n > 0 && end > first) host_cutoff(planes_of(overflow, first, end, job.values));
    }
    // The last copy followed every kernel and the upload: nothing queued uses the workspace now.
    ws.done();
  }
  return "cuda: " + std::to_string(g.m) + "^3-point regions, bins of " + std::to_string(side) +
         " A holding " + std::to_string(g.capacity) + " atoms, " + std::to_string(g.n_offsets) +
         " neighbour bins, " + std::to_string(overflow.n) + " overflow atoms on the host";
}

template std::string coulomb_cuda_cutoff(const CoulombJob<float>&, cudaStream_t,
                                         const HostCutoff<float>&, const HostCopy<float>&);
template std::string coulomb_cuda_cutoff(const CoulombJob<double>&, cudaStream_t,
                                         const HostCutoff<double>&, const HostCopy<double>&);

}  // namespace kmol
