#include "drivers/library/frame_pipeline.hpp"

#include <fmt/core.h>
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>

#include "drivers/library/bounded_queue.hpp"
#include "drivers/library/own_cpu_thread.hpp"
#include "drivers/library/pool_pair_histogram.hpp"
#include "kernels/empty_view.hpp"
#include "kernels/pair_histogram/implementations.hpp"
#include "kernels/pair_histogram/validation.hpp"
#include "kmol/core/errors.hpp"

namespace kmol {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
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
  double extent = 0;  // the largest |coordinate| of the sets, every one checked finite
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

Platform worker_platform(const WorkerSpec& w) {
  return w.kind == WorkerKind::gpu ? Platform::cuda : Platform::host;
}

// The workers asked for, with a host worker standing by for frames that fail when every one of
// them is a device, and one CPU worker when none is asked for.
std::vector<WorkerSpec> with_host_standby(std::vector<WorkerSpec> workers) {
  bool host = false;
  for (const WorkerSpec& w : workers) host = host || w.kind == WorkerKind::cpu;
  if (!host) {
    WorkerSpec standby = frame_workers(false, 1).front();
    standby.retries_only = !workers.empty();
    workers.push_back(standby);
  }
  return workers;
}

// A frame counted by a worker, on its way to the writer.
struct Counted {
  FrameResult result;
  bool device = false;  // counted by a GPU (or simulated) worker
  double busy_seconds = 0, upload_seconds = 0;
  std::string impl, launch;
};

template <class T>
class Pipeline {
 public:
  Pipeline(io::TrajectoryReader& reader, const FrameJob& job, const PipelineOptions& options)
      : reader_(reader),
        job_(job),
        options_(options),
        workers_(with_host_standby(options.workers)),
        readers_(open_readers(reader, options.readers, more_readers_)),
        device_frames_(workers_.size()),
        free_(workers_.size() + readers_.size() + 1),
        counted_(workers_.size() + 2) {
    refuse_unrunnable_workers();
    for (std::size_t p = 0; p < options.frames.size(); ++p)
      if (options.skip.empty() || !options.skip[p]) unit_positions_.push_back(std::int64_t(p));
    ready_.assign(unit_positions_.size(), nullptr);
    read_limit_ = std::int64_t(unit_positions_.size());
    progress_.total = std::int64_t(options.frames.size());
    for (char skipped : options.skip) progress_.done += skipped ? 1 : 0;
    bool pinned = false;
    for (const WorkerSpec& w : workers_) pinned = pinned || w.kind == WorkerKind::gpu;
    // A slot for each worker's frame, each reader's and one ready in between.
    for (std::size_t k = 0; k < workers_.size() + readers_.size() + 1; ++k) {
      slots_.push_back(std::make_unique<FrameSlot<T>>(job.size_a(), job.size_b(), pinned));
      free_.push(slots_.back().get());
    }
  }

  PipelineStats run() {
    // The pool's GPU threads bind their devices first (a CUDA context takes a while to create),
    // so that the clock starts with the frames; the setup time is reported on its own.
    const auto setup = Clock::now();
    // Readers, the writer and then the pool's GPU threads each on a CPU of their own.
    const int writer_cpu = int(readers_.size());
    WorkerPool pool(workers_, writer_cpu + 1);
    if (pool.own_cpus() > 0) stats_.device_setup_seconds = seconds_since(setup);
    start_ = Clock::now();
    // The writer hands frames on while the workers count the next ones (saving a resumable state
    // takes a while); the readers decode ahead.
    std::thread writer = thread_on_own_cpu(writer_cpu, [&] {
      deliver_frames();
      counted_.close();  // after a stop, workers must not wait on it
    });
    std::vector<std::thread> reader_threads;
    for (std::size_t r = 0; r < readers_.size(); ++r)
      reader_threads.push_back(thread_on_own_cpu(int(r), [&, r] {
        try {
          read_frames(*readers_[r]);
        } catch (...) {
          stop(std::current_exception());
        }
      }));
    try {
      pool.run(
          std::int64_t(unit_positions_.size()),
          [&](const WorkerContext& worker, std::int64_t unit) { count_frame(worker, unit); },
          [&] { stop(nullptr); });
    } catch (...) {
      stop(std::current_exception());
    }
    free_.close();  // readers waiting for a slot have nothing left to read
    for (auto& r : reader_threads) r.join();
    counted_.close();
    writer.join();
    if (read_error_) failure_.record(read_error_);
    stats_.wall_seconds = seconds_since(start_);
    stats_.read_seconds = read_seconds_;
    stats_.convert_seconds = convert_seconds_;
    stats_.readers = int(readers_.size());
    const auto workers = pool.stats();
    for (std::size_t w = 0; w < workers_.size(); ++w) {
      stats_.device_failures += workers[w].failures;
      stats_.device_workers += workers_[w].kind == WorkerKind::cpu ? 0 : 1;
    }
    failure_.rethrow();
    return stats_;
  }

 private:
  // Workers that would refuse every frame are refused before the first one: an implementation
  // asked for that only portable workers run, or a portable GPU worker on another device.
  void refuse_unrunnable_workers() const {
    const PairHistogramImpl asked = job_.settings.impl;
    for (const WorkerSpec& w : workers_) {
      if (w.portable && w.kind == WorkerKind::gpu && w.device != kokkos_gpu())
        throw UnsupportedError(fmt::format(
            "frame pipeline: GPU {} runs raw implementations only (Kokkos drives GPU {})", w.device,
            kokkos_gpu()));
      if (!w.portable && asked != PairHistogramImpl::automatic &&
          asked != platform_implementation(pair_histogram_implementations, worker_platform(w)))
        throw UsageError(
            {"", "impl", -1},
            fmt::format("{} runs on one worker only (Kokkos's GPU, or a single CPU worker); a {} "
                        "worker beside others runs {}",
                        to_string(asked), to_string(w.kind),
                        to_string(platform_implementation(pair_histogram_implementations,
                                                          worker_platform(w)))));
    }
  }

  static int kokkos_gpu() {
#ifdef KOKKOS_ENABLE_CUDA
    return Kokkos::Cuda().cuda_device();
#else
    return -1;
#endif
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

  // Records the error (nullptr: the pool's own, rethrown by run()) and wakes every waiting thread:
  // units waiting for a frame give up, readers take no more frames.
  void stop(std::exception_ptr error) {
    if (error) failure_.record(error);
    {
      std::lock_guard<std::mutex> lock(frames_mutex_);
      abandoned_ = true;
    }
    frame_ready_.notify_all();
    free_.close();
    counted_.close();
  }

  void read_frames(io::TrajectoryReader& reader) {
    std::vector<Vec3<T>> all(std::size_t(reader.n_atoms()));
    std::vector<Vec3<double>> whole(job_.sites_a || job_.sites_b ? all.size() : 0);
    double read = 0, gathered = 0;
    const double converted_before = reader.convert_seconds();
    while (!failure_.stopped()) {
      auto slot = free_.pop();
      if (!slot) break;
      const std::int64_t unit = next_read_++;
      if (unit >= std::int64_t(unit_positions_.size())) break;
      const std::int64_t frame = options_.frames[std::size_t(unit_positions_[std::size_t(unit)])];
      const auto begin = Clock::now();
      io::FrameInfo info;
      FrameSlot<T>& s = **slot;
      try {
        info = reader.read_frame(frame, all.data());
        const auto read_end = Clock::now();
        read += std::chrono::duration<double>(read_end - begin).count();
        refuse_box_change(reader, frame, info.box);
        gather(all, job_.periodic ? info.box : BoxSpec::none(), whole, reader, frame, s);
        s.extent = checked_extent(reader, frame, s);
        gathered += seconds_since(read_end);
      } catch (...) {
        // Later frames are left; earlier ones, being read by other readers, still count.
        std::lock_guard<std::mutex> lock(frames_mutex_);
        if (unit < read_limit_) {
          read_limit_ = unit;
          read_error_ = std::current_exception();
        }
        frame_ready_.notify_all();
        break;
      }
      s.position = unit_positions_[std::size_t(unit)];
      s.frame = frame;
      s.box = job_.periodic ? info.box : BoxSpec::none();
      {
        std::lock_guard<std::mutex> lock(frames_mutex_);
        ready_[std::size_t(unit)] = *slot;
      }
      frame_ready_.notify_all();
    }
    const double converted = reader.convert_seconds() - converted_before;
    std::lock_guard<std::mutex> lock(frames_mutex_);
    read_seconds_ += read - converted;
    convert_seconds_ += converted + gathered;
  }

  // The frame's sets into the slot: the selected atoms, or the centres of their residues or
  // molecules (a molecule that cannot be made whole is refused naming the file and frame).
  void gather(const std::vector<Vec3<T>>& all, const BoxSpec& box, std::vector<Vec3<double>>& whole,
              const io::TrajectoryReader& reader, std::int64_t frame, FrameSlot<T>& s) const {
    const auto one = [&](const std::shared_ptr<const SiteMap>& sites,
                         const std::vector<std::int64_t>& atoms, Vec3<T>* out) {
      if (!sites) {
        for (std::size_t k = 0; k < atoms.size(); ++k) out[k] = all[std::size_t(atoms[k])];
        return;
      }
      try {
        site_positions(*sites, all.data(), box, whole, out);
      } catch (const InputError& e) {
        throw InputError({reader.path(), "frame", long(frame)}, e.what());
      }
    };
    one(job_.sites_a, job_.atoms_a, s.a.data());
    one(job_.sites_b, job_.atoms_b, s.b.data());
  }

  // The largest |coordinate| of the frame's sets, found here so that a GPU worker need not wait
  // for the device to find it; a non-finite coordinate (from any format, or a centre of one) is
  // refused naming the frame and the file's atom (or the centre in its selection).
  double checked_extent(const io::TrajectoryReader& reader, std::int64_t frame,
                        FrameSlot<T>& s) const {
    double extent = 0;
    const auto one = [&](HostBuffer<Vec3<T>>& set, const std::vector<std::int64_t>& atoms,
                         bool sites, const char* name) {
      for (std::size_t k = 0; k < set.size(); ++k) {
        const Vec3<T> p = set.data()[k];
        if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z))
          throw InputError({reader.path(), "frame", long(frame)},
                           sites
                               ? fmt::format("centre {} of {} has a non-finite coordinate", k, name)
                               : fmt::format("atom {} has a non-finite coordinate", atoms[k]));
        extent = std::max(extent, double(largest_magnitude(p)));
      }
    };
    one(s.a, job_.atoms_a, job_.sites_a != nullptr, "selection A");
    one(s.b, job_.atoms_b, job_.sites_b != nullptr, "selection B");
    return extent;
  }

  // Periodic runs take every frame's box: a frame without one (or one in a trajectory whose first
  // frame has none) would be counted with plain distances and normalised with the wrong volume.
  void refuse_box_change(const io::TrajectoryReader& reader, std::int64_t frame,
                         const BoxSpec& box) const {
    if (!job_.periodic) return;
    const bool first = reader.box_kind() != BoxKind::none, here = box.kind != BoxKind::none;
    if (first == here) return;
    throw InputError({reader.path(), "frame", long(frame)},
                     here ? "has a periodic box, but the trajectory's first frame has none"
                          : "has no periodic box, but the trajectory's first frame has one: every "
                            "frame of a periodic run needs one (use --no-pbc for plain distances)");
  }

  // The unit's frame once read; nullptr when it never will be (a read failed before it, or the
  // run stopped).
  FrameSlot<T>* wait_for_frame(std::int64_t unit) {
    std::unique_lock<std::mutex> lock(frames_mutex_);
    frame_ready_.wait(lock, [&] {
      return ready_[std::size_t(unit)] != nullptr || unit >= read_limit_ || abandoned_;
    });
    return abandoned_ ? nullptr : ready_[std::size_t(unit)];
  }

  // One unit: the frame's counts on this worker, then delivered. Bad input ends the run; any
  // other failure is the pool's to retry on another worker, from the same slot.
  void count_frame(const WorkerContext& worker, std::int64_t unit) {
    const auto asked = Clock::now();
    FrameSlot<T>* s = wait_for_frame(unit);
    worker.waited_seconds = seconds_since(asked);
    if (s == nullptr) return;
    const auto begin = Clock::now();
    PairHistogramResult result;
    double uploaded = 0;
    try {
      result = count(worker, *s, uploaded);
    } catch (const InputError& e) {
      return stop(std::make_exception_ptr(frame_error(*s, e.what())));
    } catch (const UnsupportedError& e) {
      return stop(std::make_exception_ptr(frame_error(*s, e.what())));
    } catch (const std::exception& e) {
      throw RunFailure(fmt::format("{}: frame: [{}] {}", reader_.path(), s->frame, e.what()));
    }
    Counted frame{{s->position, s->frame,
                   s->box.kind == BoxKind::none ? 0 : 1 / box_measure(s->box, job_.settings.plane),
                   std::move(result.counts)},
                  worker.spec.kind != WorkerKind::cpu,
                  seconds_since(begin) - uploaded,
                  uploaded,
                  to_string(result.impl_used),
                  result.launch};
    counted_.push(std::move(frame));  // refused once stopping: the frame is not delivered
    {
      std::lock_guard<std::mutex> lock(frames_mutex_);
      ready_[std::size_t(unit)] = nullptr;
    }
    free_.push(s);  // refused once stopping; the slot is simply not reused
  }

  // Names the frame: a box too small for r_max in frame 812, say.
  InputError frame_error(const FrameSlot<T>& s, const std::string& what) const {
    return InputError({reader_.path(), "frame", long(s.frame)}, what);
  }

  // The frame's count; `uploaded` the seconds spent copying it to the device apart from that.
  PairHistogramResult count(const WorkerContext& worker, FrameSlot<T>& s,
                            [[maybe_unused]] double& uploaded) const {
    PairHistogramInput<T> input = input_of(s);
    PairHistogramSettings settings = job_.settings;
    settings.box = s.box;
    if (worker.spec.portable) {
      // The host standing by for failed device frames counts them its own way.
      if (worker.spec.retries_only) settings.impl = PairHistogramImpl::automatic;
      if (worker.device.platform == Platform::host)
        return pair_histogram(Kokkos::DefaultHostExecutionSpace(), input, settings);
#ifdef KOKKOS_ENABLE_CUDA
      // Frames counted where they live are copied to the device here, so that the upload is
      // timed apart from the count (an implementation that reads host arrays copies them itself).
      if (counts_resident_atoms(input.n_a, input.n_b, input.one_set(), settings,
                                worker.device.platform))
        uploaded = upload(worker, input);
      return pair_histogram(Kokkos::Cuda(), input, settings);
#endif
    }
    PreparedPairHistogram<T> prepared;
    prepare_pair_histogram(input, settings, prepared);
    prepared.result.launch = run_prepared(prepared, [&](const PairHistogramJob<T>& job) {
      return count_on_worker(worker, job, 0, std::int64_t(job.n_histograms) * job.range.n_bins);
    });
    prepared.result.impl_used =
        platform_implementation(pair_histogram_implementations, worker.device.platform);
    return std::move(prepared.result);
  }

  // Copies the frame's sets into the worker's device buffers and points the input at them.
  double upload(const WorkerContext& worker, PairHistogramInput<T>& input) const {
    const auto begin = Clock::now();
    DeviceFrame& d = device_frames_[std::size_t(worker.index)];
    const Kokkos::DefaultExecutionSpace space;
    const auto copy = [&](DeviceView& to, const Vec3<T>* from, std::int64_t n) {
      if (std::int64_t(to.extent(0)) < n)
        to =
            DeviceView(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kmol::pipeline::frame"), n);
      const Kokkos::View<const Vec3<T>*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> host(from, n);
      Kokkos::deep_copy(space, Kokkos::subview(to, std::make_pair(std::int64_t(0), n)), host);
      return to.data();
    };
    input.a = copy(d.a, input.a, input.n_a);
    if (!input.one_set()) input.b = copy(d.b, input.b, input.n_b);
    space.fence();
    input.resident = true;
    return seconds_since(begin);
  }

  PairHistogramInput<T> input_of(FrameSlot<T>& s) const {
    PairHistogramInput<T> input;
    input.a = s.a.data();
    input.n_a = std::int64_t(s.a.size());
    if (job_.size_b() > 0) {
      input.b = s.b.data();
      input.n_b = std::int64_t(s.b.size());
    }
    input.species = job_.species.empty() ? nullptr : job_.species.data();
    input.molecule_a = job_.molecule_a.empty() ? nullptr : job_.molecule_a.data();
    input.molecule_b = job_.molecule_b.empty() ? nullptr : job_.molecule_b.data();
    input.extent = s.extent;
    return input;
  }

  // The writer: hands the frames on one at a time in completion order, nothing after a stop.
  void deliver_frames() {
    while (auto counted = counted_.pop()) {
      if (failure_.stopped()) return;
      const Counted& c = *counted;
      (c.device ? stats_.gpu_busy_seconds : stats_.cpu_busy_seconds) += c.busy_seconds;
      stats_.upload_seconds += c.upload_seconds;
      ++(c.device ? stats_.frames_on_gpu : stats_.frames_on_cpu);
      if (c.device || stats_.impl.empty()) {
        stats_.impl = c.impl;
        stats_.launch = c.launch;
      }
      try {
        const auto begin = Clock::now();
        if (options_.on_result) options_.on_result(c.result);
        ++progress_.done;
        ++stats_.frames;
        progress_.seconds = seconds_since(start_);
        if (options_.on_progress) options_.on_progress(progress_);
        stats_.reduce_seconds += seconds_since(begin);
      } catch (...) {
        return stop(std::current_exception());  // a stop asked for, or a state not saved
      }
    }
  }

  io::TrajectoryReader& reader_;
  const FrameJob& job_;
  const PipelineOptions& options_;
  std::vector<WorkerSpec> workers_;
  std::vector<std::unique_ptr<io::TrajectoryReader>> more_readers_;
  std::vector<io::TrajectoryReader*> readers_;
  std::vector<std::int64_t> unit_positions_;  // per unit: its position
  std::vector<std::unique_ptr<FrameSlot<T>>> slots_;
  // Per worker: the device copy of its frame (upload()), grown as needed.
  using DeviceView = Kokkos::View<Vec3<T>*, Kokkos::DefaultExecutionSpace::memory_space>;
  struct DeviceFrame {
    DeviceView a = empty_view<DeviceView>(), b = empty_view<DeviceView>();
  };
  mutable std::vector<DeviceFrame> device_frames_;
  BoundedQueue<FrameSlot<T>*> free_;
  std::atomic<std::int64_t> next_read_{0};
  std::mutex frames_mutex_;  // guards the next four and the readers' seconds
  std::condition_variable frame_ready_;
  std::vector<FrameSlot<T>*> ready_;  // per unit: its frame once read
  std::int64_t read_limit_ = 0;       // units from here on are never read
  bool abandoned_ = false;
  std::exception_ptr read_error_;  // of the earliest frame that could not be read
  double read_seconds_ = 0, convert_seconds_ = 0;
  Failure failure_;
  BoundedQueue<Counted> counted_;
  PipelineStats stats_;        // the writer's, until the run ends
  PipelineProgress progress_;  // the writer's
  Clock::time_point start_;
};

}  // namespace

std::vector<WorkerSpec> frame_workers(bool gpu, int cpu_workers) {
  std::vector<WorkerSpec> workers;
  if (gpu) {
#ifdef KOKKOS_ENABLE_CUDA
    workers.push_back({WorkerKind::gpu, Kokkos::Cuda().cuda_device(), 1, 0, true});
#else
    throw UnsupportedError("this build has no GPU backend");
#endif
  }
  const int threads = Kokkos::DefaultHostExecutionSpace().concurrency();
  if (cpu_workers == 1) workers.push_back({WorkerKind::cpu, -1, threads, 0, true});
  if (cpu_workers > 1)
    for (const WorkerSpec& w : machine_workers({}, cpu_workers, threads)) workers.push_back(w);
  return workers;
}

PipelineStats run_frame_pipeline(io::TrajectoryReader& reader, const FrameJob& job,
                                 const PipelineOptions& options) {
  if (job.precision == Precision::double_) return Pipeline<double>(reader, job, options).run();
  return Pipeline<float>(reader, job, options).run();
}

}  // namespace kmol
