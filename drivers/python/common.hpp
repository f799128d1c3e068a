#pragma once
// What every binding of the Python module shares: numpy arrays in and out, the device and precision
// options the command line has, boxes, and running a kernel without the GIL.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <Kokkos_Core.hpp>

#include <array>
#include <cmath>
#include <cstdint>
#include <exception>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "drivers/library/device_policy.hpp"
#include "drivers/library/map_job.hpp"
#include "kmol/core/box.hpp"
#include "kmol/core/cancel.hpp"
#include "kmol/core/errors.hpp"
#include "kmol/core/io/opendx.hpp"
#include "kmol/core/precision.hpp"
#include "kmol/core/runtime.hpp"
#include "kmol/core/vec3.hpp"

namespace kmol::python {

namespace py = pybind11;

[[noreturn]] void bad_input(const std::string& field, const std::string& expected);

// A file path as given, refused when it holds a NUL character (the C library would cut it there).
const std::string& path_arg(const std::string& path, const std::string& name);

// Refuses values numpy would convert to reals silently or lossily: complex (the imaginary part
// dropped), bool (True read as 1), text, dates. Integers and reals pass.
void require_real(const py::handle& object, const std::string& name);

// Refuses a result of `values` values of `value_bytes` each that could not fit in this machine's
// memory, before anything is allocated (ValueError naming `name`, not a failed allocation).
void require_memory(double values, double value_bytes, const std::string& name);

// Array::ensure(object) (py::array or a py::array_t), except that only the conversion's own
// failure (an Exception: not array-like, a bad value) gives a null array. pybind11's ensure clears
// every error, and numpy's conversion runs Python's signal handlers: a Ctrl-C that arrived while
// the arguments were read would be dropped with the KeyboardInterrupt they raised.
template <class Array>
Array as_array(const py::handle& object) {
  try {
    return Array(py::reinterpret_borrow<py::object>(object));
  } catch (py::error_already_set& e) {
    if (!e.matches(PyExc_Exception)) throw;
    return py::reinterpret_steal<Array>(py::handle());
  }
}

// Coordinates as (n, 3) reals of type T. A C-contiguous array of that dtype is used in place (the
// caller's memory, no copy); anything else (other dtype, strides, nested lists) is converted once.
template <class T>
struct Coordinates {
  py::array_t<T, py::array::c_style | py::array::forcecast> array;
  const Vec3<T>* data() const { return reinterpret_cast<const Vec3<T>*>(array.data()); }
  std::int64_t size() const { return std::int64_t(array.shape(0)); }
};

template <class T>
Coordinates<T> coordinates(const py::handle& object, const std::string& name) {
  if (object.is_none()) bad_input(name, "an (n, 3) array of coordinates, not None");
  require_real(object, name);
  auto array = as_array<py::array_t<T, py::array::c_style | py::array::forcecast>>(object);
  if (!array) bad_input(name, "an (n, 3) array of real coordinates");
  if (array.ndim() != 2 || array.shape(1) != 3)
    bad_input(name, "an (n, 3) array of coordinates, not shape " +
                        std::string(py::str(py::tuple(py::cast(std::vector<py::ssize_t>(
                            array.shape(), array.shape() + array.ndim()))))));
  return {std::move(array)};
}

// A one-dimensional array of n values of type T (n < 0: any length), converted when needed.
template <class T>
py::array_t<T, py::array::c_style | py::array::forcecast> values(const py::handle& object,
                                                                 const std::string& name,
                                                                 std::int64_t n) {
  if constexpr (std::is_floating_point_v<T>) require_real(object, name);
  auto array = as_array<py::array_t<T, py::array::c_style | py::array::forcecast>>(object);
  if (!array || array.ndim() != 1) bad_input(name, "a one-dimensional array");
  if (n >= 0 && array.shape(0) != n)
    bad_input(name, "one value per atom (" + std::to_string(n) + "), not " +
                        std::to_string(array.shape(0)));
  if constexpr (std::is_floating_point_v<T>)
    for (py::ssize_t i = 0; i < array.shape(0); ++i)
      if (!std::isfinite(array.data()[i]))
        bad_input(name, "finite values, not " + std::to_string(array.data()[i]) + " at [" +
                            std::to_string(i) + "]");
  return array;
}

// One integer label per atom (n < 0: any length) as int32: integer dtypes only, since a cast
// would truncate 0.5 or wrap 2^32 into another label silently.
py::array_t<std::int32_t, py::array::c_style | py::array::forcecast> labels(
    const py::handle& object, const std::string& name, std::int64_t n);

// A numpy array of Scalar that owns `v` (moved, not copied), shaped as given; strides in bytes
// (empty: C order). Scalar defaults to the vector's element; vectors of Vec3 or std::array give
// their components (shape (n, 3)).
template <class Scalar = void, class Vector>
py::array adopt(Vector&& v, std::vector<py::ssize_t> shape, std::vector<py::ssize_t> strides = {}) {
  using V = std::decay_t<Vector>;
  using Value = std::conditional_t<std::is_void_v<Scalar>, typename V::value_type, Scalar>;
  auto* owner = new V(std::forward<Vector>(v));
  py::capsule release(owner, [](void* p) { delete static_cast<V*>(p); });
  return py::array_t<Value>(std::move(shape), std::move(strides),
                            reinterpret_cast<const Value*>(owner->data()), release);
}

// A lattice map as an (nx, ny, nz) array indexed [i, j, k] over kmol's memory (i fastest).
template <class Vector>
py::array adopt_map(Vector&& v, const std::array<std::int64_t, 3>& n) {
  using Value = typename std::decay_t<Vector>::value_type;
  const py::ssize_t s = sizeof(Value);
  return adopt(std::forward<Vector>(v), {n[0], n[1], n[2]}, {s, s * n[0], s * n[0] * n[1]});
}

// A box from None (no periodicity), (3,) edge lengths, (3, 3) edge vectors (rows) or MDAnalysis'
// (6,) dimensions [a, b, c, alpha, beta, gamma] (degrees).
BoxSpec box_from(const py::handle& object);
py::object box_to_python(const BoxSpec& box);

// A regular grid from origin (3,), spacing (scalar or (3,)) and counts (3,).
Grid grid_from(const py::handle& origin, const py::handle& spacing, const py::handle& counts);
// A map's lattice as the map job takes it: one spacing, padding, and origin and counts (None:
// placed around the atoms); their values checked as grid_from checks them.
LatticeRequest lattice_request(double spacing, double padding, const py::handle& origin,
                               const py::handle& counts);
// The map job's run on the device keyword's execution space (no bar: Python prints nothing).
MapRun map_run(const std::string& device);

// "single", "double", or "auto": the dtype of `like` (float32: single; anything else: double).
Precision precision_from(const std::string& name, const py::handle& like);

// The device keyword ("auto", "cpu" or "gpu") under kmol's one device policy.
inline const DeviceOption python_device{"device", true, false};

// Whether `device` means the GPU; UnsupportedError for "gpu" where there is none.
bool use_gpu(const std::string& device);

// Starts Kokkos if it has not started (at the first computation, with kmol.set_threads' count).
void ensure_started();

// Calls f with the execution space `device` names.
template <class F>
auto on_device(const std::string& device, F&& f) {
  ensure_started();
  return with_space(device, std::forward<F>(f), python_device);
}

// Ctrl-C during a call. Python runs its SIGINT handler only between bytecodes, so while a kernel
// runs without the GIL this object puts a handler in its place that requests kmol's cancel: long
// loops then stop within a second and throw Interrupted. deliver() (GIL held, after the work) puts
// Python's handler back and hands it the interrupt: KeyboardInterrupt unless the program set
// another. Installed on the main thread only, where Python receives signals, and only where Python
// handles SIGINT (not where the program ignores it).
class CancelOnInterrupt {
 public:
  CancelOnInterrupt();
  ~CancelOnInterrupt();
  CancelOnInterrupt(const CancelOnInterrupt&) = delete;
  CancelOnInterrupt& operator=(const CancelOnInterrupt&) = delete;
  // Throws py::error_already_set (KeyboardInterrupt) if a cancel came.
  void deliver();

 private:
  void restore() noexcept;
  bool installed_ = false;
};

// Runs f with the GIL released, so other Python threads (a trajectory reader) run meanwhile, and
// Ctrl-C cancelling it (CancelOnInterrupt). A cancelled f's Interrupted reaches Python as
// KeyboardInterrupt: through Python's handler where this call installed the cancel, else through
// the module's translation.
template <class F>
auto without_gil(F&& f) {
  using Result = decltype(f());
  ensure_started();  // kernels reached without on_device (the RDF job's) need Kokkos too
  // A Ctrl-C while the arguments were read (GIL held) is raised now, not after the work.
  if (PyErr_CheckSignals() != 0) throw py::error_already_set();
  CancelOnInterrupt cancel;
  std::exception_ptr stopped;
  std::optional<std::conditional_t<std::is_void_v<Result>, bool, Result>> result;
  {
    py::gil_scoped_release release;
    try {
      if constexpr (std::is_void_v<Result>) {
        f();
        result.emplace(true);
      } else {
        result.emplace(f());
      }
    } catch (const Interrupted&) {
      stopped = std::current_exception();
    }
  }
  cancel.deliver();
  if (stopped) std::rethrow_exception(stopped);
  if constexpr (!std::is_void_v<Result>) return std::move(*result);
}

// A scalar map (kmol.Map): values[i, j, k] at origin + (i, j, k) * spacing (Angstrom).
struct MapOut {
  py::array values;  // (nx, ny, nz), i fastest in memory
  Grid grid;
  std::string impl, launch, units;
};

inline MapOut map_of(py::array values, const Grid& grid, std::string impl, std::string launch,
                     std::string units) {
  return {std::move(values), grid, std::move(impl), std::move(launch), std::move(units)};
}

// Issues `message` as a kmol.EmptyResultWarning (a UserWarning); raises if warnings are errors.
void warn_empty_result(const std::string& message);
void register_warnings(py::module_& m);

// A Python object holding Kokkos memory (kmol.MD, kmol.SiteHistograms): registered while alive, so
// that the module frees that memory before Kokkos stops at exit (objects the interpreter still
// holds then are destroyed only after it).
class HoldsKokkosMemory {
 public:
  HoldsKokkosMemory(const HoldsKokkosMemory&) = delete;
  HoldsKokkosMemory& operator=(const HoldsKokkosMemory&) = delete;
  // Frees the memory; later calls on the object refuse.
  virtual void release() = 0;
  // Calls release() on every such object alive.
  static void release_all();

 protected:
  HoldsKokkosMemory();
  virtual ~HoldsKokkosMemory();
};

// Registration of each part of the module.
void bind_pair_histogram(py::module_& m);
void bind_maps(py::module_& m);
void bind_orbital(py::module_& m);
void bind_md(py::module_& m);
void bind_rand48(py::module_& m);
void bind_site_histogram(py::module_& m);
void bind_trajectory(py::module_& m);
void bind_scattering(py::module_& m);

}  // namespace kmol::python
