#pragma once
// The one way kmol makes an empty Kokkos View: kmol never default-constructs a View
// (docs/architecture.md, "Kokkos Views"), because with the mdspan-based View of Kokkos 4.7 and
// later, g++ 12 builds a default-constructed View whose destructor dereferences a null allocation
// record. An empty View made from a null pointer is the same empty View on every Kokkos version:
// no allocation, no label, data() == nullptr, extents 0, callable in device code.
#include <Kokkos_Core.hpp>

#include <cstddef>
#include <utility>

namespace kmol {
namespace empty_view_detail {

template <class View, std::size_t... Dynamic>
KOKKOS_INLINE_FUNCTION View empty_of(std::index_sequence<Dynamic...>) {
  return View(typename View::pointer_type(nullptr),
              (static_cast<void>(Dynamic), std::size_t(0))...);
}

}  // namespace empty_view_detail

// A View of type View with every run-time extent 0, owning nothing; assign a labelled View to it
// when there is something to hold.
template <class View>
KOKKOS_INLINE_FUNCTION View empty_view() {
  static_assert(Kokkos::is_view<View>::value, "empty_view makes a Kokkos::View");
  return empty_view_detail::empty_of<View>(
      std::make_index_sequence<std::size_t(View::rank_dynamic)>());
}

}  // namespace kmol
