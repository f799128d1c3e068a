#pragma once
// Allocators for kmol's large host arrays (maps, prepared atoms).
//
// DefaultInitAllocator: resize() leaves new elements of trivial types uninitialised (default-
// rather than value-initialised), for output maps that an implementation overwrites whole: zeroing
// tens of MB first costs a pass over memory that can take longer than the GPU kernel filling them.
//
// LargePageAllocator: arrays of several MB on transparent huge pages where the system grants them
// on request (THP "madvise", the common default). A fresh map is written once by the threads that
// fill it, and with 4 KiB pages its first touch takes a page fault every 4 KiB, which costs more
// than the copy itself and varies from process to process (most on virtual machines); with 2 MiB
// pages it takes 512 times fewer. Smaller arrays come from the default allocator.
#include <sys/mman.h>

#include <cstddef>
#include <cstdlib>
#include <memory>
#include <new>
#include <utility>
#include <vector>

namespace kmol {

inline constexpr std::size_t kHugePage = std::size_t(2) << 20;

template <class T>
struct LargePageAllocator {
  using value_type = T;
  static constexpr std::size_t kLargeBytes = 2 * kHugePage;  // from here on: huge pages

  LargePageAllocator() = default;
  template <class U>
  LargePageAllocator(const LargePageAllocator<U>&) noexcept {}

  T* allocate(std::size_t n) {
    const std::size_t bytes = n * sizeof(T);
    if (bytes < kLargeBytes) return std::allocator<T>().allocate(n);
    const std::size_t rounded = (bytes + kHugePage - 1) / kHugePage * kHugePage;
    void* p = std::aligned_alloc(kHugePage, rounded);
    if (p == nullptr) throw std::bad_alloc();
    madvise(p, rounded, MADV_HUGEPAGE);  // advice only: without THP the pages stay small
    return static_cast<T*>(p);
  }
  void deallocate(T* p, std::size_t n) noexcept {
    if (n * sizeof(T) < kLargeBytes)
      std::allocator<T>().deallocate(p, n);
    else
      std::free(p);
  }
  template <class U>
  bool operator==(const LargePageAllocator<U>&) const noexcept {
    return true;
  }
  template <class U>
  bool operator!=(const LargePageAllocator<U>&) const noexcept {
    return false;
  }
};

template <class T, class Base = LargePageAllocator<T>>
struct DefaultInitAllocator : Base {
  using Base::Base;
  DefaultInitAllocator() = default;
  template <class U>
  struct rebind {
    using other =
        DefaultInitAllocator<U, typename std::allocator_traits<Base>::template rebind_alloc<U>>;
  };
  template <class U>
  void construct(U* p) {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    std::allocator_traits<Base>::construct(static_cast<Base&>(*this), p,
                                           std::forward<Args>(args)...);
  }
};

// A std::vector, except that resize(n) does not zero: for arrays every element of which is
// written next (maps, prepared atoms).
template <class T>
using DefaultInitVector = std::vector<T, DefaultInitAllocator<T>>;

template <class T>
using MapValues = DefaultInitVector<T>;

}  // namespace kmol
