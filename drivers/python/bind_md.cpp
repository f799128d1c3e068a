// kmol.MD: Lennard-Jones molecular dynamics (reduced units) that Python steps, with an analysis
// callback every few steps.
#include <pybind11/functional.h>
#include <pybind11/stl.h>

#include <cmath>
#include <memory>

#include "drivers/python/common.hpp"
#include "kernels/md/md.hpp"

namespace kmol::python {
namespace {

// One simulation whatever its execution space and precision.
class Engine {
 public:
  virtual ~Engine() = default;
  virtual void run(std::int64_t steps) = 0;
  virtual MdThermo thermo() const = 0;
  virtual MdState state() const = 0;
  virtual std::vector<Vec3<double>> forces() const = 0;
  virtual std::string impl() const = 0;
  virtual std::string launch() const = 0;
  virtual std::int64_t list_builds() const = 0;
};

template <class Space, class T>
class EngineOn final : public Engine {
 public:
  EngineOn(const Space& space, const MdState& start, const MdSettings& s) : md_(space, start, s) {}
  void run(std::int64_t steps) override { md_.run(steps); }
  MdThermo thermo() const override { return md_.thermo(); }
  MdState state() const override { return md_.state(); }
  std::vector<Vec3<double>> forces() const override { return md_.forces(); }
  std::string impl() const override { return to_string(md_.impl()); }
  std::string launch() const override { return md_.launch(); }
  std::int64_t list_builds() const override { return md_.list_builds(); }

 private:
  MdSimulation<Space, T> md_;
};

py::array vectors(std::vector<Vec3<double>> v) {
  const auto n = py::ssize_t(v.size());
  return adopt<double>(std::move(v), {n, 3});
}

// As the engine's own limit (kernels/md/validation.cpp), checked before the lattice is built.
constexpr double most_atoms = double(std::int64_t(1) << 30);

// FCC cells per axis: three integers of at least 1, at most 2^30 atoms in all.
std::array<int, 3> cells_from(const py::handle& object) {
  const py::array raw = as_array<py::array>(object);
  if (!raw || (raw.dtype().kind() != 'i' && raw.dtype().kind() != 'u'))
    bad_input("cells", "three integer cell counts (nx, ny, nz)");
  const auto n = values<std::int64_t>(raw, "cells", 3);
  double atoms = 4;
  for (int d = 0; d < 3; ++d) {
    if (n.at(d) < 1) bad_input("cells", "at least one cell along each axis");
    atoms *= double(n.at(d));
  }
  if (atoms > most_atoms) bad_input("cells", "at most 2^30 atoms (4 per cell)");
  return {int(n.at(0)), int(n.at(1)), int(n.at(2))};
}

class Md : public HoldsKokkosMemory {
 public:
  Md(py::object positions, py::object box, py::object velocities, std::int64_t atoms,
     py::object cells, double density, double temperature, std::int64_t seed, double dt,
     double cutoff, double skin, const std::string& thermostat, double coupling,
     const std::string& impl, const std::string& device, const std::string& precision) {
    MdSettings s;
    s.cutoff = cutoff;
    s.skin = skin;
    s.dt = dt;
    s.thermostat = thermostat_from_string(thermostat);
    s.temperature = temperature;
    s.coupling = coupling;
    s.seed = seed;
    set_md_force(s, impl);
    ensure_started();  // the starting velocities come from Kokkos' rand48
    MdState start;
    if (positions.is_none()) {
      if (!box.is_none() || !velocities.is_none()) bad_input("positions", "positions with box");
      std::array<int, 3> n{};
      if (cells.is_none()) {
        if (atoms < 4) bad_input("atoms", "at least 4 atoms (one FCC cell)");
        if (double(atoms) > most_atoms) bad_input("atoms", "at most 2^30 atoms");
        const int k = fcc_cells_per_side(atoms);
        n = {k, k, k};
      } else {
        n = cells_from(cells);
      }
      start = fcc_lattice(n, density);
      maxwell_boltzmann(start, temperature, seed);
    } else {
      const Coordinates<double> xyz = coordinates<double>(positions, "positions");
      start.positions.assign(xyz.data(), xyz.data() + xyz.size());
      const BoxSpec b = box_from(box);
      if (b.kind != BoxKind::orthorhombic) bad_input("box", "an orthorhombic box (3 lengths)");
      start.box = {b.edges[0].x, b.edges[1].y, b.edges[2].z};
      if (velocities.is_none()) {
        maxwell_boltzmann(start, temperature, seed);
      } else {
        const Coordinates<double> v = coordinates<double>(velocities, "velocities");
        if (v.size() != xyz.size()) bad_input("velocities", "one velocity per atom");
        start.velocities.assign(v.data(), v.data() + v.size());
      }
    }
    if (precision != "single" && precision != "double")
      bad_input("precision", "'single' or 'double', not '" + precision + "'");
    engine_ = on_device(device, [&](const auto& space) -> std::unique_ptr<Engine> {
      using Space = std::decay_t<decltype(space)>;
      if (precision == "double") return std::make_unique<EngineOn<Space, double>>(space, start, s);
      return std::make_unique<EngineOn<Space, float>>(space, start, s);
    });
    // Overlapping atoms have infinite forces: every later step would be NaN.
    const MdThermo t = engine_->thermo();
    if (!std::isfinite(t.potential) || !std::isfinite(t.pressure))
      bad_input("positions",
                "atoms apart (the starting forces are not finite; overlapping atoms?)");
  }

  void release() override { engine_.reset(); }

  // Runs `steps` steps; with a callback, calls it with this object after every `every` steps
  // (and after the last), holding the GIL only for the callback.
  void run(std::int64_t steps, std::int64_t every, const py::object& callback, py::object self) {
    if (steps < 0) bad_input("steps", "a non-negative number of steps");
    if (callback.is_none()) {
      without_gil([&] { engine().run(steps); });
      return;
    }
    if (every < 1) bad_input("every", "at least 1 step between callbacks");
    for (std::int64_t done = 0; done < steps;) {
      const std::int64_t chunk = std::min(every, steps - done);
      without_gil([&] { engine().run(chunk); });
      done += chunk;
      callback(self);
    }
  }

  Engine& engine() const {
    if (!engine_) throw UnsupportedError("kmol.MD: kmol has stopped (the interpreter is exiting)");
    return *engine_;
  }

 private:
  std::unique_ptr<Engine> engine_;
};

py::dict thermo_of(const MdThermo& t) {
  py::dict d;
  d["step"] = t.step;
  d["time"] = t.time;
  d["temperature"] = t.temperature;
  d["potential"] = t.potential;
  d["kinetic"] = t.kinetic;
  d["total"] = t.total;
  d["pressure"] = t.pressure;
  d["momentum"] = py::make_tuple(t.momentum.x, t.momentum.y, t.momentum.z);
  return d;
}

}  // namespace

void bind_md(py::module_& m) {
  py::class_<Md>(m, "MD", R"(Lennard-Jones molecular dynamics in reduced units (as `kmol md`).

MD(positions=None, box=None, velocities=None, *, atoms=4000, cells=None, density=0.8442,
   temperature=0.72, seed=12345, dt=0.005, cutoff=2.5, skin=0.3, thermostat='none', coupling=1.0,
   impl='auto', device='auto', precision='single')
Without positions: an FCC crystal of about `atoms` atoms (or cells=(nx, ny, nz)) at `density`
(sigma^-3). With positions (n, 3) and box (3,) lengths (sigma): that configuration. Velocities
(sigma/tau) default to Maxwell-Boltzmann at `temperature` (epsilon/k_B) from rand48 seeded with
`seed`. thermostat: 'none' (NVE), 'andersen' or 'langevin' (coupling per tau). impl: 'auto',
'all_pairs', 'cuda', 'cells', 'neighbour' (full lists; 'neighbour_half' or 'neighbour_full' name
the list too), 'host' or 'cpu'.
Forces are evaluated on construction; run(steps, every=0, callback=None) advances, calling
callback(md) every `every` steps (the GIL is released while the engine runs).)")
      .def(py::init<py::object, py::object, py::object, std::int64_t, py::object, double, double,
                    std::int64_t, double, double, double, const std::string&, double,
                    const std::string&, const std::string&, const std::string&>(),
           py::arg("positions") = py::none(), py::arg("box") = py::none(),
           py::arg("velocities") = py::none(), py::kw_only(), py::arg("atoms") = 4000,
           py::arg("cells") = py::none(), py::arg("density") = 0.8442,
           py::arg("temperature") = 0.72, py::arg("seed") = 12345, py::arg("dt") = 0.005,
           py::arg("cutoff") = 2.5, py::arg("skin") = 0.3, py::arg("thermostat") = "none",
           py::arg("coupling") = 1.0, py::arg("impl") = "auto", py::arg("device") = "auto",
           py::arg("precision") = "single")
      .def(
          "run",
          [](py::object self, std::int64_t steps, std::int64_t every, py::object callback) {
            self.cast<Md&>().run(steps, every, callback, self);
          },
          py::arg("steps"), py::arg("every") = 0, py::arg("callback") = py::none(),
          "Advances `steps` steps; callback(md) after every `every` steps when given.")
      .def_property_readonly(
          "thermo", [](const Md& md) { return thermo_of(md.engine().thermo()); },
          "step, time (tau), temperature, potential, kinetic and total energy "
          "per atom (epsilon), pressure, momentum.")
      .def_property_readonly(
          "positions", [](const Md& md) { return vectors(md.engine().state().positions); },
          "(n, 3) positions wrapped into the box (sigma).")
      .def_property_readonly(
          "velocities", [](const Md& md) { return vectors(md.engine().state().velocities); },
          "(n, 3) velocities (sigma/tau).")
      .def_property_readonly(
          "forces", [](const Md& md) { return vectors(md.engine().forces()); },
          "(n, 3) forces (epsilon/sigma).")
      .def_property_readonly(
          "box",
          [](const Md& md) {
            const Vec3<double> b = md.engine().state().box;
            return py::array_t<double>(3, &b.x);
          },
          "Box edge lengths (sigma).")
      .def_property_readonly("step", [](const Md& md) { return md.engine().thermo().step; })
      .def_property_readonly("time", [](const Md& md) { return md.engine().thermo().time; })
      .def_property_readonly("impl", [](const Md& md) { return md.engine().impl(); })
      .def_property_readonly("launch", [](const Md& md) { return md.engine().launch(); })
      .def_property_readonly("list_builds", [](const Md& md) { return md.engine().list_builds(); });
}

}  // namespace kmol::python
