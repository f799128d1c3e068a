#pragma once
// A persistent pool of workers, after VMD's multi-GPU RDF: one host thread per GPU, bound to its
// device and stream for the pool's whole life, plus CPU workers; all of them sleep on a condition
// variable between batches (waking one costs microseconds, creating a CUDA context seconds).
//
// A batch is n units handed out in order by one shared iterator, so faster workers simply take
// more of them; near the end a worker takes no fresh unit that the others would finish sooner
// (otherwise the batch ends waiting on a slow worker's last unit, a CPU beside GPUs). A unit that
// throws (a CUDA error, out of memory, anything) goes onto a retry list and is re-run, earliest
// first, by a worker that has not failed it yet; only a unit that failed on every worker fails the
// batch. Units must therefore commit their result only once it is complete.
//
// GPU threads each get a CPU of their own (own_cpu_thread.hpp). A CPU worker that runs portable
// (Kokkos) implementations runs on the thread that calls run(): Kokkos 3.4's OpenMP backend
// dispatches only from the thread that initialised it.
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "kmol/core/device.hpp"

namespace kmol {

enum class WorkerKind {
  cpu,            // host implementation with `threads` OpenMP threads
  gpu,            // raw CUDA implementation on `device`
  simulated_gpu,  // host implementation on one thread, standing in for a GPU in tests
};
std::string to_string(WorkerKind kind);

struct WorkerSpec {
  WorkerKind kind = WorkerKind::cpu;
  int device = -1;           // gpu: the CUDA device its thread binds
  int threads = 1;           // cpu: OpenMP threads of its kernels
  int fail_first_units = 0;  // fault injection: this many of its first units throw
  // Runs portable (Kokkos) implementations too: a CPU worker on the thread that calls run() (at
  // most one per pool), a GPU worker only on Kokkos's own device. Otherwise a worker runs its
  // platform's raw implementation.
  bool portable = false;
  bool retries_only = false;  // takes only units other workers failed (the host behind GPUs)
};

// What a unit sees of the worker running it.
struct WorkerContext {
  int index = 0;
  WorkerSpec spec;
  Device device;  // where its units run: its GPU's device and stream, or host threads
  // Set by a unit that waits for its input (a frame being read): not counted as busy, so that
  // the rates workers compare by are their own.
  mutable double waited_seconds = 0;
};

// The device a worker of this spec runs its units on; `stream` is its stream on a GPU.
Device device_of(const WorkerSpec& spec, void* stream);

struct WorkerStats {
  std::int64_t units = 0, failures = 0;
  double busy_seconds = 0;  // in units, less their waits for input
};

// Thrown by a worker whose fault injection fires (WorkerSpec::fail_first_units).
struct InjectedFailure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Throws InjectedFailure while `units_started` (counting this one, from 1) is within the spec's
// injected failures. For code that runs units outside a pool (the frame pipeline).
void inject_failure(const WorkerSpec& spec, std::int64_t units_started);

class WorkerPool {
 public:
  using Unit = std::function<void(const WorkerContext&, std::int64_t unit)>;

  // Starts the threads; each GPU thread binds its device and creates its stream before this
  // returns (a device that cannot be opened is an error here, not mid-run). GPU and simulated GPU
  // threads take the own CPUs first_own_cpu, first_own_cpu + 1, ... (own_cpu_thread.hpp).
  explicit WorkerPool(std::vector<WorkerSpec> workers, int first_own_cpu = 0);
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  // Runs unit(worker, u) for every u in [0, n); returns once all have succeeded. Throws the error
  // of a unit that failed on every worker, after the units in flight have finished; `on_failure`
  // is called as soon as that happens, so that units waiting on something else can give up. One
  // batch at a time.
  void run(std::int64_t n, const Unit& unit, const std::function<void()>& on_failure = {});

  int size() const { return int(specs_.size()); }
  int own_cpus() const { return own_cpus_; }  // threads pinned to a CPU of their own
  const std::vector<WorkerSpec>& workers() const { return specs_; }
  std::vector<WorkerStats> stats() const;
  std::string describe() const;  // "2 GPUs (0, 1) + 1 CPU worker (14 threads)"

 private:
  struct Retry {
    std::int64_t unit = 0;
    std::vector<char> failed_by;  // per worker
  };
  bool has_work_for(int worker);
  bool wants_unit(int worker);
  bool others_finish_sooner(int worker) const;
  bool batch_over() const { return (finished_ == n_ || fatal_) && in_flight_ == 0; }
  std::int64_t take(int worker);
  bool failed(int worker, std::int64_t unit, std::exception_ptr error);
  void run_one(const WorkerContext& context, std::unique_lock<std::mutex>& lock);
  void loop(int worker);
  void stop();  // wakes, stops and joins every thread

  std::vector<WorkerSpec> specs_;
  std::vector<std::thread> threads_;
  int caller_ = -1;  // the worker that runs on the thread calling run(), if any
  int own_cpus_ = 0;
  mutable std::mutex mutex_;
  std::condition_variable wake_, done_;
  bool stop_ = false;
  int started_ = 0;
  std::exception_ptr start_error_;
  const Unit* unit_ = nullptr;
  const std::function<void()>* on_failure_ = nullptr;
  std::int64_t n_ = 0, next_ = 0, finished_ = 0;
  int in_flight_ = 0;
  std::vector<Retry> retry_;         // failed units waiting for another worker
  std::vector<Retry> failed_units_;  // units with at least one failure this batch
  std::exception_ptr fatal_;
  std::vector<WorkerStats> stats_;
  std::vector<std::int64_t> started_units_;
  std::vector<char> declined_;  // per worker: leaves fresh units to faster ones
};

// The workers of this machine: one per GPU of `devices`, then `cpu_workers` CPU workers sharing
// `cpu_threads` threads.
std::vector<WorkerSpec> machine_workers(const std::vector<int>& devices, int cpu_workers,
                                        int cpu_threads);

}  // namespace kmol
