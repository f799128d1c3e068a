#include "kmol/core/runtime.hpp"

#include <sched.h>
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <memory>
#include <mutex>
#include <ostream>
#include <string>
#include <thread>
#include <utility>

#include "kmol/core/finalize_hooks.hpp"
#include "kmol/core/runtime_notes.hpp"
#include "kmol/core/version.hpp"

#ifdef KMOL_HAVE_CUDA
#include "kmol/core/cuda_devices.hpp"
#endif

namespace kmol {
namespace {

std::function<void(const std::string&)>& notes() {
  static std::function<void(const std::string&)> sink;
  return sink;
}

// Busy and total jiffies of all CPUs from /proc/stat's first line.
bool cpu_times(double& busy, double& total) {
  std::ifstream stat("/proc/stat");
  std::string cpu;
  double user, nice, system, idle, iowait, irq, softirq, steal;
  if (!(stat >> cpu >> user >> nice >> system >> idle >> iowait >> irq >> softirq >> steal) ||
      cpu != "cpu")
    return false;
  busy = user + nice + system + irq + softirq + steal;
  total = busy + idle + iowait;
  return true;
}

// Host threads when the user chose none: one per core that other processes leave idle now.
// OpenMP threads wait for each other at the end of every parallel region; one that shares its
// core with another busy process is descheduled for a time slice at each of those waits, and an
// md step has several regions, so a thread on a busy core slows the run by an order of magnitude
// rather than helping it.
int threads_for_idle_cores() {
  cpu_set_t allowed;
  if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) return -1;
  const int cores = CPU_COUNT(&allowed);
  if (cores <= 1) return -1;
  double busy0, total0, busy1, total1;
  if (!cpu_times(busy0, total0)) return -1;
  std::this_thread::sleep_for(std::chrono::milliseconds(60));
  if (!cpu_times(busy1, total1) || !(total1 > total0)) return -1;
  const double busy_cores = (busy1 - busy0) / (total1 - total0) * cores;
  const int idle = std::clamp(cores - int(std::lround(busy_cores)), 1, cores);
  if (idle < cores && notes())
    notes()(std::to_string(cores - idle) + " of " + std::to_string(cores) +
            " cores busy with other work; running " + std::to_string(idle) + " host thread" +
            (idle == 1 ? "" : "s"));
  return idle;
}

#if defined(KOKKOS_ENABLE_CUDA) && KOKKOS_VERSION < 30700
// Kokkos 3.x starts every backend it was built with in Kokkos::initialize, and its CUDA start
// throws on a machine without a GPU, so a CUDA build could not run even on the CPU there. Where
// the CUDA runtime finds no device, the CUDA backend's start, stop and global fence are replaced
// by nothing (under the name Kokkos registers it by): the host spaces run as in an OpenMP build,
// and kmol refuses the GPU because gpu_devices() is empty.
class AbsentCudaBackend final : public Kokkos::Impl::ExecSpaceInitializerBase {
 public:
  void initialize(const Kokkos::InitArguments&) override {}
  void finalize(const bool) override {}
  void fence() override {}
  void print_configuration(std::ostream& msg, const bool) override {
    msg << "Cuda: no device found, not started\n";
  }
};

void skip_cuda_without_device() {
  if (!gpu_devices().empty()) return;
  Kokkos::Impl::ExecSpaceManager::get_instance().register_space_factory(
      "150_Cuda", std::make_unique<AbsentCudaBackend>());
}
#else
void skip_cuda_without_device() {}
#endif

// Kokkos prints four lines of advice at start-up, in every program, when OMP_PROC_BIND is unset.
// libgomp read its environment when the program loaded, so setting it now binds nothing: it
// states the binding libgomp already chose (threads bound only where OMP_PLACES or
// GOMP_CPU_AFFINITY gave places), which silences the advice and gives child processes the same.
void state_thread_binding() {
  const bool places = std::getenv("OMP_PLACES") || std::getenv("GOMP_CPU_AFFINITY");
  setenv("OMP_PROC_BIND", places ? "true" : "false", 0);
}

}  // namespace

Runtime::Runtime(const RuntimeOptions& options) {
  if (Kokkos::is_initialized()) return;
  state_thread_binding();
  RuntimeOptions chosen = options;
#ifdef KOKKOS_ENABLE_OPENMP
  const bool user_chose = options.host_threads > 0 || std::getenv("OMP_NUM_THREADS") ||
                          std::getenv("KOKKOS_NUM_THREADS");
  if (!user_chose) chosen.host_threads = threads_for_idle_cores();
#endif
  start(chosen);
}

void Runtime::start(const RuntimeOptions& options) {
#if KOKKOS_VERSION >= 30700
  Kokkos::InitializationSettings settings;
  if (options.host_threads > 0) settings.set_num_threads(options.host_threads);
  if (options.device_id >= 0) settings.set_device_id(options.device_id);
#else
  Kokkos::InitArguments settings;
  settings.num_threads = options.host_threads;
  settings.device_id = options.device_id;
#endif
  skip_cuda_without_device();
  Kokkos::initialize(settings);
  owner_ = true;
}

Runtime::~Runtime() {
  if (owner_) Kokkos::finalize();
}

void release_at_finalize(std::function<void()> release) {
  // Kokkos' list of hooks has no lock, and caches register from the threads that first use them.
  static std::mutex mutex;
  const std::lock_guard<std::mutex> lock(mutex);
  Kokkos::push_finalize_hook(std::move(release));
}

void set_runtime_notes(std::function<void(const std::string&)> sink) { notes() = std::move(sink); }

std::string kokkos_version() {
  const int v = KOKKOS_VERSION;
  return std::to_string(v / 10000) + "." + std::to_string(v / 100 % 100) + "." +
         std::to_string(v % 100);
}

std::vector<std::string> enabled_backends() {
  std::vector<std::string> names;
#ifdef KOKKOS_ENABLE_SERIAL
  names.emplace_back("Serial");
#endif
#ifdef KOKKOS_ENABLE_OPENMP
  names.emplace_back("OpenMP");
#endif
#ifdef KOKKOS_ENABLE_CUDA
  names.emplace_back("Cuda");
#endif
  return names;
}

int host_threads() { return Kokkos::DefaultHostExecutionSpace().concurrency(); }

// Asked once: the GPUs a process sees do not change while it runs, and reading their properties
// costs about a millisecond, which `--device` resolution would otherwise pay inside every call.
std::vector<DeviceInfo> gpu_devices() {
#ifdef KMOL_HAVE_CUDA
  static const std::vector<DeviceInfo> devices = cuda::devices();
  return devices;
#else
  return {};
#endif
}

std::string kmol_version() { return KMOL_VERSION; }

}  // namespace kmol
