#pragma once
// An allocator whose resize() leaves new elements of trivial types uninitialised (default- rather
// than value-initialised), for output maps that an implementation overwrites whole: zeroing tens of
// MB first costs a pass over memory that can take longer than the GPU kernel filling them.
#include <memory>
#include <new>
#include <utility>
#include <vector>

namespace kmol {

template <class T, class Base = std::allocator<T>>
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
