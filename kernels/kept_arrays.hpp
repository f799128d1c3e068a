#pragma once
// Arrays a Kokkos path keeps from one call to the next: on GPUs every View allocation is a
// cudaMalloc, and every free waits for the device, which costs a frame of a few milliseconds
// more than its kernels. A call leases a set for its length (concurrent calls get separate sets),
// asks it for arrays by name, and gets views of storage that only grows. Host coordinates reach
// a GPU through kept page-locked memory, filled by several threads: pageable copies go through
// the driver's bounce buffer at a fraction of the bus' speed. All sets are released when Kokkos
// finalizes.
#include <Kokkos_Core.hpp>

#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <type_traits>
#include <vector>

#include "kernels/host_copy.hpp"

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
    return Array<V>(reinterpret_cast<V*>(grow(arrays_[name], n * sizeof(V), name).data()), n);
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
    } else if constexpr (kStaged) {
      StagingBytes& staging = staging_[name];
      grow(staging, n * sizeof(V), name + " (staging)");
      space.fence();  // the staging buffer may still feed the previous call's copy
      copy_in_parallel(staging.data(), host, n * sizeof(V), 8);
      Kokkos::deep_copy(
          space, device,
          Kokkos::View<const V*, typename StagingBytes::memory_space, Kokkos::MemoryUnmanaged>(
              reinterpret_cast<const V*>(staging.data()), n));
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
      Kokkos::push_finalize_hook([] {
        const std::lock_guard<std::mutex> inner(pool().mutex);
        pool().free.clear();
        pool().hooked = false;
      });
      pool().hooked = true;
    }
    if (pool().free.empty()) return std::make_unique<KeptArrays>();
    std::unique_ptr<KeptArrays> set = std::move(pool().free.back());
    pool().free.pop_back();
    return set;
  }

  std::map<std::string, Bytes> arrays_;
  std::map<std::string, StagingBytes> staging_;
};

}  // namespace kmol
