// Each thread owns one atom and sweeps it over tiles of partners that its block stages in shared
// memory, one tile per block width (the n-body scheme): every position is read from global memory
// once per block instead of once per pair.
#include <stdexcept>

#include "kernels/cuda_check.hpp"
#include "kernels/md/cuda/lj_all_pairs_cuda.hpp"

namespace kmol {
namespace {

constexpr int block_size = 128;

template <class T>
__global__ void __launch_bounds__(block_size) all_pairs_kernel(LjAllPairsCudaArgs<T> a) {
  __shared__ T tile[3][block_size];
  const int i = blockIdx.x * block_size + threadIdx.x;
  const bool owner = i < a.n;
  const Vec3<T> xi = owner ? Vec3<T>{a.x[i], a.x[a.stride + i], a.x[2 * a.stride + i]} : Vec3<T>{};
  Vec3<T> f{};
  T energy = 0, virial = 0;
  for (int j0 = 0; j0 < a.n; j0 += block_size) {
    const int j = j0 + threadIdx.x;
    __syncthreads();
    if (j < a.n) {
      tile[0][threadIdx.x] = a.x[j];
      tile[1][threadIdx.x] = a.x[a.stride + j];
      tile[2][threadIdx.x] = a.x[2 * a.stride + j];
    }
    __syncthreads();
    const int nj = a.n - j0 < block_size ? a.n - j0 : block_size;
#pragma unroll 4
    for (int k = 0; k < nj; ++k) {
      const Vec3<T> d = a.box.displacement(xi, Vec3<T>{tile[0][k], tile[1][k], tile[2][k]});
      const T r2 = norm2(d);
      if (r2 < a.lj.cutoff2 && j0 + k != i) {
        T f_over_r, e;
        a.lj.evaluate(r2, f_over_r, e);
        f = {math::fma(f_over_r, d.x, f.x), math::fma(f_over_r, d.y, f.y),
             math::fma(f_over_r, d.z, f.z)};
        energy += e;
        virial = math::fma(f_over_r, r2, virial);
      }
    }
  }
  if (owner) {
    a.f[i] = f.x;
    a.f[a.stride + i] = f.y;
    a.f[2 * a.stride + i] = f.z;
    a.energy[i] = T(0.5) * energy;
    a.virial[i] = T(0.5) * virial;
  }
}

}  // namespace

template <class T>
std::string lj_all_pairs_cuda(const LjAllPairsCudaArgs<T>& args, cudaStream_t stream) {
  const int blocks = (args.n + block_size - 1) / block_size;
  if (blocks > 0) all_pairs_kernel<T><<<blocks, block_size, 0, stream>>>(args);
  CudaCheck{"CUDA md all pairs"}(cudaGetLastError(), "all_pairs_kernel");
  return "cuda: " + std::to_string(blocks) + " blocks x " + std::to_string(block_size) +
         " threads, shared tiles";
}

template std::string lj_all_pairs_cuda(const LjAllPairsCudaArgs<float>&, cudaStream_t);
template std::string lj_all_pairs_cuda(const LjAllPairsCudaArgs<double>&, cudaStream_t);

}  // namespace kmol
