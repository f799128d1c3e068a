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
// calls (a trajectory's frames after the first): a one-shot call pins nothing. All sets are
// released when Kokkos finalizes (kmol/core/finalize_hooks.hpp).
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <type_traits>
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
    if (ring_.extent(0) == 0) {
      ring_ = StagingBytes(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kmol::kept::ring"),
                           kChunks * kChunkBytes);
      for (cudaEvent_t& e : copied_)
        check(cudaEventCreateWithFlags(&e, cudaEventDisableTiming), "event");
    }
    const cudaStream_t stream = space.cuda_stream();
    auto* out = static_cast<unsigned char*>(to);
    const auto* in = static_cast<const unsigned char*>(from);
    for (std::size_t first = 0, k = 0; first < bytes; first += kChunkBytes, ++k) {
      const std::size_t size = std::min(kChunkBytes, bytes - first);
      unsigned char* chunk = ring_.data() + (k % kChunks) * kChunkBytes;
      check(cudaEventSynchronize(copied_[k % kChunks]), "wait for a chunk");
      copy_in_parallel(chunk, in + first, size, 8);
      check(cudaMemcpyAsync(out + first, chunk, size, cudaMemcpyHostToDevice, stream), "copy");
      check(cudaEventRecord(copied_[k % kChunks], stream), "record a chunk's copy");
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
