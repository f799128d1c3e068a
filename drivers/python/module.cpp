// kmol's Python module: the kernels on numpy arrays. Kokkos starts at the first computation and
// stops when the interpreter exits; kmol's errors arrive as Python exceptions.
#include <pybind11/stl.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>

#include "drivers/python/common.hpp"
#include "kernels/registry.hpp"
#include "kmol/core/runtime_notes.hpp"

namespace kmol::python {
namespace {

// Kernels start Kokkos without the GIL: the first computations of two threads start it once.
std::mutex starting;
Runtime* runtime = nullptr;
int requested_threads =
    -1;  // kmol.set_threads before the start; -1: OMP_NUM_THREADS, else idle cores

void stop_kokkos() {
  HoldsKokkosMemory::release_all();
  delete runtime;
  runtime = nullptr;
}

// kmol.set_threads(n): the host threads Kokkos starts with. Kokkos keeps its thread count for the
// life of the process, so after the start only the count it runs is accepted.
void set_threads(int threads) {
  if (threads < 1) bad_input("threads", "at least 1 host thread, not " + std::to_string(threads));
  {
    const std::lock_guard<std::mutex> lock(starting);
    if (runtime == nullptr) {
      requested_threads = threads;
      return;
    }
  }
  if (threads != host_threads())
    throw UnsupportedError("set_threads(" + std::to_string(threads) + "): kmol runs " +
                           std::to_string(host_threads()) +
                           " host threads since its first computation, and Kokkos keeps them "
                           "for the life of the process: call kmol.set_threads before the first "
                           "computation (or kmol.info()), or set OMP_NUM_THREADS before starting "
                           "Python");
}

// The library words its messages for the command: "--ionic-strength" is the keyword
// ionic_strength here, "--rmax" is r_max.
std::string python_words(const std::string& message) {
  static const std::map<std::string, std::string> renamed{{"rmax", "r_max"}, {"rmin", "r_min"}};
  std::string out;
  for (std::size_t i = 0; i < message.size();) {
    const bool starts_word =
        i == 0 || std::string(" (`'\"[,").find(message[i - 1]) != std::string::npos;
    if (starts_word && message.compare(i, 2, "--") == 0 && i + 2 < message.size() &&
        std::islower(static_cast<unsigned char>(message[i + 2]))) {
      std::size_t end = i + 2;
      while (end < message.size() &&
             (std::isalnum(static_cast<unsigned char>(message[end])) || message[end] == '-'))
        ++end;
      std::string name = message.substr(i + 2, end - i - 2);
      for (char& c : name) c = c == '-' ? '_' : c;
      const auto found = renamed.find(name);
      out += found == renamed.end() ? name : found->second;
      i = end;
    } else {
      out += message[i++];
    }
  }
  return out;
}

py::dict info() {
  ensure_started();
  py::dict d;
  d["version"] = kmol_version();
  d["kokkos"] = kokkos_version();
  d["backends"] = enabled_backends();
  d["host_threads"] = host_threads();
  py::list gpus;
  for (const auto& g : gpu_devices()) {
    py::dict gpu;
    gpu["id"] = g.id;
    gpu["name"] = g.name;
    gpu["compute_capability"] = py::make_tuple(g.compute_major, g.compute_minor);
    gpu["multiprocessors"] = g.multiprocessors;
    gpu["memory_bytes"] = g.memory_bytes;
    gpus.append(gpu);
  }
  d["gpus"] = gpus;
  py::dict algorithms;
  for (const auto& a : algorithm_catalog()) {
    py::dict entry;
    entry["description"] = a.description;
    py::dict impls;
    for (const auto& impl : a.implementations) {
      py::dict i;
      i["supports"] = impl.supports;
      i["chosen_when"] = impl.chosen_when;
      impls[py::str(impl.name)] = i;
    }
    entry["implementations"] = impls;
    algorithms[py::str(a.name)] = entry;
  }
  d["algorithms"] = algorithms;
  return d;
}

}  // namespace

void ensure_started() {
  const std::lock_guard<std::mutex> lock(starting);
  if (runtime != nullptr) return;
  // Kokkos advises thread binding when OMP_PROC_BIND is unset; binding would pin the interpreter's
  // own thread (and a reader thread beside it) to one core, so the module leaves it off unless the
  // user chose otherwise.
  setenv("OMP_PROC_BIND", "false", 0);
  // The runtime's notes (fewer threads than cores, as other processes keep cores busy) on stderr,
  // as the command prints them, naming Python's way to choose.
  set_runtime_notes([](const std::string& note) {
    std::fprintf(stderr,
                 "kmol: note: %s (kmol.set_threads(n) before the first computation, or "
                 "OMP_NUM_THREADS, to choose)\n",
                 note.c_str());
  });
  RuntimeOptions options;
  options.host_threads = requested_threads;
  runtime = new Runtime(options);
}

}  // namespace kmol::python

PYBIND11_MODULE(_kmol, m) {
  using namespace kmol::python;
  m.doc() = "kmol's kernels on numpy arrays (lengths in Angstrom).";
  static py::exception<kmol::UnsupportedError> unsupported(m, "UnsupportedError",
                                                           PyExc_RuntimeError);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const kmol::InputError& e) {
      PyErr_SetString(PyExc_ValueError, python_words(e.what()).c_str());
    } catch (const kmol::UnsupportedError& e) {
      unsupported(python_words(e.what()).c_str());
    } catch (const kmol::Interrupted& e) {
      PyErr_SetString(PyExc_KeyboardInterrupt, e.what());
    }
  });
  // Kokkos starts at the first computation (ensure_started), so that set_threads can choose its
  // threads; it stops before the interpreter tears down modules, so no kernel or view outlives it.
  py::module_::import("atexit").attr("register")(py::cpp_function(&stop_kokkos));
  m.attr("__version__") = kmol::kmol_version();
  m.def("set_threads", &set_threads, py::arg("threads"),
        "Host threads kmol's kernels run on (as the command's --threads), before the first "
        "computation: Kokkos keeps the count it starts with. Default: OMP_NUM_THREADS, else one "
        "per core other processes leave idle.");
  m.def("info", &info,
        "What this build runs on: version, Kokkos version, backends, host threads, GPUs and the "
        "implementations of every algorithm with when each is chosen.");
  register_warnings(m);
  bind_pair_histogram(m);
  bind_site_histogram(m);
  bind_maps(m);
  bind_orbital(m);
  bind_md(m);
  bind_rand48(m);
  bind_trajectory(m);
  bind_scattering(m);
}
