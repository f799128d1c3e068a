#pragma once
// Arrays a Kokkos path keeps from one call to the next: on GPUs every View allocation is a
// cudaMalloc, and every free waits for the device, which costs a frame of a few milliseconds
// more than its kernels. A call leases a set for its length (concurrent calls get separate sets),
// asks it for arrays by name, and gets views of storage that only grows. Host coordinates reach
// a GPU through a small ring of kept page-locked chunks, filled by several threads while the
// previous chunk crosses the bus: pageable copies go through the driver's bounce buffer at a
// fraction of the bus' speed, and page-locking a whole input takes longer than copying it, which
// a one-shot call would pay in full. Page-locking even the ring takes longer than pageable copies
// of a few hundred MB, so a set's first call copies pageable and the ring is made for its later
// calls (a trajectory's frames after the first): a one-shot call pins nothing. Results (maps)
// come back the same way, through the ring the host threads copy one chunk out of while the next
// crosses the bus. All sets are released when Kokkos finalizes (kmol/core/finalize_hooks.hpp).
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "kernels/empty_view.hpp"
#include "kernels/host_copy.hpp"
#include "kmol/core/finalize_hooks.hpp"
#ifdef KOKKOS_ENABLE_CUDA
#include <cuda_runtime_api.h>

#include "kernels/cuda_check.hpp"
#endif

namespace kmol {

template <class ExecSpace>
class KeptArrays {
  using Memory = typename ExecSpace::memory_space;
  using Bytes = Kokkos::View<unsigned char*, Memory>;
  template <class V>
  using Array = Kokkos::View<V*, Kokkos::Device<ExecSpace, Memory>>;
#ifdef KOKKOS_ENABLE_CUDA
  static constexpr bool kStaged = std::is_same_v<Memory, Kokkos::CudaSpace>;
  using StagingBytes = Kokkos::View<unsigned char*, Kokkos::CudaHostPinnedSpace>;
#else
  static constexpr bool kStaged = false;
  using StagingBytes = Kokkos::View<unsigned char*, Kokkos::HostSpace>;
#endif

 public:
  // An array of at least n elements named `name` in this set, contents unspecified.
  template <class V>
  Array<V> array(const std::string& name, std::size_t n) {
    Bytes& bytes = arrays_.try_emplace(name, empty_view<Bytes>()).first->second;
    return Array<V>(reinterpret_cast<V*>(grow(bytes, n * sizeof(V), name).data()), n);
  }

  // A device copy of n host elements (none where host is null); `resident`: the elements are
  // already in Memory (a caller's View) and are copied within it.
  template <class V>
  Array<V> copy_in(const ExecSpace& space, const std::string& name, const V* host, std::size_t n,
                   bool resident = false) {
    const auto device = array<V>(name, host != nullptr ? n : 0);
    if (host == nullptr || n == 0) return device;
    if (resident) {
      Kokkos::deep_copy(space, device,
                        Kokkos::View<const V*, Memory, Kokkos::MemoryUnmanaged>(host, n));
#ifdef KOKKOS_ENABLE_CUDA
    } else if constexpr (kStaged) {
      upload_in_chunks(space, device.data(), host, n * sizeof(V));
#endif
    } else {
      Kokkos::deep_copy(
          space, device,
          Kokkos::View<const V*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(host, n));
    }
    return device;
  }

  // n elements of `device` (in Memory) into host memory, once the space's queued work is done.
  template <class V, class... Properties>
  void copy_out(const ExecSpace& space, V* host, const Kokkos::View<V*, Properties...>& device,
                std::size_t n) {
    if (n == 0) return;
#ifdef KOKKOS_ENABLE_CUDA
    if constexpr (kStaged) {
      download_in_chunks(space, host, device.data(), n * sizeof(V));
      return;
    }
#endif
    Kokkos::deep_copy(space, Kokkos::View<V*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(host, n),
                      Kokkos::subview(device, std::make_pair(std::size_t(0), n)));
    space.fence();
  }

  // A set for the length of one call.
  class Lease {
   public:
    Lease() : set_(take()) {}
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    ~Lease() {
      const std::lock_guard<std::mutex> lock(pool().mutex);
      pool().free.push_back(std::move(set_));
    }
    KeptArrays* operator->() { return set_.get(); }
    KeptArrays& operator*() { return *set_; }

   private:
    std::unique_ptr<KeptArrays> set_;
  };

 private:
#ifdef KOKKOS_ENABLE_CUDA
  static constexpr std::size_t kChunkBytes = std::size_t(16) << 20;
  static constexpr int kChunks = 2;
  static constexpr int kUploadThreads = 8;
  // Maps usually come back into freshly allocated host memory, whose first touch (a page fault
  // every 4 KiB) costs more than the copy itself: every host thread takes its share of a chunk.
  static int download_threads() { return Kokkos::DefaultHostExecutionSpace().concurrency(); }

  void make_ring() {
    static constexpr CudaCheck check{"kept arrays: staging ring"};
    if (ring_.extent(0) != 0) return;
    ring_ = StagingBytes(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kmol::kept::ring"),
                         kChunks * kChunkBytes);
    for (cudaEvent_t& e : copied_)
      check(cudaEventCreateWithFlags(&e, cudaEventDisableTiming), "event");
  }

  // Host bytes to device memory through the ring: the threads fill chunk k + 1 while chunk k is
  // copied; a chunk is refilled once the copy that last read it (this call's or an earlier one's)
  // has completed.
  void upload_in_chunks(const ExecSpace& space, void* to, const void* from, std::size_t bytes) {
    static constexpr CudaCheck check{"kept arrays: upload"};
    if (ring_.extent(0) == 0 && leases_ == 1) {
      check(cudaMemcpyAsync(to, from, bytes, cudaMemcpyHostToDevice, space.cuda_stream()),
            "pageable copy");
      return;
    }
    make_ring();
    const cudaStream_t stream = space.cuda_stream();
    auto* out = static_cast<unsigned char*>(to);
    const auto* in = static_cast<const unsigned char*>(from);
    for (std::size_t first = 0, k = 0; first < bytes; first += kChunkBytes, ++k) {
      const std::size_t size = std::min(kChunkBytes, bytes - first);
      unsigned char* chunk = ring_.data() + (k % kChunks) * kChunkBytes;
      check(cudaEventSynchronize(copied_[k % kChunks]), "wait for a chunk");
      copy_in_parallel(chunk, in + first, size, kUploadThreads);
      check(cudaMemcpyAsync(out + first, chunk, size, cudaMemcpyHostToDevice, stream), "copy");
      check(cudaEventRecord(copied_[k % kChunks], stream), "record a chunk's copy");
    }
  }

  // Device bytes to host memory through the ring, queued behind the space's work: chunk k + 2
  // crosses the bus into a slot as soon as the threads have copied chunk k out of it.
  void download_in_chunks(const ExecSpace& space, void* to, const void* from, std::size_t bytes) {
    static constexpr CudaCheck check{"kept arrays: download"};
    if (ring_.extent(0) == 0 && leases_ == 1) {
      // The driver fills pageable memory from one thread: the host threads take a fresh
      // destination's page faults first, while the device is still computing.
      zero_in_parallel(to, bytes, download_threads());
      check(cudaMemcpyAsync(to, from, bytes, cudaMemcpyDeviceToHost, space.cuda_stream()),
            "pageable copy");
      check(cudaStreamSynchronize(space.cuda_stream()), "pageable copy");
      return;
    }
    make_ring();
    const cudaStream_t stream = space.cuda_stream();
    const std::size_t chunks = (bytes + kChunkBytes - 1) / kChunkBytes;
    const auto size_of = [&](std::size_t k) {
      return std::min(kChunkBytes, bytes - k * kChunkBytes);
    };
    const auto queue = [&](std::size_t k) {
      check(cudaMemcpyAsync(ring_.data() + (k % kChunks) * kChunkBytes,
                            static_cast<const unsigned char*>(from) + k * kChunkBytes, size_of(k),
                            cudaMemcpyDeviceToHost, stream),
            "copy");
      check(cudaEventRecord(copied_[k % kChunks], stream), "record a chunk's copy");
    };
    for (std::size_t k = 0; k < std::min<std::size_t>(kChunks, chunks); ++k) queue(k);
    for (std::size_t k = 0; k < chunks; ++k) {
      check(cudaEventSynchronize(copied_[k % kChunks]), "wait for a chunk");
      copy_in_parallel(static_cast<unsigned char*>(to) + k * kChunkBytes,
                       ring_.data() + (k % kChunks) * kChunkBytes, size_of(k), download_threads());
      if (k + kChunks < chunks) queue(k + kChunks);
    }
  }

 public:
  KeptArrays() = default;
  KeptArrays(const KeptArrays&) = delete;
  KeptArrays& operator=(const KeptArrays&) = delete;
  ~KeptArrays() {
    for (cudaEvent_t e : copied_)
      if (e != nullptr) cudaEventDestroy(e);
  }

 private:
  StagingBytes ring_ = empty_view<StagingBytes>();
  cudaEvent_t copied_[kChunks] = {};
#endif

  template <class View>
  static View& grow(View& view, std::size_t bytes, const std::string& name) {
    if (view.extent(0) < bytes)
      view = View(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kmol::kept::" + name), bytes);
    return view;
  }

  struct Pool {
    std::mutex mutex;
    std::vector<std::unique_ptr<KeptArrays>> free;
    bool hooked = false;
  };
  static Pool& pool() {
    static Pool p;
    return p;
  }
  static std::unique_ptr<KeptArrays> take() {
    const std::lock_guard<std::mutex> lock(pool().mutex);
    if (!pool().hooked) {  // once per Kokkos session
      release_at_finalize([] {
        const std::lock_guard<std::mutex> inner(pool().mutex);
        pool().free.clear();
        pool().hooked = false;
      });
      pool().hooked = true;
    }
    std::unique_ptr<KeptArrays> set;
    if (pool().free.empty()) {
      set = std::make_unique<KeptArrays>();
    } else {
      set = std::move(pool().free.back());
      pool().free.pop_back();
    }
    ++set->leases_;
    return set;
  }

  std::map<std::string, Bytes> arrays_;
  int leases_ = 0;  // calls that have used this set, the current one included
};

}  // namespace kmol
