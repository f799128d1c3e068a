#pragma once
// A persistent pool of workers, after VMD's multi-GPU RDF: one host thread per GPU, bound to its
// device and stream for the pool's whole life, plus CPU workers; all of them sleep on a condition
// variable between batches (waking one costs microseconds, creating a CUDA context seconds).
//
// A batch is n units handed out by one shared iterator, so faster workers simply take more of
// them. A unit that throws (a CUDA error, out of memory, anything) goes onto a retry stack and is
// re-run by a worker that has not failed it yet; only a unit that failed on every worker fails the
// batch. Units must therefore commit their result only once it is complete.
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
};

// What a unit sees of the worker running it.
struct WorkerContext {
  int index = 0;
  WorkerSpec spec;
  Device device;  // where its units run: its GPU's device and stream, or host threads
};

// The device a worker of this spec runs its units on; `stream` is its stream on a GPU.
Device device_of(const WorkerSpec& spec, void* stream);

struct WorkerStats {
  std::int64_t units = 0, failures = 0;
  double busy_seconds = 0;
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
  // returns (a device that cannot be opened is an error here, not mid-run).
  explicit WorkerPool(std::vector<WorkerSpec> workers);
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  // Runs unit(worker, u) for every u in [0, n); returns once all have succeeded. Throws the error
  // of a unit that failed on every worker (after the units in flight have finished). One batch
  // at a time.
  void run(std::int64_t n, const Unit& unit);

  int size() const { return int(specs_.size()); }
  const std::vector<WorkerSpec>& workers() const { return specs_; }
  std::vector<WorkerStats> stats() const;
  std::string describe() const;  // "2 GPUs (0, 1) + 1 CPU worker (14 threads)"

 private:
  struct Retry {
    std::int64_t unit = 0;
    std::vector<char> failed_by;  // per worker
  };
  bool has_work_for(int worker) const;
  std::int64_t take(int worker);
  void failed(int worker, std::int64_t unit, std::exception_ptr error);
  void loop(int worker);
  void stop();  // wakes, stops and joins every thread

  std::vector<WorkerSpec> specs_;
  std::vector<std::thread> threads_;
  mutable std::mutex mutex_;
  std::condition_variable wake_, done_;
  bool stop_ = false;
  int started_ = 0;
  std::exception_ptr start_error_;
  const Unit* unit_ = nullptr;
  std::int64_t n_ = 0, next_ = 0, finished_ = 0;
  int in_flight_ = 0;
  std::vector<Retry> retry_;         // a stack: the latest failure is re-run first
  std::vector<Retry> failed_units_;  // units with at least one failure this batch
  std::exception_ptr fatal_;
  std::vector<WorkerStats> stats_;
  std::vector<std::int64_t> started_units_;
};

// The workers of this machine: one per GPU of `devices`, then `cpu_workers` CPU workers sharing
// `cpu_threads` threads.
std::vector<WorkerSpec> machine_workers(const std::vector<int>& devices, int cpu_workers,
                                        int cpu_threads);

}  // namespace kmol
