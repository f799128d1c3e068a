// kmol.SiteHistograms: every atom pair's own distance histogram over frames, for the MDAnalysis
// drop-in's InterRDF_s (kernels/site_histogram).
#include <pybind11/stl.h>

#include <memory>

#include "drivers/python/common.hpp"
#include "kernels/site_histogram/site_histogram.hpp"

namespace kmol::python {
namespace {

using Indices = py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>;
using Counts = py::array_t<double, py::array::c_style>;

// The accumulator on one execution space and precision.
class Counter {
 public:
  virtual ~Counter() = default;
  virtual void add_frame(const py::handle& positions, const BoxSpec& box) = 0;
  virtual void finish() = 0;
};

template <class Space, class T>
class CounterOn : public Counter {
 public:
  CounterOn(const std::vector<SiteGroups>& requests, std::int64_t n, const SiteHistogramSettings& s,
            double* counts)
      : n_(n), histograms_(Space(), requests, n, s, counts) {}

  void add_frame(const py::handle& positions, const BoxSpec& box) override {
    const Coordinates<T> xyz = coordinates<T>(positions, "positions");
    if (xyz.size() != n_)
      bad_input("positions",
                std::to_string(n_) + " atoms, as at the start, not " + std::to_string(xyz.size()));
    without_gil([&] { histograms_.add_frame(xyz.data(), box); });
  }
  void finish() override {
    without_gil([&] { histograms_.finish(); });
  }

 private:
  std::int64_t n_;
  SiteHistograms<Space, T> histograms_;
};

class SiteAccumulator : public HoldsKokkosMemory {
 public:
  SiteAccumulator(const std::vector<std::pair<py::object, py::object>>& requests,
                  std::int64_t n_positions, double r_min, double r_max, std::int32_t bins,
                  py::object counts, const std::string& device, const std::string& precision)
      : counts_(std::move(counts)) {
    std::vector<SiteGroups> groups;
    for (const auto& [a, b] : requests) {
      const Indices ia = as_array<Indices>(a), ib = as_array<Indices>(b);
      if (!ia || !ib || ia.ndim() != 1 || ib.ndim() != 1)
        bad_input("requests", "pairs of one-dimensional integer index arrays");
      groups.push_back({{ia.data(), ia.data() + ia.size()}, {ib.data(), ib.data() + ib.size()}});
    }
    auto array = as_array<Counts>(counts_);
    if (!array || array.ndim() != 1 || !array.writeable() ||
        array.size() != site_histogram_size(groups, bins) || array.ptr() != counts_.ptr())
      bad_input("counts", "a writable C-contiguous float64 array of " +
                              std::to_string(site_histogram_size(groups, bins)) + " counts");
    double* data = array.mutable_data();
    const SiteHistogramSettings s{r_min, r_max, bins};
    const bool single = precision_from(precision, py::none()) == Precision::single;
    counter_ = on_device(device, [&](const auto& space) -> std::unique_ptr<Counter> {
      using Space = std::decay_t<decltype(space)>;
      if (single) return std::make_unique<CounterOn<Space, float>>(groups, n_positions, s, data);
      return std::make_unique<CounterOn<Space, double>>(groups, n_positions, s, data);
    });
  }

  void release() override { counter_.reset(); }

  void add_frame(const py::handle& positions, const py::handle& box) {
    counter().add_frame(positions, box_from(box));
  }
  void finish() { counter().finish(); }

 private:
  Counter& counter() {
    if (!counter_)
      throw UnsupportedError("kmol.SiteHistograms: kmol has stopped (the interpreter is exiting)");
    return *counter_;
  }

  py::object counts_;  // the caller's array, kept alive while counts are added into it
  std::unique_ptr<Counter> counter_;
};

}  // namespace

void bind_site_histogram(py::module_& m) {
  py::class_<SiteAccumulator>(m, "SiteHistograms",
                              R"(Every atom pair's own distance histogram, summed over frames.

SiteHistograms(requests, n_positions, r_min, r_max, bins, counts, device='auto',
precision='double'): requests, a list of (a, b) index arrays into each frame's n_positions
positions; counts, a float64 array of sum(len(a) len(b)) * bins values that the counts are added
into, request after request, each [i of a][j of b][bin]. add_frame(positions, box) counts one
frame in one pass over every requested pair (GIL released); finish() makes every count visible
in counts (a GPU keeps them until then). Pairs bin as kmol.pair_histogram bins them.)")
      .def(py::init<const std::vector<std::pair<py::object, py::object>>&, std::int64_t, double,
                    double, std::int32_t, py::object, std::string, std::string>(),
           py::arg("requests"), py::arg("n_positions"), py::arg("r_min"), py::arg("r_max"),
           py::arg("bins"), py::arg("counts"), py::arg("device") = "auto",
           py::arg("precision") = "double")
      .def("add_frame", &SiteAccumulator::add_frame, py::arg("positions"),
           py::arg("box") = py::none())
      .def("finish", &SiteAccumulator::finish);
}

}  // namespace kmol::python
