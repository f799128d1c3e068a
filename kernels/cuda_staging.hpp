#pragma once
// Buffers that outlive one call of a raw CUDA path: page-locked host memory (copies run at the
// bus' speed and truly asynchronously, where pageable memory goes through the driver's bounce
// buffer at a fraction of it) and device memory, grown on demand and kept for the next call. A
// repeated map then pays neither allocations nor pageable copies. Callers lease a workspace of
// their current device for the length of a call; concurrent callers get separate ones. Every
// kept workspace is freed when Kokkos finalizes (kmol/core/finalize_hooks.hpp). For raw .cu units
// only (no Kokkos).
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "kernels/cuda_check.hpp"
#include "kmol/core/finalize_hooks.hpp"

namespace kmol::cuda_staging {

inline constexpr CudaCheck check{"CUDA staging"};

// Memory of at least the size last reserved; growing discards the contents.
template <cudaError_t (*Allocate)(void**, std::size_t), cudaError_t (*Release)(void*)>
class GrowingBuffer {
 public:
  GrowingBuffer() = default;
  GrowingBuffer(const GrowingBuffer&) = delete;
  GrowingBuffer& operator=(const GrowingBuffer&) = delete;
  ~GrowingBuffer() {
    if (data_) Release(data_);
  }

  template <class T>
  T* reserve(std::size_t count) {
    const std::size_t bytes = count * sizeof(T);
    if (bytes > bytes_) {
      if (data_) Release(data_);
      data_ = nullptr;
      bytes_ = 0;
      check(Allocate(&data_, bytes), "allocate a buffer");
      bytes_ = bytes;
    }
    return static_cast<T*>(data_);
  }

 private:
  void* data_ = nullptr;
  std::size_t bytes_ = 0;
};

inline cudaError_t allocate_pinned(void** p, std::size_t bytes) {
  return cudaHostAlloc(p, bytes, cudaHostAllocPortable);
}
inline cudaError_t allocate_device(void** p, std::size_t bytes) { return cudaMalloc(p, bytes); }

using PinnedBuffer = GrowingBuffer<allocate_pinned, cudaFreeHost>;  // usable from every device
using DeviceBuffer =
    GrowingBuffer<allocate_device, cudaFree>;  // on the device current when it grows

// Whether a call stages its copies through page-locked memory. Page-locking costs about half a
// millisecond per MB, more than pageable copies of the same bytes, so the first call of a size a
// workspace has not served copies pageable, and the calls after it (a trajectory's frames, a
// benchmark's repetitions) stage: a one-shot call pins nothing (kept_arrays.hpp has the same rule).
class StagingRule {
 public:
  // For a call moving `up` bytes to the device and `down` bytes back; remembers the sizes.
  bool stages(std::size_t up, std::size_t down) {
    const bool served = up <= up_ && down <= down_;
    up_ = std::max(up_, up);
    down_ = std::max(down_, down);
    return served;
  }

 private:
  std::size_t up_ = 0, down_ = 0;  // the largest of the calls so far
};

// Events, created on demand and kept.
class EventSet {
 public:
  EventSet() = default;
  EventSet(const EventSet&) = delete;
  EventSet& operator=(const EventSet&) = delete;
  ~EventSet() {
    for (cudaEvent_t e : events_) cudaEventDestroy(e);
  }
  cudaEvent_t operator[](std::size_t i) {
    while (events_.size() <= i) {
      cudaEvent_t e = nullptr;
      check(cudaEventCreateWithFlags(&e, cudaEventDisableTiming), "create an event");
      events_.push_back(e);
    }
    return events_[i];
  }

 private:
  std::vector<cudaEvent_t> events_;
};

// Workspaces (default-constructible, created on the device current at the time) kept per device.
// A lease hands one back when the call is done; a call that throws drops its workspace instead,
// since work in flight may still use it.
template <class Workspace>
class WorkspacePool {
 public:
  class Lease {
   public:
    Lease(WorkspacePool& pool, int device, std::unique_ptr<Workspace> w)
        : pool_(pool), device_(device), w_(std::move(w)) {}
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    ~Lease() {
      if (done_) pool_.give_back(device_, std::move(w_));
    }
    Workspace& operator*() const { return *w_; }
    Workspace* operator->() const { return w_.get(); }
    // The workspace is idle (everything queued on it has completed): it may serve the next call.
    void done() { done_ = true; }

   private:
    WorkspacePool& pool_;
    int device_;
    std::unique_ptr<Workspace> w_;
    bool done_ = false;
  };

  Lease lease() {
    int device = 0;
    check(cudaGetDevice(&device), "current device");
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!release_pending_) {  // once per Kokkos session
        release_at_finalize([this] { release(); });
        release_pending_ = true;
      }
      auto& idle = idle_[unsigned(device) % kDevices];
      if (!idle.empty()) {
        auto w = std::move(idle.back());
        idle.pop_back();
        return Lease(*this, device, std::move(w));
      }
    }
    return Lease(*this, device, std::make_unique<Workspace>());
  }

 private:
  void give_back(int device, std::unique_ptr<Workspace> w) {
    std::lock_guard<std::mutex> lock(mutex_);
    idle_[unsigned(device) % kDevices].push_back(std::move(w));
  }

  // Frees every idle workspace, each with its own device current (its streams and events belong
  // to it).
  void release() {
    std::lock_guard<std::mutex> lock(mutex_);
    int current = 0;
    const bool known = cudaGetDevice(&current) == cudaSuccess;
    for (unsigned d = 0; d < kDevices; ++d) {
      if (idle_[d].empty()) continue;
      cudaSetDevice(int(d));
      idle_[d].clear();
    }
    if (known) cudaSetDevice(current);
    release_pending_ = false;
  }

  static constexpr unsigned kDevices = 64;
  std::mutex mutex_;
  std::vector<std::unique_ptr<Workspace>> idle_[kDevices];
  bool release_pending_ = false;
};

// The process' pool of one kind of workspace. The pool itself is never destroyed (a static's
// destructor would run during the CUDA runtime's teardown at exit); its workspaces are freed when
// Kokkos finalizes.
template <class Workspace>
WorkspacePool<Workspace>& workspaces() {
  static auto* pool = new WorkspacePool<Workspace>();
  return *pool;
}

}  // namespace kmol::cuda_staging
