// kmol.Rand48: glibc's rand48 sequence as numpy arrays, generated in parallel and continuing from
// call to call exactly as repeated lrand48()/mrand48()/drand48() calls would.
#include "drivers/python/common.hpp"
#include "kernels/rng/rand48_fill.hpp"

namespace kmol::python {
namespace {

class Stream {
 public:
  Stream(std::int64_t seed, std::string device)
      : state_(rand48_seed_state(seed)), device_(std::move(device)) {
    use_gpu(device_);
  }

  py::array next(const std::string& kind_name, std::int64_t count) {
    if (count < 0) bad_input("n", "a non-negative count");
    const Rand48Kind kind = rand48_kind_from_string(kind_name);
    // Twice: the device's values and their host copy.
    require_memory(double(count), 2.0 * (kind == Rand48Kind::drand48 ? 8 : 4), "n");
    return kind == Rand48Kind::drand48 ? generate<double>(kind, count)
                                       : generate<std::int32_t>(kind, count);
  }

  std::uint64_t state() const { return state_; }

 private:
  template <class T>
  py::array generate(Rand48Kind kind, std::int64_t count) {
    std::vector<T> values = without_gil([&] {
      return on_device(device_, [&](const auto& space) { return fill<T>(space, kind, count); });
    });
    return adopt(std::move(values), {count});
  }

  template <class T, class Space>
  std::vector<T> fill(const Space& space, Rand48Kind kind, std::int64_t count) {
    Kokkos::View<T*, typename Space::memory_space> values(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("kmol::rand48")), count);
    state_ = rand48_fill(space, state_, kind, values).state_after;
    std::vector<T> host(static_cast<std::size_t>(count));
    Kokkos::deep_copy(space, Kokkos::View<T*, Kokkos::HostSpace>(host.data(), host.size()), values);
    space.fence();
    return host;
  }

  std::uint64_t state_;
  std::string device_;
};

}  // namespace

void bind_rand48(py::module_& m) {
  py::class_<Stream>(m, "Rand48", R"(glibc's rand48 generator after srand48(seed), in parallel.

Rand48(seed=0, device='auto'); lrand48(n) (int32 in [0, 2^31)), mrand48(n) (int32) and drand48(n)
(float64 in [0, 1)) return the next n numbers of the one sequence, exactly what n calls of the C
function would return; `state` is the 48-bit state after them.)")
      .def(py::init<std::int64_t, std::string>(), py::arg("seed") = 0, py::arg("device") = "auto")
      .def(
          "lrand48", [](Stream& s, std::int64_t n) { return s.next("lrand48", n); }, py::arg("n"))
      .def(
          "mrand48", [](Stream& s, std::int64_t n) { return s.next("mrand48", n); }, py::arg("n"))
      .def(
          "drand48", [](Stream& s, std::int64_t n) { return s.next("drand48", n); }, py::arg("n"))
      .def_property_readonly("state", &Stream::state);
}

}  // namespace kmol::python
