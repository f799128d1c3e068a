#pragma once
// One place that starts and stops Kokkos and says what it runs on.
#include <string>
#include <vector>

namespace kmol {

struct RuntimeOptions {
  int host_threads = -1;  // -1: OMP_NUM_THREADS, else one per core other processes leave idle
  int device_id = -1;     // -1: the first GPU, or KOKKOS_DEVICE_ID
};

struct DeviceInfo {
  int id = 0;
  std::string name;
  int compute_major = 0, compute_minor = 0;
  int multiprocessors = 0;
  std::size_t memory_bytes = 0;
  std::size_t shared_memory_per_block_optin = 0;
  std::size_t constant_memory_bytes = 0;
  int clock_khz = 0;
};

// Initialises Kokkos once for the life of the object (nested guards are no-ops).
class Runtime {
 public:
  explicit Runtime(const RuntimeOptions& options = {});
  ~Runtime();
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

 private:
  void start(const RuntimeOptions& options);
  bool owner_ = false;
};

std::string kokkos_version();
std::vector<std::string> enabled_backends();  // "Serial", "OpenMP", "Cuda"
int host_threads();
std::vector<DeviceInfo> gpu_devices();  // empty without a CUDA build or without GPUs
std::string kmol_version();

}  // namespace kmol
