#include "drivers/library/worker_pool.hpp"

#include <algorithm>
#include <chrono>
#include <iterator>
#include <limits>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "drivers/library/gpu_runtime.hpp"
#include "drivers/library/own_cpu_thread.hpp"
#include "kmol/core/names.hpp"

namespace kmol {

namespace {

constexpr Named<WorkerKind> worker_kind_names[] = {{WorkerKind::cpu, "cpu"},
                                                   {WorkerKind::gpu, "gpu"},
                                                   {WorkerKind::simulated_gpu, "simulated gpu"}};

}  // namespace

std::string to_string(WorkerKind kind) { return name_of(worker_kind_names, kind); }

void inject_failure(const WorkerSpec& spec, std::int64_t units_started) {
  if (units_started <= spec.fail_first_units)
    throw InjectedFailure(fmt::format("{} worker: injected failure of its unit {}",
                                      to_string(spec.kind), units_started));
}

WorkerPool::WorkerPool(std::vector<WorkerSpec> workers, int first_own_cpu)
    : specs_(std::move(workers)),
      stats_(specs_.size()),
      started_units_(specs_.size()),
      declined_(specs_.size(), 0) {
  for (int w = 0; w < size(); ++w) {
    const WorkerSpec& spec = specs_[std::size_t(w)];
    if (spec.kind == WorkerKind::cpu && spec.portable) {
      if (caller_ >= 0)
        throw std::invalid_argument("worker pool: more than one portable CPU worker");
      caller_ = w;
    }
  }
  for (int w = 0; w < size(); ++w) {
    if (w == caller_) continue;
    if (specs_[std::size_t(w)].kind == WorkerKind::cpu)
      threads_.emplace_back([this, w] { loop(w); });
    else
      threads_.push_back(thread_on_own_cpu(first_own_cpu + own_cpus_++, [this, w] { loop(w); }));
  }
  std::unique_lock<std::mutex> lock(mutex_);
  done_.wait(lock, [&] { return started_ == int(threads_.size()); });
  if (start_error_) {
    lock.unlock();
    stop();
    std::rethrow_exception(start_error_);
  }
}

WorkerPool::~WorkerPool() { stop(); }

void WorkerPool::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  for (auto& t : threads_)
    if (t.joinable()) t.join();
}

// has_work_for, and a worker that starts leaving fresh units to faster ones wakes the others: it
// may have been the only one woken.
bool WorkerPool::wants_unit(int worker) {
  const bool declined_before = declined_[std::size_t(worker)];
  const bool wants = has_work_for(worker);
  if (declined_[std::size_t(worker)] && !declined_before) wake_.notify_all();
  return wants;
}

bool WorkerPool::has_work_for(int worker) {
  if (unit_ == nullptr || fatal_) return false;
  for (const Retry& r : retry_)
    if (!r.failed_by[std::size_t(worker)]) return true;
  if (next_ >= n_ || specs_[std::size_t(worker)].retries_only) return false;
  declined_[std::size_t(worker)] = others_finish_sooner(worker);
  return !declined_[std::size_t(worker)];
}

// Whether the other workers, at the rates they have shown, would finish every fresh unit left
// well before this worker finishes one, or are so much faster that a CPU worker is better left
// out. The fastest worker never declines, so the batch goes on; the others think again whenever
// a unit ends (the rates change).
bool WorkerPool::others_finish_sooner(int worker) const {
  const WorkerStats& own = stats_[std::size_t(worker)];
  if (own.units == 0) return false;
  const double own_per_unit = own.busy_seconds / double(own.units);
  double rate = 0, fastest = -1;  // units per second of the others; their shortest unit
  for (int o = 0; o < size(); ++o) {
    const WorkerStats& s = stats_[std::size_t(o)];
    if (o == worker || s.units == 0 || specs_[std::size_t(o)].retries_only) continue;
    const double per_unit = s.busy_seconds / double(s.units);
    rate += per_unit > 0 ? 1 / per_unit : std::numeric_limits<double>::infinity();
    fastest = fastest < 0 ? per_unit : std::min(fastest, per_unit);
  }
  if (fastest < 0) return false;
  // A CPU worker beside others ten times as fast would add less than a tenth of the rate, while
  // its kernels' threads spin on the cores of the threads that feed the others (readers, GPU
  // threads): a trajectory on an H200 ran at a third of the GPU's own rate with one.
  if (specs_[std::size_t(worker)].kind == WorkerKind::cpu && rate * own_per_unit > 10) return true;
  // A unit shorter than a millisecond cannot hold a batch up noticeably.
  if (own_per_unit < 1e-3) return false;
  // Clearly sooner (in half its time): units of about equal length go to whoever is free.
  return 2 * std::max(double(n_ - next_) / rate, fastest) < own_per_unit;
}

// The earliest unit this worker may run: failed units before fresh ones, so that units finish
// roughly in order (a unit may wait on inputs prepared in that order: the pipeline's frames).
std::int64_t WorkerPool::take(int worker) {
  auto earliest = retry_.end();
  for (auto r = retry_.begin(); r != retry_.end(); ++r)
    if (!r->failed_by[std::size_t(worker)] &&
        (earliest == retry_.end() || r->unit < earliest->unit))
      earliest = r;
  if (earliest == retry_.end()) return next_++;
  const std::int64_t unit = earliest->unit;
  retry_.erase(earliest);
  return unit;
}

// Under the lock: remembers who failed the unit and either re-queues it or, when every worker has
// failed it, ends the batch with its error (returns true).
bool WorkerPool::failed(int worker, std::int64_t unit, std::exception_ptr error) {
  ++stats_[std::size_t(worker)].failures;
  Retry* record = nullptr;
  for (Retry& r : failed_units_)
    if (r.unit == unit) record = &r;
  if (record == nullptr) {
    failed_units_.push_back({unit, std::vector<char>(specs_.size(), 0)});
    record = &failed_units_.back();
  }
  record->failed_by[std::size_t(worker)] = 1;
  bool everyone = true;
  for (char f : record->failed_by) everyone = everyone && f;
  if (everyone) {
    fatal_ = error;
    return true;
  }
  retry_.push_back(*record);
  wake_.notify_all();
  return false;
}

Device device_of(const WorkerSpec& spec, void* stream) {
  switch (spec.kind) {
    case WorkerKind::gpu:
      return Device::cuda(spec.device, stream);
    case WorkerKind::cpu:
      return Device::host(spec.threads);
    case WorkerKind::simulated_gpu:
      break;
  }
  return Device::host(1);
}

// Under the lock: takes a unit, runs it unlocked and records how it went.
void WorkerPool::run_one(const WorkerContext& context, std::unique_lock<std::mutex>& lock) {
  using Clock = std::chrono::steady_clock;
  const int worker = context.index;
  const std::int64_t unit = take(worker);
  const Unit& run_unit = *unit_;
  const std::int64_t started = ++started_units_[std::size_t(worker)];
  ++in_flight_;
  lock.unlock();
  const auto begin = Clock::now();
  context.waited_seconds = 0;
  std::exception_ptr error;
  try {
    inject_failure(context.spec, started);
    run_unit(context, unit);
  } catch (...) {
    error = std::current_exception();
  }
  const double busy =
      std::chrono::duration<double>(Clock::now() - begin).count() - context.waited_seconds;
  lock.lock();
  --in_flight_;
  stats_[std::size_t(worker)].busy_seconds += busy;
  bool batch_failed = false;
  if (error) {
    batch_failed = failed(worker, unit, error);
  } else {
    ++stats_[std::size_t(worker)].units;
    ++finished_;
  }
  if (batch_over()) {
    done_.notify_all();
    if (caller_ >= 0) wake_.notify_all();  // the calling thread's worker waits there
  } else if (std::find(declined_.begin(), declined_.end(), 1) != declined_.end()) {
    wake_.notify_all();
  }
  if (batch_failed && *on_failure_) {
    const std::function<void()>& on_failure = *on_failure_;
    lock.unlock();
    on_failure();
    lock.lock();
  }
}

void WorkerPool::loop(int worker) {
  WorkerContext context;
  context.index = worker;
  context.spec = specs_[std::size_t(worker)];
  context.device = device_of(context.spec, nullptr);
  try {
    if (context.spec.kind == WorkerKind::gpu)
      context.device = device_of(context.spec, open_device_stream(context.spec.device));
  } catch (...) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!start_error_) start_error_ = std::current_exception();
  }
  std::unique_lock<std::mutex> lock(mutex_);
  ++started_;
  done_.notify_all();
  for (;;) {
    wake_.wait(lock, [&] { return stop_ || wants_unit(worker); });
    if (stop_) break;
    run_one(context, lock);
  }
  lock.unlock();
  close_device_stream(context.device.cuda_stream);
}

void WorkerPool::run(std::int64_t n, const Unit& unit, const std::function<void()>& on_failure) {
  if (n <= 0) return;
  std::unique_lock<std::mutex> lock(mutex_);
  unit_ = &unit;
  on_failure_ = &on_failure;
  n_ = n;
  next_ = finished_ = 0;
  retry_.clear();
  failed_units_.clear();
  std::fill(declined_.begin(), declined_.end(), 0);
  fatal_ = nullptr;
  lock.unlock();
  // Wake as many workers as there are units: a batch of one unit wakes one thread, not all.
  if (n >= size())
    wake_.notify_all();
  else
    for (std::int64_t k = 0; k < n; ++k) wake_.notify_one();
  lock.lock();
  if (caller_ >= 0) {
    WorkerContext context;
    context.index = caller_;
    context.spec = specs_[std::size_t(caller_)];
    context.device = device_of(context.spec, nullptr);
    for (;;) {
      wake_.wait(lock, [&] { return batch_over() || wants_unit(caller_); });
      if (batch_over()) break;
      run_one(context, lock);
    }
  }
  done_.wait(lock, [&] { return batch_over(); });
  unit_ = nullptr;
  on_failure_ = nullptr;
  n_ = 0;
  const std::exception_ptr fatal = fatal_;
  fatal_ = nullptr;
  lock.unlock();
  if (fatal) std::rethrow_exception(fatal);
}

std::vector<WorkerStats> WorkerPool::stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return stats_;
}

std::string WorkerPool::describe() const {
  std::vector<int> gpus;
  int cpus = 0, threads = 0, simulated = 0;
  for (const WorkerSpec& s : specs_) {
    if (s.kind == WorkerKind::gpu) gpus.push_back(s.device);
    if (s.kind == WorkerKind::simulated_gpu) ++simulated;
    if (s.kind == WorkerKind::cpu) {
      ++cpus;
      threads += s.threads;
    }
  }
  std::vector<std::string> parts;
  if (!gpus.empty())
    parts.push_back(fmt::format("{} GPU{} ({})", gpus.size(), gpus.size() == 1 ? "" : "s",
                                fmt::join(gpus, ", ")));
  if (simulated > 0)
    parts.push_back(fmt::format("{} simulated GPU{}", simulated, simulated == 1 ? "" : "s"));
  if (cpus > 0)
    parts.push_back(
        fmt::format("{} CPU worker{} ({} threads)", cpus, cpus == 1 ? "" : "s", threads));
  return fmt::format("{}", fmt::join(parts, " + "));
}

std::vector<WorkerSpec> machine_workers(const std::vector<int>& devices, int cpu_workers,
                                        int cpu_threads) {
  std::vector<WorkerSpec> workers;
  for (int d : devices) workers.push_back({WorkerKind::gpu, d, 1, 0});
  for (int k = 0; k < cpu_workers; ++k) {
    const int threads =
        std::max(1, cpu_threads / cpu_workers + (k < cpu_threads % cpu_workers ? 1 : 0));
    workers.push_back({WorkerKind::cpu, -1, threads, 0});
  }
  return workers;
}

}  // namespace kmol
