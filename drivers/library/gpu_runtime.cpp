#include "drivers/library/gpu_runtime.hpp"

#include <stdexcept>
#include <string>

#include "drivers/library/cluster.hpp"
#include "kmol/core/errors.hpp"
#ifdef KMOL_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

namespace kmol {

int cuda_device_count() {
#ifdef KMOL_HAVE_CUDA
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError();  // no driver: clear the sticky error, report none
    return 0;
  }
  return n;
#else
  return 0;
#endif
}

std::vector<int> cuda_devices(int count) {
  const int have = cuda_device_count();
  if (count < 0)
    throw InputError({"", "--gpus", -1},
                     "expected a count >= 0 (0: every GPU), got " + std::to_string(count));
  if (count > have)
    throw UnsupportedError("--gpus " + std::to_string(count) + ": this machine has " +
                           std::to_string(have) + " GPU" + (have == 1 ? "" : "s") +
                           " usable by this build");
  // Under MPI the ranks of one machine start at different GPUs (rank k of it: k x count on).
  const int n = count == 0 ? have : count;
  const int first = Cluster::size() > 1 && have > 0 ? Cluster::local_rank() * n % have : 0;
  std::vector<int> devices;
  for (int k = 0; k < n; ++k) devices.push_back((first + k) % have);
  return devices;
}

void* open_device_stream(int device) {
#ifdef KMOL_HAVE_CUDA
  cudaStream_t stream = nullptr;
  cudaError_t status = cudaSetDevice(device);
  if (status == cudaSuccess) status = cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
  if (status != cudaSuccess)
    throw std::runtime_error("GPU " + std::to_string(device) + ": " + cudaGetErrorString(status));
  return stream;
#else
  throw std::runtime_error("GPU " + std::to_string(device) + ": this build has no CUDA");
#endif
}

void close_device_stream(void* stream) {
#ifdef KMOL_HAVE_CUDA
  if (stream != nullptr) cudaStreamDestroy(static_cast<cudaStream_t>(stream));
#else
  (void)stream;
#endif
}

}  // namespace kmol
