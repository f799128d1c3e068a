#include "drivers/python/common.hpp"

#include <signal.h>

#include <cmath>
#include <limits>
#include <set>

#include "kmol/core/cell.hpp"
#include "kmol/core/preflight.hpp"

namespace kmol::python {

namespace {
PyObject* empty_result_warning = nullptr;
}  // namespace

void register_warnings(py::module_& m) {
  empty_result_warning = PyErr_NewExceptionWithDoc(
      "kmol.EmptyResultWarning", "A result with no pair in range, kept because allow_empty=True.",
      PyExc_UserWarning, nullptr);
  m.attr("EmptyResultWarning") = py::handle(empty_result_warning);
}

void warn_empty_result(const std::string& message) {
  if (PyErr_WarnEx(empty_result_warning, message.c_str(), 1) < 0) throw py::error_already_set();
}

void bad_input(const std::string& field, const std::string& expected) {
  throw InputError({"", field, -1}, "expected " + expected);
}

const std::string& path_arg(const std::string& path, const std::string& name) {
  if (path.find('\0') != std::string::npos) bad_input(name, "a path without NUL characters");
  return path;
}

void require_real(const py::handle& object, const std::string& name) {
  // Lists and scalars as numpy reads them, to see what they hold.
  const py::array array = py::isinstance<py::array>(object)
                              ? py::reinterpret_borrow<py::array>(object)
                              : as_array<py::array>(object);
  if (!array) return;  // not array-like: the conversion that follows refuses it
  const char kind = array.dtype().kind();
  if (kind == 'f' || kind == 'i' || kind == 'u' || kind == 'O') return;
  const std::string what = kind == 'c'   ? "complex"
                           : kind == 'b' ? "bool"
                                         : "dtype " + std::string(py::str(array.dtype()));
  bad_input(name, "real numbers, not " + what + " values");
}

void require_memory(double values, double value_bytes, const std::string& name) {
  const double bytes = values * value_bytes, available = available_memory_bytes();
  const double limit = available > 0 ? available : 0.5 * std::numeric_limits<double>::max();
  if (!(bytes <= limit))
    throw ResourceError({"", name, -1}, "the result needs " + human_bytes(bytes) +
                                            ", more than the " + human_bytes(available) +
                                            " of memory available");
}

py::array_t<std::int32_t, py::array::c_style | py::array::forcecast> labels(
    const py::handle& object, const std::string& name, std::int64_t n) {
  const py::array raw = py::isinstance<py::array>(object)
                            ? py::reinterpret_borrow<py::array>(object)
                            : as_array<py::array>(object);
  if (!raw) bad_input(name, "integer labels");
  const char kind = raw.dtype().kind();
  if (kind != 'i' && kind != 'u')
    bad_input(name, "integer labels, not dtype " + std::string(py::str(raw.dtype())));
  const auto wide = values<std::int64_t>(raw, name, n);
  for (py::ssize_t i = 0; i < wide.shape(0); ++i)
    if (wide.data()[i] != std::int32_t(wide.data()[i]))
      bad_input(name, "labels that fit in 32 bits, not " + std::to_string(wide.data()[i]) +
                          " at [" + std::to_string(i) + "]");
  return values<std::int32_t>(wide, name, n);
}

namespace {

// The SIGINT disposition a CancelOnInterrupt replaced, and how many are open (nested calls, a
// callback calling kmol again, keep the outermost one's).
struct sigaction python_interrupt {};
int open_cancels = 0;

void cancel_on_signal(int signal) { request_cancel(signal); }

bool on_main_thread() {
  const auto threading = py::module_::import("threading");
  return threading.attr("current_thread")().is(threading.attr("main_thread")());
}

}  // namespace

CancelOnInterrupt::CancelOnInterrupt() {
  if (!on_main_thread()) return;
  if (open_cancels > 0) {
    ++open_cancels;
    installed_ = true;
    return;
  }
  struct sigaction current {};
  if (sigaction(SIGINT, nullptr, &current) != 0 || current.sa_handler == SIG_IGN ||
      current.sa_handler == SIG_DFL)
    return;
  clear_cancel();
  struct sigaction cancel {};
  cancel.sa_handler = cancel_on_signal;
  sigemptyset(&cancel.sa_mask);
  cancel.sa_flags = SA_RESTART;
  if (sigaction(SIGINT, &cancel, &python_interrupt) != 0) return;
  ++open_cancels;
  installed_ = true;
}

void CancelOnInterrupt::restore() noexcept {
  if (!installed_) return;
  installed_ = false;
  if (--open_cancels == 0) sigaction(SIGINT, &python_interrupt, nullptr);
}

CancelOnInterrupt::~CancelOnInterrupt() {
  const bool outermost = installed_ && open_cancels == 1;
  restore();
  // Unwinding with an error of its own: the interrupt still reaches Python, at its next check.
  if (outermost && cancel_requested()) {
    clear_cancel();
    PyErr_SetInterruptEx(SIGINT);
  }
}

void CancelOnInterrupt::deliver() {
  const bool outermost = installed_ && open_cancels == 1;
  restore();
  if (!outermost || !cancel_requested()) return;  // another call's cancel: its caller delivers
  clear_cancel();
  // Python's handler decides; a program's own handler that returns still loses the result.
  PyErr_SetInterruptEx(SIGINT);
  if (PyErr_CheckSignals() != 0) throw py::error_already_set();
  PyErr_SetNone(PyExc_KeyboardInterrupt);
  throw py::error_already_set();
}

BoxSpec box_from(const py::handle& object) {
  if (object.is_none()) return BoxSpec::none();
  auto a = as_array<py::array_t<double, py::array::c_style | py::array::forcecast>>(object);
  if (!a) bad_input("box", "None, (3,) lengths, (3, 3) edge vectors or (6,) dimensions");
  const double* v = a.data();
  if (a.ndim() == 1 && a.shape(0) == 3) return BoxSpec::orthorhombic(v[0], v[1], v[2]);
  // Edge vectors along the axes are an orthorhombic box, as the command reads such a file's box.
  if (a.ndim() == 2 && a.shape(0) == 3 && a.shape(1) == 3 && v[1] == 0 && v[2] == 0 && v[3] == 0 &&
      v[5] == 0 && v[6] == 0 && v[7] == 0)
    return BoxSpec::orthorhombic(v[0], v[4], v[8]);
  if (a.ndim() == 2 && a.shape(0) == 3 && a.shape(1) == 3)
    return BoxSpec::triclinic({v[0], v[1], v[2]}, {v[3], v[4], v[5]}, {v[6], v[7], v[8]});
  if (a.ndim() == 1 && a.shape(0) == 6) return box_from_cell(v[0], v[1], v[2], v[3], v[4], v[5]);
  bad_input("box",
            "None, (3,) lengths, (3, 3) edge vectors or (6,) dimensions [a b c alpha beta "
            "gamma]");
}

py::object box_to_python(const BoxSpec& box) {
  if (box.kind == BoxKind::none) return py::none();
  py::array_t<double> edges({3, 3});
  auto e = edges.mutable_unchecked<2>();
  for (int i = 0; i < 3; ++i) {
    e(i, 0) = box.edges[i].x;
    e(i, 1) = box.edges[i].y;
    e(i, 2) = box.edges[i].z;
  }
  return std::move(edges);
}

namespace {

Vec3<double> origin_from(const py::handle& origin) {
  auto o = values<double>(origin, "origin", 3);
  return {o.at(0), o.at(1), o.at(2)};
}

std::array<std::int64_t, 3> counts_from(const py::handle& counts) {
  const py::array raw_counts = as_array<py::array>(counts);
  if (!raw_counts || (raw_counts.dtype().kind() != 'i' && raw_counts.dtype().kind() != 'u'))
    bad_input("counts", "3 integer counts");
  auto n = values<std::int64_t>(raw_counts, "counts", 3);
  for (int d = 0; d < 3; ++d)
    if (n.at(d) < 1) bad_input("counts", "at least one point along each axis");
  // Every map holds at least 4 bytes a point; the product is taken in doubles, which cannot wrap.
  require_memory(double(n.at(0)) * double(n.at(1)) * double(n.at(2)), 4, "counts");
  return {n.at(0), n.at(1), n.at(2)};
}

}  // namespace

Grid grid_from(const py::handle& origin, const py::handle& spacing, const py::handle& counts) {
  Grid grid;
  grid.origin = origin_from(origin);
  require_real(spacing, "spacing");
  auto h = as_array<py::array_t<double, py::array::forcecast>>(spacing);
  if (!h || !(h.size() == 1 || h.size() == 3)) bad_input("spacing", "a scalar or 3 spacings");
  for (int d = 0; d < 3; ++d) grid.spacing[d] = h.data()[h.size() == 1 ? 0 : d];
  for (int d = 0; d < 3; ++d)
    if (!(grid.spacing[d] > 0 && std::isfinite(grid.spacing[d])))
      bad_input("spacing", "positive finite spacings (Angstrom)");
  grid.counts = counts_from(counts);
  return grid;
}

LatticeRequest lattice_request(double spacing, double padding, const py::handle& origin,
                               const py::handle& counts) {
  LatticeRequest request{spacing, padding, {}, {}};
  if (!origin.is_none()) {
    const Vec3<double> o = origin_from(origin);
    request.origin = {o.x, o.y, o.z};
  }
  if (!counts.is_none()) {
    const auto n = counts_from(counts);
    request.counts.assign(n.begin(), n.end());
  }
  return request;
}

MapRun map_run(const std::string& device) {
  MapRun run;
  run.device = device_policy_from_string(device, python_device);
  run.device_option = python_device;
  run.progress = false;
  return run;
}

Precision precision_from(const std::string& name, const py::handle& like) {
  if (name == "single") return Precision::single;
  if (name == "double") return Precision::double_;
  if (name != "auto") bad_input("precision", "'auto', 'single' or 'double', not '" + name + "'");
  const auto array = as_array<py::array>(like);
  return array && array.dtype().is(py::dtype::of<float>()) ? Precision::single : Precision::double_;
}

bool use_gpu(const std::string& device) {
  return plan_devices(device_policy_from_string(device, python_device), python_device).gpu;
}

namespace {

std::set<HoldsKokkosMemory*>& kokkos_memory_holders() {
  static std::set<HoldsKokkosMemory*> alive;
  return alive;
}

}  // namespace

HoldsKokkosMemory::HoldsKokkosMemory() { kokkos_memory_holders().insert(this); }
HoldsKokkosMemory::~HoldsKokkosMemory() { kokkos_memory_holders().erase(this); }

void HoldsKokkosMemory::release_all() {
  for (HoldsKokkosMemory* holder : kokkos_memory_holders()) holder->release();
}

}  // namespace kmol::python
