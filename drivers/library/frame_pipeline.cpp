#include "drivers/library/frame_pipeline.hpp"

#include <pthread.h>
#include <sched.h>
#include <unistd.h>
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <future>
#include <limits>
#include <mutex>
#include <thread>

#include "drivers/library/bounded_queue.hpp"
#include "drivers/library/gpu_runtime.hpp"
#include "drivers/library/pool_pair_histogram.hpp"
#include "kernels/pair_histogram/validation.hpp"
#include "kmol/core/errors.hpp"

namespace kmol {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Starts f on a thread with a CPU of its own: the index-th of the machine's online CPUs counted
// from the last (OpenMP binds its threads from the first), or any of them when there are too few.
// Without this, with OMP_PROC_BIND, every pipeline thread inherited the one core that libgomp pins
// the main thread to when it loads; there the reader, woken by a freed slot, preempted the GPU
// worker that freed it, and the GPU idled during every frame's read (a fifth of the time on an
// H200). CPUs outside the process's cpuset are dropped by the kernel.
template <class F>
std::thread thread_on_own_cpu(int index, F&& f) {
  return std::thread([index, f = std::forward<F>(f)]() mutable {
    const int online = int(std::min<long>(sysconf(_SC_NPROCESSORS_ONLN), CPU_SETSIZE));
    cpu_set_t cpus;
    CPU_ZERO(&cpus);
    if (index < online - 1) {  // the first CPU stays the main thread's
      CPU_SET(online - 1 - index, &cpus);
    } else {
      for (int c = 0; c < online; ++c) CPU_SET(c, &cpus);
    }
    pthread_setaffinity_np(pthread_self(), sizeof cpus, &cpus);
    f();
  });
}

// Host memory for frame coordinates: page-locked when a GPU copies from it, so transfers run at
// full speed and can overlap.
template <class V>
class HostBuffer {
 public:
  HostBuffer(std::size_t n, bool pinned) : n_(n), pinned_(pinned) {
#ifdef KOKKOS_ENABLE_CUDA
    if (pinned_) {
      data_ = static_cast<V*>(Kokkos::kokkos_malloc<Kokkos::CudaHostPinnedSpace>(
          "kmol::frame", sizeof(V) * (n ? n : 1)));
      return;
    }
#endif
    pinned_ = false;
    storage_.resize(n);
    data_ = storage_.data();
  }
  ~HostBuffer() {
#ifdef KOKKOS_ENABLE_CUDA
    if (pinned_) Kokkos::kokkos_free<Kokkos::CudaHostPinnedSpace>(data_);
#endif
  }
  HostBuffer(const HostBuffer&) = delete;
  HostBuffer& operator=(const HostBuffer&) = delete;
  V* data() { return data_; }
  std::size_t size() const { return n_; }

 private:
  std::size_t n_;
  bool pinned_;
  std::vector<V> storage_;
  V* data_ = nullptr;
};

template <class T>
struct FrameSlot {
  std::int64_t position = 0, frame = 0;
  BoxSpec box;
  HostBuffer<Vec3<T>> a, b;
  FrameSlot(std::size_t n_a, std::size_t n_b, bool pinned) : a(n_a, pinned), b(n_b, pinned) {}
};

// The first error of any thread, and a flag that stops the others.
class Failure {
 public:
  void record(std::exception_ptr e) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!error_) error_ = e;
    stopped_ = true;
  }
  bool stopped() const { return stopped_; }
  void rethrow() const {
    if (error_) std::rethrow_exception(error_);
  }

 private:
  std::mutex mutex_;
  std::exception_ptr error_;
  std::atomic<bool> stopped_{false};
};

template <class T>
class Pipeline {
 public:
  Pipeline(io::TrajectoryReader& reader, const FrameJob& job, const PipelineOptions& options)
      : reader_(reader),
        job_(job),
        options_(options),
        workers_(
            std::max(1, options.cpu_workers + options.gpu_workers + int(options.devices.size()))),
        readers_(open_readers(reader, options.readers, more_readers_)),
        free_(std::size_t(workers_ + readers_.size()) + 1),
        ready_(std::size_t(workers_ + readers_.size()) + 1),
        results_(std::size_t(workers_) + 2),
        host_tasks_(std::size_t(workers_)) {
    bool pinned = options.gpu_workers > 0;
    for (const WorkerSpec& d : options.devices) pinned = pinned || d.kind == WorkerKind::gpu;
    // A slot for each worker's frame, each reader's and one ready in the queue.
    for (std::size_t k = 0; k < std::size_t(workers_) + readers_.size() + 1; ++k) {
      slots_.push_back(
          std::make_unique<FrameSlot<T>>(job.atoms_a.size(), job.atoms_b.size(), pinned));
      free_.push(slots_.back().get());
    }
  }

  PipelineStats run() {
    // Device workers bind their GPUs first (a CUDA context takes a while to create), so that the
    // clock starts with the frames; the setup time is reported on its own.
    const auto setup = Clock::now();
    std::vector<std::thread> workers;
    // Device workers hand failed frames to the host, so the main thread serves them too.
    std::atomic<int> host_users{options_.cpu_workers + int(options_.devices.size())};
    // On CPUs of their own after the reader, writer and other workers' (see thread_on_own_cpu).
    const int first_device_cpu = 2 + options_.gpu_workers + options_.cpu_workers;
    for (std::size_t d = 0; d < options_.devices.size(); ++d)
      workers.push_back(
          thread_on_own_cpu(first_device_cpu + int(d), [&, device = options_.devices[d]] {
            bool signalled = false;
            const auto opened = [&] {
              signalled = true;
              std::lock_guard<std::mutex> lock(open_mutex_);
              ++devices_open_;
              open_cv_.notify_all();
            };
            guarded([&] { work_on_device(device, opened); });
            if (!signalled) opened();
            if (--host_users == 0) host_tasks_.close();
          }));
    {
      std::unique_lock<std::mutex> lock(open_mutex_);
      open_cv_.wait(lock, [&] { return devices_open_ == int(options_.devices.size()); });
    }
    stats_.device_setup_seconds = seconds_since(setup);
    const auto start = Clock::now();
    // The first reader on the first CPU of its own, the others after every other thread's.
    std::vector<std::thread> reader_threads;
    std::atomic<int> reading{int(readers_.size())};
    for (std::size_t r = 0; r < readers_.size(); ++r)
      reader_threads.push_back(thread_on_own_cpu(
          r == 0 ? 0 : first_device_cpu + int(options_.devices.size() + r) - 1, [&, r] {
            guarded([&] { read_frames(*readers_[r]); });
            if (--reading == 0) {
              if (read_error_) failure_.record(read_error_);
              ready_.close();
            }
          }));
    for (int k = 0; k < options_.cpu_workers; ++k)
      workers.push_back(thread_on_own_cpu(2 + options_.gpu_workers + k, [&] {
        guarded([&] { work(false); });
        if (--host_users == 0) host_tasks_.close();
      }));
    if (host_users == 0) host_tasks_.close();
    for (int k = 0; k < options_.gpu_workers; ++k)
      workers.push_back(thread_on_own_cpu(2 + k, [&] { guarded([&] { work(true); }); }));
    std::thread writer_thread = thread_on_own_cpu(1, [&] {
      guarded([&] { write_results(start); });
      results_.close();  // after a writer failure, workers must not wait on it
    });

    // The main thread runs the CPU workers' kernels (see the header).
    while (auto task = host_tasks_.pop()) (*task)();

    for (auto& w : workers) w.join();
    results_.close();
    for (auto& r : reader_threads) r.join();
    writer_thread.join();
    stats_.wall_seconds = seconds_since(start);
    stats_.read_seconds = read_seconds_;
    stats_.readers = int(readers_.size());
    stats_.device_workers = options_.gpu_workers + int(options_.devices.size());
    failure_.rethrow();
    return stats_;
  }

 private:
  template <class F>
  void guarded(F&& f) {
    try {
      f();
    } catch (...) {
      failure_.record(std::current_exception());
      // Wake every thread so that all of them notice the stop; frames already read still finish.
      ready_.close();
      free_.close();
    }
  }

  // The given reader, and as many more as asked for where the format allows them.
  static std::vector<io::TrajectoryReader*> open_readers(
      io::TrajectoryReader& reader, int n,
      std::vector<std::unique_ptr<io::TrajectoryReader>>& owned) {
    std::vector<io::TrajectoryReader*> readers{&reader};
    for (int k = 1; k < n; ++k) {
      auto another = reader.another_reader();
      if (!another) break;
      owned.push_back(std::move(another));
      readers.push_back(owned.back().get());
    }
    return readers;
  }

  // The next position to read, past skipped ones; -1 when none is left before a failed read.
  std::int64_t take_position() {
    const auto n = std::int64_t(options_.frames.size());
    for (std::int64_t p = next_position_++; p < n; p = next_position_++) {
      if (p > failed_position_) return -1;
      if (options_.skip.empty() || !options_.skip[std::size_t(p)]) return p;
    }
    return -1;
  }

  void read_frames(io::TrajectoryReader& reader) {
    std::vector<Vec3<T>> all(std::size_t(reader.n_atoms()));
    double seconds = 0;
    while (!failure_.stopped()) {
      auto slot = free_.pop();
      if (!slot) break;
      const std::int64_t p = take_position();
      if (p < 0) {
        free_.push(*slot);
        break;
      }
      const auto begin = Clock::now();
      io::FrameInfo info;
      try {
        info = reader.read_frame(options_.frames[std::size_t(p)], all.data());
      } catch (...) {
        // Later frames are left; earlier ones, being read by other readers, still count.
        std::lock_guard<std::mutex> lock(read_mutex_);
        if (p < failed_position_) {
          failed_position_ = p;
          read_error_ = std::current_exception();
        }
        break;
      }
      FrameSlot<T>& s = **slot;
      s.position = p;
      s.frame = options_.frames[std::size_t(p)];
      s.box = job_.periodic ? info.box : BoxSpec::none();
      for (std::size_t k = 0; k < job_.atoms_a.size(); ++k) s.a.data()[k] = all[job_.atoms_a[k]];
      for (std::size_t k = 0; k < job_.atoms_b.size(); ++k) s.b.data()[k] = all[job_.atoms_b[k]];
      seconds += seconds_since(begin);
      if (!ready_.push(*slot)) break;
    }
    std::lock_guard<std::mutex> lock(read_mutex_);
    read_seconds_ += seconds;
  }

  PairHistogramInput<T> input_of(FrameSlot<T>& s) const {
    PairHistogramInput<T> input;
    input.a = s.a.data();
    input.n_a = std::int64_t(s.a.size());
    if (!job_.atoms_b.empty()) {
      input.b = s.b.data();
      input.n_b = std::int64_t(s.b.size());
    }
    input.species = job_.species.empty() ? nullptr : job_.species.data();
    input.molecule_a = job_.molecule_a.empty() ? nullptr : job_.molecule_a.data();
    input.molecule_b = job_.molecule_b.empty() ? nullptr : job_.molecule_b.data();
    return input;
  }

  PairHistogramSettings settings_of(const FrameSlot<T>& s) const {
    PairHistogramSettings settings = job_.settings;
    settings.box = s.box;
    return settings;
  }

  template <class Space>
  PairHistogramResult histogram(const Space& space, FrameSlot<T>& s) const {
    return pair_histogram(space, input_of(s), settings_of(s));
  }

  PairHistogramResult gpu_histogram(FrameSlot<T>& s) const {
#ifdef KOKKOS_ENABLE_CUDA
    return histogram(Kokkos::Cuda(), s);
#else
    (void)s;
    throw UnsupportedError("this build has no GPU backend");
#endif
  }

  // Handed to the main thread and awaited; see the header.
  PairHistogramResult cpu_histogram(FrameSlot<T>& s) {
    std::packaged_task<PairHistogramResult()> task(
        [&] { return histogram(Kokkos::DefaultHostExecutionSpace(), s); });
    auto future = task.get_future();
    if (!host_tasks_.push([&task] { task(); })) throw std::runtime_error("stopped");
    return future.get();
  }

  // Frames pulled by one device: validated here (a bad frame stops the run as on any worker),
  // counted by the raw implementation of the device, and counted by the host instead when the
  // device fails.
  void work_on_device(const WorkerSpec& spec, const std::function<void()>& opened) {
    WorkerContext context;
    context.spec = spec;
    struct Stream {
      void* stream;
      ~Stream() { close_device_stream(stream); }
    } stream{spec.kind == WorkerKind::gpu ? open_device_stream(spec.device) : nullptr};
    context.device = device_of(spec, stream.stream);
    opened();
    std::int64_t started = 0;
    while (auto slot = ready_.pop()) {
      FrameSlot<T>& s = **slot;
      const auto begin = Clock::now();
      PairHistogramResult result;
      bool on_device = true;
      try {
        PreparedPairHistogram<T> prepared;
        prepare_pair_histogram(input_of(s), settings_of(s), prepared);
        try {
          inject_failure(spec, ++started);
          prepared.result.launch =
              count_on_worker(context, prepared.job, 0,
                              std::int64_t(prepared.job.n_histograms) * prepared.job.range.n_bins);
          prepared.result.impl_used =
              spec.kind == WorkerKind::gpu ? PairHistogramImpl::cuda : PairHistogramImpl::host;
          result = std::move(prepared.result);
        } catch (const InputError&) {
          throw;
        } catch (const std::exception&) {
          on_device = false;
          result = cpu_histogram(s);
        }
      } catch (const std::exception& e) {
        throw InputError({reader_.path(), "frame", long(s.frame)}, e.what());
      }
      if (!finish(s, std::move(result), on_device, seconds_since(begin), !on_device)) return;
      free_.push(*slot);
    }
  }

  void work(bool gpu) {
    while (true) {
      if (!gpu && cpu_would_finish_last()) return;
      auto slot = ready_.pop();
      if (!slot) return;
      --frames_not_taken_;
      FrameSlot<T>& s = **slot;
      const auto begin = Clock::now();
      PairHistogramResult result;
      try {
        result = gpu ? gpu_histogram(s) : cpu_histogram(s);
      } catch (const std::exception& e) {
        // Name the frame: a box too small for r_max in frame 812, say.
        throw InputError({reader_.path(), "frame", long(s.frame)}, e.what());
      }
      if (!finish(s, std::move(result), gpu, seconds_since(begin), false)) return;
      free_.push(*slot);  // refused once stopping; the slot is simply not reused
    }
  }

  // Records the frame's stats and hands its counts to the writer; false once the writer stopped.
  bool finish(FrameSlot<T>& s, PairHistogramResult result, bool gpu, double busy,
              bool device_failed) {
    FrameResult out;
    out.position = s.position;
    out.frame = s.frame;
    out.inverse_volume = s.box.kind == BoxKind::none ? 0 : 1 / volume(s.box);
    out.counts = std::move(result.counts);
    {
      std::lock_guard<std::mutex> lock(stats_mutex_);
      (gpu ? stats_.gpu_busy_seconds : stats_.cpu_busy_seconds) += busy;
      ++(gpu ? stats_.frames_on_gpu : stats_.frames_on_cpu);
      stats_.device_failures += device_failed ? 1 : 0;
      if (gpu || stats_.impl.empty()) {
        stats_.impl = to_string(result.impl_used);
        stats_.launch = result.launch;
      }
    }
    return results_.push(std::move(out));
  }

  // Beside GPUs, a CPU worker stops taking frames once the GPUs would finish every frame not yet
  // taken sooner than the CPU finishes one; otherwise the run ends waiting on a last CPU frame.
  bool cpu_would_finish_last() {
    if (options_.gpu_workers == 0) return false;
    std::lock_guard<std::mutex> lock(stats_mutex_);
    if (stats_.frames_on_gpu == 0 || stats_.frames_on_cpu == 0) return false;
    const double gpus_per_frame =
        stats_.gpu_busy_seconds / double(stats_.frames_on_gpu * options_.gpu_workers);
    const double cpu_per_frame = stats_.cpu_busy_seconds / double(stats_.frames_on_cpu);
    return double(frames_not_taken_.load()) * gpus_per_frame < cpu_per_frame;
  }

  std::int64_t frames_to_process() const {
    std::int64_t n = 0;
    for (std::size_t p = 0; p < options_.frames.size(); ++p)
      n += options_.skip.empty() || !options_.skip[p];
    return n;
  }

  void write_results(Clock::time_point start) {
    PipelineProgress progress;
    progress.total = std::int64_t(options_.frames.size());
    for (char skipped : options_.skip) progress.done += skipped ? 1 : 0;
    while (auto result = results_.pop()) {
      if (options_.on_result) options_.on_result(*result);
      ++progress.done;
      ++stats_.frames;
      progress.seconds = seconds_since(start);
      if (options_.on_progress) options_.on_progress(progress);
    }
  }

  io::TrajectoryReader& reader_;
  const FrameJob& job_;
  const PipelineOptions& options_;
  int workers_;
  std::vector<std::unique_ptr<io::TrajectoryReader>> more_readers_;
  std::vector<io::TrajectoryReader*> readers_;
  std::atomic<std::int64_t> next_position_{0};
  std::atomic<std::int64_t> failed_position_{std::numeric_limits<std::int64_t>::max()};
  std::mutex read_mutex_;
  std::exception_ptr read_error_;  // of the earliest frame that could not be read
  std::vector<std::unique_ptr<FrameSlot<T>>> slots_;
  BoundedQueue<FrameSlot<T>*> free_, ready_;
  BoundedQueue<FrameResult> results_;
  BoundedQueue<std::function<void()>> host_tasks_;
  Failure failure_;
  std::mutex open_mutex_;
  std::condition_variable open_cv_;
  int devices_open_ = 0;
  std::mutex stats_mutex_;
  PipelineStats stats_;
  double read_seconds_ = 0;
  std::atomic<std::int64_t> frames_not_taken_{frames_to_process()};
};

}  // namespace

PipelineStats run_frame_pipeline(io::TrajectoryReader& reader, const FrameJob& job,
                                 const PipelineOptions& options) {
  if (job.precision == Precision::double_) return Pipeline<double>(reader, job, options).run();
  return Pipeline<float>(reader, job, options).run();
}

}  // namespace kmol
