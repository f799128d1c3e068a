// Cutoff maps in raw CUDA, after Rodrigues et al. (VMD's multilevel summation short-range part).
//
// Atoms are hashed on the host into cubic bins of points_per_bin^3 lattice points (about 4 A),
// each with a fixed capacity chosen from the occupancy so that almost no atom overflows; the bins
// live in global memory, empty slots with zero charge. A block computes one region of lattice
// points (the size of a bin), walking the list of bin offsets within the cutoff of its region,
// which sits in __constant__ memory (this unit includes no Kokkos). Bins are staged through
// shared memory a batch at a time and every thread sums its points over them. Atoms that do not
// fit their bin are summed on the host by the caller's function while the GPU runs.
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

namespace kmol {
namespace {

constexpr int kPointsPerThread = 4;
constexpr double kOverflowFraction = 0.002;  // capacity: at most this share of atoms left to the host

void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess) throw std::runtime_error(std::string("CUDA cutoff potential: ") + what + ": " + cudaGetErrorString(status));
}

template <class T>
struct alignas(4 * sizeof(T)) Atom4 {
  T x, y, z, q;
};

__constant__ int4 c_offsets[coulomb::cutoff_max_offsets];
std::mutex c_offsets_mutex;

struct Geometry {
  int m, capacity, n_offsets;
  long long regions[3], bins[3], counts[3];
  int pad;
};

template <class T, bool Compensated>
__global__ void cutoff_kernel(const Atom4<T>* __restrict__ bins, Geometry g, T h, T rc2, T inv_rc2, T* __restrict__ out) {
  extern __shared__ unsigned char staged_bytes[];
  Atom4<T>* staged = reinterpret_cast<Atom4<T>*>(staged_bytes);
  const int t = threadIdx.x, m = g.m;
  const long long rx = blockIdx.x, ry = blockIdx.y, rz = blockIdx.z;
  T px[kPointsPerThread], py[kPointsPerThread], pz[kPointsPerThread];
  long long index[kPointsPerThread];
  coulomb::Accumulator<T, Compensated> acc[kPointsPerThread];
#pragma unroll
  for (int s = 0; s < kPointsPerThread; ++s) {
    const int local = t + s * blockDim.x;
    const long long i = rx * m + local % m, j = ry * m + (local / m) % m, k = rz * m + local / (m * m);
    const bool valid = local < m * m * m && i < g.counts[0] && j < g.counts[1] && k < g.counts[2];
    index[s] = valid ? (k * g.counts[1] + j) * g.counts[0] + i : -1;
    px[s] = T(i) * h;
    py[s] = T(j) * h;
    pz[s] = T(k) * h;
  }
  const int per_batch = blockDim.x / g.capacity;
  const long long hx = rx + g.pad, hy = ry + g.pad, hz = rz + g.pad;
  for (int first = 0; first < g.n_offsets; first += per_batch) {
    __syncthreads();
    const int b = t / g.capacity;
    if (b < per_batch) {
      Atom4<T> atom{0, 0, 0, 0};
      if (first + b < g.n_offsets) {
        const int4 o = c_offsets[first + b];
        const long long bin = ((hz + o.z) * g.bins[1] + (hy + o.y)) * g.bins[0] + (hx + o.x);
        atom = bins[bin * g.capacity + t % g.capacity];
      }
      staged[t] = atom;
    }
    __syncthreads();
    const int n_staged = min(per_batch, g.n_offsets - first) * g.capacity;
    for (int a = 0; a < n_staged; ++a) {
      const Atom4<T> atom = staged[a];
#pragma unroll
      for (int s = 0; s < kPointsPerThread; ++s) {
        const T dx = atom.x - px[s], dy = atom.y - py[s], dz = atom.z - pz[s];
        const T r2 = math::fma(dx, dx, math::fma(dy, dy, dz * dz));
        acc[s].add(coulomb::cutoff_term(atom.q, r2, rc2, inv_rc2));
      }
    }
  }
#pragma unroll
  for (int s = 0; s < kPointsPerThread; ++s)
    if (index[s] >= 0) out[index[s]] = acc[s].value();
}

// The smallest capacity that leaves at most kOverflowFraction of the binned atoms over.
int choose_capacity(const std::vector<int>& occupancy, std::int64_t binned, int max_capacity) {
  std::vector<std::int64_t> bins_with(std::size_t(max_capacity) + 2, 0);  // bins holding exactly c (last: more)
  for (int c : occupancy) ++bins_with[std::min(c, max_capacity + 1)];
  for (int capacity = 1; capacity <= max_capacity; ++capacity) {
    std::int64_t over = 0;
    for (int c = capacity + 1; c <= max_capacity + 1; ++c) over += bins_with[c] * (c - capacity);
    if (double(over) <= kOverflowFraction * double(binned)) return capacity;
  }
  return max_capacity;
}

}  // namespace

template <class T>
std::string coulomb_cuda_cutoff(const CoulombJob<T>& job, cudaStream_t stream, const HostCutoff<T>& host_cutoff) {
  const double h = double(job.spacing), rc = double(job.cutoff);
  Geometry g{};
  g.m = coulomb::cutoff_points_per_bin(h);
  const double side = g.m * h;
  const auto offsets = coulomb::cutoff_bin_offsets(side, rc);
  if (offsets.size() > std::size_t(coulomb::cutoff_max_offsets))
    throw std::invalid_argument("CUDA cutoff potential: cutoff too long for the bin neighbourhood");
  g.n_offsets = int(offsets.size());
  for (const auto& o : offsets) g.pad = std::max({g.pad, std::abs(o[0]), std::abs(o[1]), std::abs(o[2])});
  for (int d = 0; d < 3; ++d) {
    g.counts[d] = job.counts[d];
    g.regions[d] = (job.counts[d] + g.m - 1) / g.m;
    g.bins[d] = g.regions[d] + 2 * g.pad;
  }
  const int threads = std::clamp((g.m * g.m * g.m + kPointsPerThread - 1) / kPointsPerThread, 32, 1024);
  const int block = (threads + 31) / 32 * 32;

  // Hash the atoms; those beyond every bin are farther than the cutoff from every point.
  const std::int64_t n_bins = g.bins[0] * g.bins[1] * g.bins[2];
  std::vector<std::int64_t> bin_of(job.n, -1);
  std::vector<int> occupancy(n_bins, 0);
  std::int64_t binned = 0;
  for (std::int64_t a = 0; a < job.n; ++a) {
    std::int64_t c[3];
    bool inside = true;
    for (int d = 0; d < 3; ++d) {
      c[d] = std::int64_t(std::floor(double(job.coords[d][a]) / side)) + g.pad;
      inside = inside && c[d] >= 0 && c[d] < g.bins[d];
    }
    if (!inside || job.charges[a] == T(0)) continue;
    bin_of[a] = (c[2] * g.bins[1] + c[1]) * g.bins[0] + c[0];
    ++occupancy[bin_of[a]];
    ++binned;
  }
  g.capacity = choose_capacity(occupancy, binned, block);
  std::vector<Atom4<T>> bins(std::size_t(n_bins) * g.capacity, Atom4<T>{0, 0, 0, 0});
  std::fill(occupancy.begin(), occupancy.end(), 0);
  CoulombJob<T> overflow;
  overflow.method = CoulombMethod::cutoff;
  overflow.spacing = job.spacing;
  overflow.counts = job.counts;
  overflow.cutoff = job.cutoff;
  overflow.compensated = job.compensated;
  overflow.blocks = job.blocks;
  for (std::int64_t a = 0; a < job.n; ++a) {
    if (bin_of[a] < 0) continue;
    int& filled = occupancy[bin_of[a]];
    if (filled < g.capacity) {
      bins[bin_of[a] * g.capacity + filled++] = {job.coords[0][a], job.coords[1][a], job.coords[2][a], job.charges[a]};
    } else {
      for (int d = 0; d < 3; ++d) overflow.coords[d].push_back(job.coords[d][a]);
      overflow.charges.push_back(job.charges[a]);
      ++overflow.n;
    }
  }

  const std::size_t map_bytes = std::size_t(job.counts[0] * job.counts[1] * job.counts[2]) * sizeof(T);
  Atom4<T>* d_bins = nullptr;
  T* d_map = nullptr;
  check(cudaMallocAsync(&d_bins, bins.size() * sizeof(Atom4<T>), stream), "allocate bins");
  check(cudaMallocAsync(&d_map, map_bytes, stream), "allocate the map");
  check(cudaMemcpyAsync(d_bins, bins.data(), bins.size() * sizeof(Atom4<T>), cudaMemcpyHostToDevice, stream), "copy bins");
  std::vector<int4> packed(offsets.size());
  for (std::size_t o = 0; o < offsets.size(); ++o) packed[o] = make_int4(offsets[o][0], offsets[o][1], offsets[o][2], 0);
  const T rc2 = job.cutoff * job.cutoff;
  {
    std::lock_guard<std::mutex> lock(c_offsets_mutex);
    check(cudaMemcpyToSymbolAsync(c_offsets, packed.data(), packed.size() * sizeof(int4), 0, cudaMemcpyHostToDevice, stream),
          "copy offsets");
    const dim3 grid(unsigned(g.regions[0]), unsigned(g.regions[1]), unsigned(g.regions[2]));
    const std::size_t shared = std::size_t(block) * sizeof(Atom4<T>);
    if (job.compensated)
      cutoff_kernel<T, true><<<grid, block, shared, stream>>>(d_bins, g, job.spacing, rc2, T(1) / rc2, d_map);
    else
      cutoff_kernel<T, false><<<grid, block, shared, stream>>>(d_bins, g, job.spacing, rc2, T(1) / rc2, d_map);
    check(cudaGetLastError(), "kernel launch");
    // Meanwhile the host sums the overflow atoms.
    std::vector<T> extra(overflow.n > 0 ? map_bytes / sizeof(T) : 0, T(0));
    overflow.values = extra.data();
    if (overflow.n > 0) host_cutoff(overflow);
    check(cudaMemcpyAsync(job.values, d_map, map_bytes, cudaMemcpyDeviceToHost, stream), "copy the map back");
    check(cudaFreeAsync(d_bins, stream), "free bins");
    check(cudaFreeAsync(d_map, stream), "free the map");
    check(cudaStreamSynchronize(stream), "run the kernel");
    for (std::size_t p = 0; p < extra.size(); ++p) job.values[p] += extra[p];
  }
  return "cuda: " + std::to_string(g.m) + "^3-point regions, bins of " + std::to_string(side) + " A holding " +
         std::to_string(g.capacity) + " atoms, " + std::to_string(g.n_offsets) + " neighbour bins, " +
         std::to_string(overflow.n) + " overflow atoms on the host";
}

template std::string coulomb_cuda_cutoff(const CoulombJob<float>&, cudaStream_t, const HostCutoff<float>&);
template std::string coulomb_cuda_cutoff(const CoulombJob<double>&, cudaStream_t, const HostCutoff<double>&);

}  // namespace kmol
