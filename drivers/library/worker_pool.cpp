#include "drivers/library/worker_pool.hpp"

#include <algorithm>
#include <chrono>
#include <iterator>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "drivers/library/gpu_runtime.hpp"

namespace kmol {

std::string to_string(WorkerKind kind) {
  switch (kind) {
    case WorkerKind::cpu:
      return "cpu";
    case WorkerKind::gpu:
      return "gpu";
    case WorkerKind::simulated_gpu:
      return "simulated gpu";
  }
  return "?";
}

void inject_failure(const WorkerSpec& spec, std::int64_t units_started) {
  if (units_started <= spec.fail_first_units)
    throw InjectedFailure(fmt::format("{} worker: injected failure of its unit {}",
                                      to_string(spec.kind), units_started));
}

WorkerPool::WorkerPool(std::vector<WorkerSpec> workers)
    : specs_(std::move(workers)), stats_(specs_.size()), started_units_(specs_.size()) {
  for (int w = 0; w < size(); ++w) threads_.emplace_back([this, w] { loop(w); });
  std::unique_lock<std::mutex> lock(mutex_);
  done_.wait(lock, [&] { return started_ == size(); });
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

bool WorkerPool::has_work_for(int worker) const {
  if (unit_ == nullptr || fatal_) return false;
  if (next_ < n_) return true;
  for (const Retry& r : retry_)
    if (!r.failed_by[std::size_t(worker)]) return true;
  return false;
}

std::int64_t WorkerPool::take(int worker) {
  for (auto r = retry_.rbegin(); r != retry_.rend(); ++r)
    if (!r->failed_by[std::size_t(worker)]) {
      const std::int64_t unit = r->unit;
      retry_.erase(std::next(r).base());
      return unit;
    }
  return next_++;
}

// Under the lock: remembers who failed the unit and either re-queues it or, when every worker has
// failed it, ends the batch with its error.
void WorkerPool::failed(int worker, std::int64_t unit, std::exception_ptr error) {
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
    done_.notify_all();
    return;
  }
  retry_.push_back(*record);
  wake_.notify_all();
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

void WorkerPool::loop(int worker) {
  using Clock = std::chrono::steady_clock;
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
    wake_.wait(lock, [&] { return stop_ || has_work_for(worker); });
    if (stop_) break;
    const std::int64_t unit = take(worker);
    const Unit& run_unit = *unit_;
    const std::int64_t started = ++started_units_[std::size_t(worker)];
    ++in_flight_;
    lock.unlock();
    const auto begin = Clock::now();
    std::exception_ptr error;
    try {
      inject_failure(context.spec, started);
      run_unit(context, unit);
    } catch (...) {
      error = std::current_exception();
    }
    const double busy = std::chrono::duration<double>(Clock::now() - begin).count();
    lock.lock();
    --in_flight_;
    stats_[std::size_t(worker)].busy_seconds += busy;
    if (error) {
      failed(worker, unit, error);
    } else {
      ++stats_[std::size_t(worker)].units;
      ++finished_;
    }
    if (finished_ == n_ || (fatal_ && in_flight_ == 0)) done_.notify_all();
  }
  lock.unlock();
  close_device_stream(context.device.cuda_stream);
}

void WorkerPool::run(std::int64_t n, const Unit& unit) {
  if (n <= 0) return;
  std::unique_lock<std::mutex> lock(mutex_);
  unit_ = &unit;
  n_ = n;
  next_ = finished_ = 0;
  retry_.clear();
  failed_units_.clear();
  fatal_ = nullptr;
  lock.unlock();
  // Wake as many workers as there are units: a batch of one unit wakes one thread, not all.
  if (n >= size())
    wake_.notify_all();
  else
    for (std::int64_t k = 0; k < n; ++k) wake_.notify_one();
  lock.lock();
  done_.wait(lock, [&] { return (finished_ == n_ || fatal_) && in_flight_ == 0; });
  unit_ = nullptr;
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
