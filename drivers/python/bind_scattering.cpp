// kmol.Scattering and kmol.scattering: Debye intensities accumulated over frames, the job
// `kmol scattering` runs (drivers/library/scattering_job.hpp).
#include <pybind11/stl.h>

#include <memory>
#include <optional>

#include "drivers/library/scattering_job.hpp"
#include "drivers/library/scattering_solution.hpp"
#include "drivers/python/common.hpp"

namespace kmol::python {
namespace {

ScatteringNames python_names() {
  ScatteringNames n;
  n.q_min = "q_min", n.q_max = "q_max", n.q_bins = "q_bins", n.bin_width = "bin_width";
  n.accuracy = "accuracy", n.d2o = "d2o", n.element = "elements", n.r_max = "r_max";
  n.element_hint = "elements (one symbol per atom, e.g. ['O', 'H', 'H'])";
  return n;
}

std::vector<Vec3<double>> points(const py::handle& object) {
  const Coordinates<double> c = coordinates<double>(object, "xyz");
  return std::vector<Vec3<double>>(c.data(), c.data() + c.size());
}

std::vector<std::string> strings(const py::handle& object) {
  return object.is_none() ? std::vector<std::string>{} : object.cast<std::vector<std::string>>();
}

class ScatteringAccumulator {
 public:
  ScatteringAccumulator(py::object elements, py::object names, py::object resnames,
                        std::string probe, double d2o, double q_min, double q_max,
                        std::int32_t q_bins, double bin_width, double accuracy, double r_max,
                        std::string impl, std::string device)
      : device_(std::move(device)) {
    settings_.names = python_names();
    if (probe != "xray" && probe != "neutron") bad_input("probe", "'xray' or 'neutron'");
    if (impl != "histogram" && impl != "direct") bad_input("impl", "'histogram' or 'direct'");
    settings_.probe = probe == "neutron" ? Probe::neutron : Probe::xray;
    settings_.d2o = d2o, settings_.q_min = q_min, settings_.q_max = q_max;
    settings_.q_bins = q_bins, settings_.bin_width = bin_width, settings_.accuracy = accuracy;
    settings_.r_max = r_max;
    check_settings(settings_);
    atoms_.elements = strings(elements);
    atoms_.names = strings(names);
    atoms_.resnames = strings(resnames);
    atoms_.source = "";
    impl_ = impl == "direct" ? ScatteringImpl::direct : ScatteringImpl::histogram;
    use_gpu(device_);
  }

  void add_frame(py::object xyz, py::object box) {
    const auto frame = points(xyz);
    const BoxSpec spec = box_from(box);
    if (!job_) job_.emplace(settings_, atoms_, std::vector<std::string>{}, frame, spec, impl_);
    without_gil([&] {
      on_device(device_, [&](const auto& space) { job_->add_frame(space, frame, spec); });
      return true;
    });
    result_.reset();
  }

  const ScatteringResult& result() {
    if (!job_) bad_input("add_frame", "a frame added before the result is read");
    if (!result_) result_ = job_->result();
    return *result_;
  }
  const ScatteringJob& job() {
    result();
    return *job_;
  }
  std::int64_t frames() const { return job_ ? job_->frames() : 0; }

 private:
  ScatteringSettings settings_;
  AtomIdentity atoms_;
  ScatteringImpl impl_ = ScatteringImpl::histogram;
  std::string device_;
  std::optional<ScatteringJob> job_;
  std::optional<ScatteringResult> result_;
};

// kmol.SolutionScattering: the excess intensity of a solute in solution over a pure solvent.
class SolutionAccumulator {
 public:
  SolutionAccumulator(py::object elements, py::object solute, py::object solvent_elements,
                      double radius, double shell, std::string probe, double d2o, double q_min,
                      double q_max, std::int32_t q_bins, double bin_width, double accuracy,
                      std::string device)
      : device_(std::move(device)) {
    ScatteringSettings settings;
    settings.names = python_names();
    if (probe != "xray" && probe != "neutron") bad_input("probe", "'xray' or 'neutron'");
    settings.probe = probe == "neutron" ? Probe::neutron : Probe::xray;
    settings.d2o = d2o, settings.q_min = q_min, settings.q_max = q_max;
    settings.q_bins = q_bins, settings.bin_width = bin_width, settings.accuracy = accuracy;
    if (radius != 0 && shell != 0) bad_input("shell", "0 when radius is given (one volume)");
    ObservationVolume volume;
    volume.shape = shell != 0 ? VolumeShape::shell : VolumeShape::sphere;
    volume.size = shell != 0 ? shell : radius;
    SolutionNames names;
    names.radius = "radius", names.shell = "shell", names.solute = "solute";
    names.solvent = "solvent_elements";
    job_ = std::make_unique<SolutionScattering>(settings, volume, names);
    solution_.elements = strings(elements);
    solvent_.elements = strings(solvent_elements);
    solute_ = solute.cast<std::vector<std::int64_t>>();
    use_gpu(device_);
  }

  void add_solution_frame(py::object xyz, py::object box) {
    const auto frame = points(xyz);
    const BoxSpec spec = box_from(box);
    if (!job_->solution_started()) job_->start_solution(solution_, {}, solute_, frame, spec);
    without_gil([&] {
      on_device(device_, [&](const auto& space) { job_->add_solution_frame(space, frame, spec); });
      return true;
    });
    result_.reset();
  }

  void add_solvent_frame(py::object xyz, py::object box) {
    const auto frame = points(xyz);
    const BoxSpec spec = box_from(box);
    if (!job_->solvent_started()) job_->start_solvent(solvent_, {}, frame, spec);
    without_gil([&] {
      on_device(device_, [&](const auto& space) { job_->add_solvent_frame(space, frame, spec); });
      return true;
    });
    result_.reset();
  }

  const ScatteringResult& result() {
    if (!result_) result_ = job_->result();
    return *result_;
  }
  const SolutionScattering& job() const { return *job_; }

 private:
  std::string device_;
  AtomIdentity solution_, solvent_;
  std::vector<std::int64_t> solute_;
  std::unique_ptr<SolutionScattering> job_;
  std::optional<ScatteringResult> result_;
};

py::array vector_array(std::vector<double> v) {
  const auto n = py::ssize_t(v.size());
  return adopt(std::move(v), {n});
}

py::array table_array(std::vector<double> v, std::size_t rows) {
  const auto r = py::ssize_t(rows), c = py::ssize_t(rows ? v.size() / rows : 0);
  return adopt(std::move(v), {r, c});
}

py::dict guinier_dict(const GuinierFit& g) {
  py::dict d;
  d["ok"] = g.ok;
  d["i0"] = g.i0;
  d["rg"] = g.rg;
  d["q_lo"] = g.q_lo;
  d["q_hi"] = g.q_hi;
  d["points"] = g.points;
  d["why"] = g.why;
  return d;
}

const char* const scattering_doc = R"(Scattering intensity I(q) by Debye's equation, over frames.

Scattering(elements=None, names=None, resnames=None, probe='xray', d2o=0, q_min=0, q_max=0.5,
q_bins=101, bin_width=0, accuracy=1e-4, r_max=0, impl='histogram', device='auto'); call
add_frame(xyz, box=None) per frame ((n, 3) Angstrom; box as for pair_histogram: None is a solute
in vacuum, a box a periodic system), then read q (1/Angstrom), intensity (e^2 or fm^2; per atom
for a periodic system), sigma (standard error over frames), error (the discretisation error's
estimate), partial ([type pair][q]) with pairs, types, guinier (dict: ok, i0, rg, q_lo, q_hi,
points), and for periodic systems structure_factor, faber_ziman, ashcroft_langreth.
Elements come from elements (symbols), else names and resnames (PDB atom names); d2o deuterates
exchangeable hydrogens (neutron). The same job as `kmol scattering` (docs/scattering.md).)";

const char* const solution_doc =
    R"(Excess intensity of a solute in solution (Koefinger & Hummer 2013).

SolutionScattering(elements, solute, solvent_elements, *, radius=0, shell=0, probe='xray', d2o=0,
q_min=0, q_max=0.5, q_bins=101, bin_width=0, accuracy=1e-4, device='auto'): elements of the
solution's atoms, solute (indices of its atoms), solvent_elements of a pure-solvent run's atoms.
The observation volume: a sphere of radius `radius` about the solute's centre (default: the
solute's extent plus 10 Angstrom), or with shell=d the solute and every atom within d of a solute
atom. add_solution_frame(xyz, box) per solution frame, then add_solvent_frame(xyz, box) per solvent
frame (boxes required); with a shell each solvent frame is cut by the next solution frame's shape,
and at least as many solvent frames as solution frames are needed (repeat them). Then q,
intensity (Delta I = <|A_solution - A_U|^2> - <|A_solvent - A_U|^2>, A_U the volume filled with
uniform solvent), sigma, error, guinier, frames, solvent_frames.)";

}  // namespace

void bind_scattering(py::module_& m) {
  py::class_<ScatteringAccumulator>(m, "Scattering", scattering_doc)
      .def(py::init<py::object, py::object, py::object, std::string, double, double, double,
                    std::int32_t, double, double, double, std::string, std::string>(),
           py::arg("elements") = py::none(), py::arg("names") = py::none(),
           py::arg("resnames") = py::none(), py::kw_only(), py::arg("probe") = "xray",
           py::arg("d2o") = 0.0, py::arg("q_min") = 0.0, py::arg("q_max") = 0.5,
           py::arg("q_bins") = 101, py::arg("bin_width") = 0.0, py::arg("accuracy") = 1e-4,
           py::arg("r_max") = 0.0, py::arg("impl") = "histogram", py::arg("device") = "auto")
      .def("add_frame", &ScatteringAccumulator::add_frame, py::arg("xyz"),
           py::arg("box") = py::none(), "Adds one frame (GIL released).")
      .def_property_readonly("frames", &ScatteringAccumulator::frames)
      .def_property_readonly("q",
                             [](ScatteringAccumulator& s) { return vector_array(s.result().q); })
      .def_property_readonly(
          "intensity", [](ScatteringAccumulator& s) { return vector_array(s.result().intensity); })
      .def_property_readonly(
          "sigma", [](ScatteringAccumulator& s) { return vector_array(s.result().sigma); })
      .def_property_readonly(
          "error", [](ScatteringAccumulator& s) { return vector_array(s.result().error); })
      .def_property_readonly("partial",
                             [](ScatteringAccumulator& s) {
                               const auto& r = s.result();
                               return table_array(r.partial, r.pair_names.size());
                             })
      .def_property_readonly("pairs",
                             [](ScatteringAccumulator& s) { return s.result().pair_names; })
      .def_property_readonly("types",
                             [](ScatteringAccumulator& s) { return s.job().types().names; })
      .def_property_readonly(
          "guinier", [](ScatteringAccumulator& s) { return guinier_dict(s.result().guinier); })
      .def_property_readonly(
          "structure_factor",
          [](ScatteringAccumulator& s) { return vector_array(s.result().structure.total); })
      .def_property_readonly("faber_ziman",
                             [](ScatteringAccumulator& s) {
                               const auto& r = s.result();
                               return table_array(r.structure.faber_ziman, r.pair_names.size());
                             })
      .def_property_readonly("ashcroft_langreth", [](ScatteringAccumulator& s) {
        const auto& r = s.result();
        return table_array(r.structure.ashcroft_langreth, r.pair_names.size());
      });
  py::class_<SolutionAccumulator>(m, "SolutionScattering", solution_doc)
      .def(py::init<py::object, py::object, py::object, double, double, std::string, double, double,
                    double, std::int32_t, double, double, std::string>(),
           py::arg("elements"), py::arg("solute"), py::arg("solvent_elements"), py::kw_only(),
           py::arg("radius") = 0.0, py::arg("shell") = 0.0, py::arg("probe") = "xray",
           py::arg("d2o") = 0.0, py::arg("q_min") = 0.0, py::arg("q_max") = 0.5,
           py::arg("q_bins") = 101, py::arg("bin_width") = 0.0, py::arg("accuracy") = 1e-4,
           py::arg("device") = "auto")
      .def("add_solution_frame", &SolutionAccumulator::add_solution_frame, py::arg("xyz"),
           py::arg("box"), "Adds one frame of the solution (GIL released).")
      .def("add_solvent_frame", &SolutionAccumulator::add_solvent_frame, py::arg("xyz"),
           py::arg("box"), "Adds one frame of the pure solvent (GIL released).")
      .def_property_readonly("frames",
                             [](SolutionAccumulator& s) { return s.job().solution_frames(); })
      .def_property_readonly("solvent_frames",
                             [](SolutionAccumulator& s) { return s.job().solvent_frames(); })
      .def_property_readonly("radius", [](SolutionAccumulator& s) { return s.job().volume().size; })
      .def_property_readonly("q", [](SolutionAccumulator& s) { return vector_array(s.result().q); })
      .def_property_readonly(
          "intensity", [](SolutionAccumulator& s) { return vector_array(s.result().intensity); })
      .def_property_readonly("sigma",
                             [](SolutionAccumulator& s) { return vector_array(s.result().sigma); })
      .def_property_readonly("error",
                             [](SolutionAccumulator& s) { return vector_array(s.result().error); })
      .def_property_readonly(
          "guinier", [](SolutionAccumulator& s) { return guinier_dict(s.result().guinier); });
  m.def(
      "scattering",
      [](py::object xyz, py::object box, py::object elements, py::object names, py::object resnames,
         std::string probe, double d2o, double q_min, double q_max, std::int32_t q_bins,
         double bin_width, double accuracy, double r_max, std::string impl, std::string device) {
        auto s = std::make_unique<ScatteringAccumulator>(elements, names, resnames, probe, d2o,
                                                         q_min, q_max, q_bins, bin_width, accuracy,
                                                         r_max, impl, device);
        s->add_frame(xyz, box);
        return s;
      },
      py::arg("xyz"), py::arg("box") = py::none(), py::kw_only(), py::arg("elements") = py::none(),
      py::arg("names") = py::none(), py::arg("resnames") = py::none(), py::arg("probe") = "xray",
      py::arg("d2o") = 0.0, py::arg("q_min") = 0.0, py::arg("q_max") = 0.5, py::arg("q_bins") = 101,
      py::arg("bin_width") = 0.0, py::arg("accuracy") = 1e-4, py::arg("r_max") = 0.0,
      py::arg("impl") = "histogram", py::arg("device") = "auto",
      "One frame's kmol.Scattering: scattering(xyz, box=None, elements=..., ...) (its keywords).");
}

}  // namespace kmol::python
