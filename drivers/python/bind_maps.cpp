// Maps on lattices: electrostatic potentials, Gaussian densities, their isosurfaces and the
// cross-correlation of two maps. Every map comes back as a kmol.Map with its grid.
#include <fmt/core.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cmath>
#include <optional>

#include "drivers/library/elements.hpp"
#include "drivers/library/map_output.hpp"
#include "drivers/python/common.hpp"
#include "kernels/correlation/correlation.hpp"
#include "kernels/coulomb/coulomb.hpp"
#include "kernels/density/density.hpp"
#include "kernels/surface/surface.hpp"
#include "kmol/core/io/mrc.hpp"
#include "kmol/core/io/pqr.hpp"
#include "kmol/core/map_check.hpp"

namespace kmol::python {

namespace {

// The values of `map` as one float32 array in kmol's order (i fastest), converted when needed.
py::array_t<float, py::array::f_style | py::array::forcecast> map_values(const py::handle& values,
                                                                         const Grid& grid,
                                                                         const std::string& name) {
  require_real(values, name);
  auto a = as_array<py::array_t<float, py::array::f_style | py::array::forcecast>>(values);
  if (!a || a.ndim() != 3) bad_input(name, "an (nx, ny, nz) array of map values");
  // After the conversion, so values beyond float32 are caught as the infinities they became.
  for (py::ssize_t i = 0; i < a.size(); ++i)
    if (!std::isfinite(a.data()[i]))
      bad_input(name, "finite map values (as float32), not " + std::to_string(a.data()[i]));
  for (int d = 0; d < 3; ++d)
    if (a.shape(d) != grid.counts[d])
      bad_input(name, "values of shape (" + std::to_string(grid.counts[0]) + ", " +
                          std::to_string(grid.counts[1]) + ", " + std::to_string(grid.counts[2]) +
                          ") to match the grid");
  return a;
}

// A kmol.Map, or values with origin and spacing, as float32 values and their grid.
struct MapIn {
  Grid grid;
  py::array_t<float, py::array::f_style | py::array::forcecast> values;
};

MapIn map_in(const py::object& map, const py::object& origin, const py::object& spacing,
             const std::string& name) {
  if (py::isinstance<MapOut>(map)) {
    const auto& m = map.cast<const MapOut&>();
    return {m.grid, map_values(m.values, m.grid, name)};
  }
  const auto a = as_array<py::array>(map);
  if (!a || a.ndim() != 3) bad_input(name, "a kmol.Map or an (nx, ny, nz) array");
  if (origin.is_none() || spacing.is_none())
    bad_input("origin", "origin and spacing with an array");
  const Grid grid = grid_from(origin, spacing, py::make_tuple(a.shape(0), a.shape(1), a.shape(2)));
  return {grid, map_values(a, grid, name)};
}

template <class T>
MapOut potential_in(const py::object& positions, const py::object& charges, const py::object& radii,
                    CoulombSettings s, const LatticeRequest& lattice, const std::string& device) {
  const Coordinates<T> xyz = coordinates<T>(positions, "positions");
  if (xyz.size() == 0) bad_input("positions", "at least one atom");
  const auto q = values<T>(charges, "charges", xyz.size());
  py::array_t<T, py::array::c_style | py::array::forcecast> r;
  if (!radii.is_none()) r = values<T>(radii, "radii", xyz.size());
  if (s.method == CoulombMethod::mdh && radii.is_none()) bad_input("radii", "radii for mdh");
  const MapNames names = python_map_names();
  Coordinates<double> exact;  // the atoms a lattice is placed around, in double
  if (lattice.origin.empty()) exact = coordinates<double>(positions, "positions");
  s.lattice = map_lattice(lattice, {exact.data(), xyz.size(), nullptr, ""}, names);
  // The map where it is computed and its host copy.
  require_memory(double(s.lattice.points()), 2.0 * sizeof(T),
                 lattice.counts.empty() ? names.spacing : names.counts);
  const CoulombInput<T> in{xyz.data(), q.data(), radii.is_none() ? nullptr : r.data(), xyz.size()};
  PotentialMap<T> map = without_gil([&] { return potential_map(in, s, map_run(device)); });
  check_map(map.lattice, map.values.data(), potential_expectation("", names));
  return map_of(adopt_map(std::move(map.values), map.lattice.counts), map.lattice,
                to_string(map.impl_used), map.launch, to_string(map.units));
}

MapOut potential(py::object positions, py::object charges, py::object radii,
                 const std::string& method, double spacing, double padding, py::object origin,
                 py::object counts, double cutoff, double ionic_strength, double temperature,
                 double dielectric, bool faces_only, bool compensated, const std::string& units,
                 const std::string& impl, const std::string& device, const std::string& precision) {
  CoulombSettings s;
  s.method = coulomb_method_from_string(method);
  s.impl = coulomb_impl_from_string(impl);
  s.units = potential_units_from_string(units);
  s.ionic_strength = ionic_strength;
  s.temperature = temperature;
  s.cutoff = cutoff;
  s.dielectric = dielectric;
  s.faces_only = faces_only;
  s.compensated = compensated;
  const LatticeRequest lattice = lattice_request(spacing, padding, origin, counts);
  const Precision p = precision_from(precision, positions);
  return p == Precision::single
             ? potential_in<float>(positions, charges, radii, s, lattice, device)
             : potential_in<double>(positions, charges, radii, s, lattice, device);
}

// Atom radii as `kmol surf` takes them: the given radii, where a radius is 0 (PQR files give
// some hydrogens none) the radius of the atom's element; without radii every atom's element
// radius; `radius` for atoms with neither (no elements, an element kmol does not tabulate).
std::vector<float> density_radii(const py::object& radii, const py::object& elements, double radius,
                                 std::int64_t n) {
  if (!(radius > 0 && std::isfinite(radius)))
    bad_input("radius", "a positive radius (Angstrom) for atoms without one");
  std::vector<std::string> symbols;
  if (!elements.is_none()) {
    if (py::isinstance<py::str>(elements))
      bad_input("elements", "one element symbol per atom, not a string");
    symbols = elements.cast<std::vector<std::string>>();
    if (std::int64_t(symbols.size()) != n)
      bad_input("elements", "one element per atom (" + std::to_string(n) + "), not " +
                                std::to_string(symbols.size()));
  }
  std::vector<float> out(static_cast<std::size_t>(n), static_cast<float>(radius));
  py::array_t<float, py::array::c_style | py::array::forcecast> given;
  if (!radii.is_none()) given = values<float>(radii, "radii", n);
  for (std::int64_t a = 0; a < n; ++a) {
    const float r = radii.is_none() ? 0.0f : given.data()[a];
    if (r != 0)
      out[std::size_t(a)] = r;
    else if (!symbols.empty())
      out[std::size_t(a)] = float(element_radius(symbols[std::size_t(a)], radius));
    else if (!radii.is_none())
      bad_input("radii", "positive radii: atom " + std::to_string(a) +
                             " has radius 0 (give elements=, as kmol.open and read_pqr give "
                             "them, to take their radii as kmol surf does)");
  }
  return out;
}

MapOut density(py::object positions, py::object radii, py::object elements, double radius,
               py::object weights, py::object spacing, double padding, py::object origin,
               py::object counts, double scale, double threshold, const std::string& storage,
               double memory_budget, const std::string& impl, const std::string& device) {
  const Coordinates<float> xyz = coordinates<float>(positions, "positions");
  if (xyz.size() == 0) bad_input("positions", "at least one atom");
  const std::vector<float> r = density_radii(radii, elements, radius, xyz.size());
  py::array_t<float, py::array::c_style | py::array::forcecast> heights;
  if (!weights.is_none()) heights = values<float>(weights, "weights", xyz.size());
  DensitySettings s;
  s.scale = scale;
  s.threshold = threshold;
  s.memory_budget = memory_budget;
  if (storage != "float" && storage != "half") bad_input("storage", "'float' or 'half'");
  s.storage = storage == "half" ? DensityStorage::half : DensityStorage::single;
  s.impl = density_impl_from_string(impl);
  if (!(scale > 0)) bad_input("scale", "a positive scale");
  if (!(threshold > 0 && threshold < 1)) bad_input("threshold", "a threshold in (0, 1)");
  if (origin.is_none() != counts.is_none()) bad_input("origin", "origin and counts together");
  if (!origin.is_none()) {
    s.grid = grid_from(origin, spacing, counts);
  } else {
    require_real(spacing, "spacing");
    const auto h = as_array<py::array>(spacing);
    if (!h || h.ndim() != 0)
      bad_input("spacing", "one spacing for a lattice around the atoms (3 with origin and counts)");
    const double step = py::float_(spacing);
    if (!(step > 0 && std::isfinite(step)))
      bad_input("spacing", "a positive lattice spacing (Angstrom)");
    const float widest = *std::max_element(r.begin(), r.end());
    // As kmol surf: room for the widest Gaussian and two lattice steps, so surfaces close.
    const double margin =
        padding >= 0 ? padding : density_cut_radius(scale * widest, threshold) + 2 * step;
    s.grid = density_grid_around(xyz.data(), xyz.size(), step, margin);
  }
  const DensityInput in{xyz.data(), r.data(), xyz.size(),
                        weights.is_none() ? nullptr : heights.data()};
  DensityMap map = without_gil([&] {
    return on_device(device, [&](const auto& space) { return gaussian_density(space, in, s); });
  });
  const MapExpectation expect =
      density_expectation("", s.storage == DensityStorage::half, python_map_names());
  if (s.storage == DensityStorage::half)
    check_half_map(map.grid, map.half_values.data(), expect);
  else
    check_map(map.grid, map.values.data(), expect);
  // Half maps are binary16 bits, which numpy reads as float16.
  py::array values = s.storage == DensityStorage::half
                         ? adopt_map(std::move(map.half_values), map.grid.counts)
                               .attr("view")(py::dtype("float16"))
                         : adopt_map(std::move(map.values), map.grid.counts);
  return map_of(values, map.grid, to_string(map.impl_used), map.launch, "density");
}

struct MeshOut {
  py::array vertices, normals, faces;
  double area = 0, volume = 0;
  std::int64_t open_edges = 0;
};

MeshOut isosurface(py::object map, double iso, py::object origin, py::object spacing,
                   const std::string& device, bool allow_empty) {
  if (!std::isfinite(iso)) bad_input("iso", "a finite iso value");
  const MapIn in = map_in(map, origin, spacing, "map");
  SurfaceMesh mesh = without_gil([&] {
    return on_device(device, [&](const auto& space) {
      return marching_cubes(space, in.grid, in.values.data(), float(iso));
    });
  });
  MeshOut out;
  const MeshMeasures measures = measure_mesh(mesh);
  out.area = measures.area;
  out.volume = measures.volume;
  out.open_edges = open_edges(mesh);
  const std::string fault = mesh_fault(mesh, measures, out.open_edges);
  if (!fault.empty() && !allow_empty)
    bad_input("iso", "an iso value whose surface is not empty or degenerate: the isosurface " +
                         std::to_string(iso) + " " + fault + " (allow_empty=True returns it)");
  const auto n = py::ssize_t(mesh.positions.size()), t = py::ssize_t(mesh.triangles.size());
  out.vertices = adopt<float>(std::move(mesh.positions), {n, 3});
  out.normals = adopt<float>(std::move(mesh.normals), {n, 3});
  out.faces = adopt<std::int32_t>(std::move(mesh.triangles), {t, 3});
  return out;
}

// The mesh as kmol's writers take it: its arrays checked (they are numpy arrays a caller may have
// changed in place), faces within the vertices.
SurfaceMesh surface_of(const MeshOut& m) {
  const Coordinates<float> v = coordinates<float>(m.vertices, "vertices");
  const Coordinates<float> n = coordinates<float>(m.normals, "normals");
  if (n.size() != v.size()) bad_input("normals", "one normal per vertex");
  const auto f =
      as_array<py::array_t<std::int32_t, py::array::c_style | py::array::forcecast>>(m.faces);
  if (!f || f.ndim() != 2 || f.shape(1) != 3)
    bad_input("faces", "a (t, 3) array of vertex indices");
  SurfaceMesh mesh;
  mesh.positions.assign(v.data(), v.data() + v.size());
  mesh.normals.assign(n.data(), n.data() + n.size());
  mesh.triangles.resize(std::size_t(f.shape(0)));
  for (py::ssize_t t = 0; t < f.shape(0); ++t)
    for (int c = 0; c < 3; ++c) {
      const std::int32_t index = f.at(t, c);
      if (index < 0 || index >= v.size())
        bad_input("faces", "vertex indices below " + std::to_string(v.size()) + ", not " +
                               std::to_string(index) + " in face " + std::to_string(t));
      mesh.triangles[std::size_t(t)][std::size_t(c)] = index;
    }
  return mesh;
}

void write_mesh(const MeshOut& m, const std::string& path, bool obj) {
  const SurfaceMesh mesh = surface_of(m);
  path_arg(path, "path");
  without_gil([&] { obj ? write_obj(path, mesh, "path") : write_ply(path, mesh, "path"); });
}

std::string mesh_repr(const MeshOut& m) {
  return fmt::format(
      "<kmol.Mesh {} vertices, {} faces, area {:.6g} A^2, volume {:.6g} A^3, {}>",
      py::len(m.vertices), py::len(m.faces), m.area, m.volume,
      m.open_edges == 0 ? "closed" : fmt::format("open ({} boundary edges)", m.open_edges));
}

struct CorrelationOut {
  double global = 0;
  std::int64_t voxels = 0;
  MapOut local;
};

CorrelationOut correlate(py::object simulated, py::object reference, py::object threshold,
                         py::object origin, py::object spacing, const std::string& device) {
  const MapIn a = map_in(simulated, origin, spacing, "simulated");
  const MapIn b = map_in(reference, origin, spacing, "reference");
  for (int d = 0; d < 3; ++d)
    if (a.grid.counts[d] != b.grid.counts[d] || a.grid.spacing[d] != b.grid.spacing[d])
      bad_input("reference", "a map on the lattice of the simulated map");
  CorrelationSettings s;
  if (!threshold.is_none()) {
    const double value = py::float_(threshold);  // TypeError for what is not a number
    if (!std::isfinite(value)) bad_input("threshold", "a finite threshold, or None");
    s.threshold = value;
  }
  Correlation c = without_gil([&] {
    return on_device(device, [&](const auto& space) {
      return cross_correlation(space, a.grid, a.values.data(), b.values.data(), s);
    });
  });
  if (c.voxels == 0)
    bad_input("threshold", "a threshold below some reference values (no voxel is counted)");
  CorrelationOut out;
  out.global = c.global;
  out.voxels = c.voxels;
  out.local = map_of(adopt_map(std::move(c.local), c.tiles.counts), c.tiles, "", "", "cc");
  return out;
}

py::dict read_pqr(const std::string& path) {
  io::PqrAtoms atoms = io::read_pqr(path_arg(path, "path"));
  const auto n = py::ssize_t(atoms.size());
  py::dict d;
  d["positions"] = adopt<double>(std::move(atoms.positions), {n, 3});
  d["charges"] = adopt(std::move(atoms.charges), {n});
  d["radii"] = adopt(std::move(atoms.radii), {n});
  d["atom_names"] = atoms.atom_names;
  d["residue_names"] = atoms.residue_names;
  d["residue_ids"] = atoms.residue_ids;
  std::vector<std::string> elements;
  for (std::size_t a = 0; a < atoms.atom_names.size(); ++a)
    elements.push_back(element_of_trimmed_name(atoms.atom_names[a], atoms.residue_names[a]));
  d["elements"] = elements;
  return d;
}

MapOut read_map(const std::string& path) {
  const bool dx = path.size() > 3 && path.compare(path.size() - 3, 3, ".dx") == 0;
  io::ScalarMap map =
      dx ? io::read_opendx(path_arg(path, "path")) : io::read_mrc(path_arg(path, "path"));
  return map_of(adopt_map(std::move(map.values), map.grid.counts), map.grid, "", "", "");
}

void write_dx(const MapOut& map, const std::string& path, const std::string& title) {
  path_arg(path, "path");
  if (py::array_t<double>::check_(map.values)) {
    auto v = as_array<py::array_t<double, py::array::f_style | py::array::forcecast>>(map.values);
    io::write_opendx(path, map.grid, v.data(), title);
  } else {
    io::write_opendx(path, map.grid, map_values(map.values, map.grid, "values").data(), title);
  }
}

// The map in the format of the path's extension, through the library's map writer (the files
// the commands write): OpenDX, HDF5 (dataset `name`, float64 for float64 values, with the units)
// or MRC.
void write_map_file(const MapOut& map, const std::string& path, const std::string& name) {
  path_arg(path, "path");
  const auto ends_with = [&path](const std::string& tail) {
    return path.size() > tail.size() &&
           path.compare(path.size() - tail.size(), tail.size(), tail) == 0;
  };
  if (!(ends_with(".dx") || ends_with(".h5") || ends_with(".hdf5") || ends_with(".mrc") ||
        ends_with(".map") || ends_with(".ccp4")))
    bad_input("path",
              "a map file ending in .dx, .h5, .hdf5, .mrc, .map or .ccp4, not '" + path + "'");
  MapLabels labels{name, "", name, {}, {}};
  if (!map.units.empty()) labels.attributes.push_back({"units", map.units});
  if (py::array_t<double>::check_(map.values)) {
    auto v = as_array<py::array_t<double, py::array::f_style | py::array::forcecast>>(map.values);
    without_gil([&] { write_map(path, map.grid, v.data(), labels); });
  } else {
    const auto v = map_values(map.values, map.grid, "values");
    without_gil([&] { write_map(path, map.grid, v.data(), labels); });
  }
}

py::array vector_of(const Vec3<double>& v) { return py::array_t<double>(3, &v.x); }

std::string map_repr(const MapOut& m) {
  const Grid& g = m.grid;
  const bool cubic = g.spacing[0] == g.spacing[1] && g.spacing[1] == g.spacing[2];
  const std::string spacing =
      cubic ? fmt::format("{:.6g}", g.spacing[0])
            : fmt::format("({:.6g}, {:.6g}, {:.6g})", g.spacing[0], g.spacing[1], g.spacing[2]);
  std::string what = std::string(py::str(m.values.dtype()));
  if (!m.units.empty()) what += " " + m.units;
  std::string made = m.impl.empty() ? "" : ", impl " + m.impl;
  return fmt::format(
      "<kmol.Map {} x {} x {} {}, origin ({:.6g}, {:.6g}, {:.6g}) A, spacing {} A{}>", g.counts[0],
      g.counts[1], g.counts[2], what, g.origin.x, g.origin.y, g.origin.z, spacing, made);
}

std::string correlation_repr(const CorrelationOut& c) {
  const auto& t = c.local.grid.counts;
  return fmt::format(
      "<kmol.Correlation coefficient {:.6f} over {} voxels, local {} x {} x {} tiles>", c.global,
      c.voxels, t[0], t[1], t[2]);
}

}  // namespace

void bind_maps(py::module_& m) {
  py::class_<MapOut>(m, "Map", R"(A scalar map on a regular lattice.

values[i, j, k] (numpy, shape (nx, ny, nz)) is the value at origin + (i, j, k) * spacing; origin
and spacing are in Angstrom; impl and launch say what computed it, units what the values are in.)")
      .def_readonly("values", &MapOut::values)
      .def_property_readonly("origin", [](const MapOut& m) { return vector_of(m.grid.origin); })
      .def_property_readonly(
          "spacing", [](const MapOut& m) { return py::array_t<double>(3, m.grid.spacing.data()); })
      .def_property_readonly("counts", [](const MapOut& m) { return m.grid.counts; })
      .def_readonly("impl", &MapOut::impl)
      .def_readonly("launch", &MapOut::launch)
      .def_readonly("units", &MapOut::units)
      .def(
          "axis",
          [](const MapOut& m, int d) {
            if (d < 0 || d > 2) bad_input("axis", "0, 1 or 2");
            std::vector<double> x(std::size_t(m.grid.counts[d]));
            const double o = (&m.grid.origin.x)[d];
            for (std::size_t i = 0; i < x.size(); ++i) x[i] = o + double(i) * m.grid.spacing[d];
            const auto n = py::ssize_t(x.size());
            return adopt(std::move(x), {n});
          },
          py::arg("axis"), "Coordinates of the lattice points along axis 0, 1 or 2 (Angstrom).")
      .def("write", &write_map_file, py::arg("path"), py::arg("name") = "map",
           "Writes the map as the commands write theirs, the format by the path's extension: "
           ".dx (OpenDX), .h5/.hdf5 (dataset `name` of shape (nx, ny, nz) with origin, delta and "
           "units attributes; float64 values stay float64) or .mrc/.map/.ccp4 (MRC2014, float32), "
           "through a temporary file renamed at the end.")
      .def("write_dx", &write_dx, py::arg("path"), py::arg("title") = "map",
           "Writes the map as OpenDX (APBS' dialect) through a temporary file.")
      .def("__repr__", &map_repr);

  m.def("potential", &potential, py::arg("positions"), py::arg("charges"),
        py::arg("radii") = py::none(), py::kw_only(), py::arg("method") = "direct",
        py::arg("spacing") = 0.5, py::arg("padding") = 10.0, py::arg("origin") = py::none(),
        py::arg("counts") = py::none(), py::arg("cutoff") = 12.0, py::arg("ionic_strength") = 0.15,
        py::arg("temperature") = 298.15, py::arg("dielectric") = 0.0, py::arg("faces_only") = false,
        py::arg("compensated") = false, py::arg("units") = "kT/e", py::arg("impl") = "auto",
        py::arg("device") = "auto", py::arg("precision") = "auto",
        R"(Electrostatic potential map of point charges (as `kmol potential`).

positions: (n, 3) Angstrom; charges: (n,) e; radii: (n,) Angstrom (method 'mdh' only).
method: 'direct' (Coulomb), 'cutoff' (NAMD shifting at cutoff, Angstrom) or 'mdh' (APBS' multiple
Debye-Hueckel at ionic_strength mol/L, temperature K). dielectric: relative permittivity (0: 1, or
78.54 for mdh). The lattice: spacing (Angstrom) around the atoms with padding (Angstrom), or given
by origin (3,) and counts (3,). units: 'kT/e', 'V' or 'kcal/mol/e'. impl: 'auto', 'kokkos', 'host'
or 'cuda'; precision: 'auto' (dtype of positions), 'single' or 'double'. Returns a kmol.Map.)");
  m.def(
      "density", &density, py::arg("positions"), py::arg("radii") = py::none(), py::kw_only(),
      py::arg("elements") = py::none(), py::arg("radius") = 1.5, py::arg("weights") = py::none(),
      py::arg("spacing") = 1.0, py::arg("padding") = -1.0, py::arg("origin") = py::none(),
      py::arg("counts") = py::none(), py::arg("scale") = 1.0, py::arg("threshold") = 0.01,
      py::arg("storage") = "float", py::arg("memory_budget") = 0.0, py::arg("impl") = "auto",
      py::arg("device") = "auto",
      R"(Gaussian density map (QuickSurf's model, as `kmol surf` and the simulated map of `kmol cc`).

rho(r) = sum_i w_i exp(-|r - r_i|^2 / (2 (scale radius_i)^2)), each Gaussian cut below threshold
(of its peak). positions: (n, 3) Angstrom (computed in float32). radii: (n,) Angstrom; an atom of
radius 0 (PQR files give some hydrogens none) takes its element's (Bondi's) radius, as kmol surf
does; radii=None: every atom's element radius. elements: (n,) element symbols (kmol.open's and
read_pqr's elements); radius: Angstrom, for atoms with neither radius nor known element (as
--radius). weights: (n,) heights w_i of the Gaussians (None: 1; masses give kmol cc --weight mass).
The lattice: spacing (Angstrom) around the atoms with padding (Angstrom; negative: the widest cut
radius plus two spacings), or origin (3,) and counts (3,) with spacing a scalar or (3,) (a map's
lattice: origin=m.origin, counts=m.counts, spacing=m.spacing). storage: 'float' or 'half' (float16
values). memory_budget: device bytes before the map is computed in slabs (0: three quarters of the
GPU's free memory, 4 GB on CPUs). impl: 'auto', 'kokkos' or 'cuda'. Returns a kmol.Map.)");

  py::class_<MeshOut>(m, "Mesh", R"(A triangle mesh from marching cubes.

vertices and normals: (n, 3) float32 (Angstrom; unit outward normals); faces: (t, 3) int32 vertex
indices, counter-clockwise seen from outside; area (Angstrom^2), volume (Angstrom^3, enclosed),
open_edges (0 for a closed surface).)")
      .def_readonly("vertices", &MeshOut::vertices)
      .def_readonly("normals", &MeshOut::normals)
      .def_readonly("faces", &MeshOut::faces)
      .def_readonly("area", &MeshOut::area)
      .def_readonly("volume", &MeshOut::volume)
      .def_readonly("open_edges", &MeshOut::open_edges)
      .def(
          "write_ply",
          [](const MeshOut& m, const std::string& path) { write_mesh(m, path, false); },
          py::arg("path"),
          "Writes the mesh as binary little-endian PLY (positions, normals, faces), the bytes "
          "`kmol surf --mesh x.ply` writes, through a temporary file renamed at the end.")
      .def(
          "write_obj", [](const MeshOut& m, const std::string& path) { write_mesh(m, path, true); },
          py::arg("path"),
          "Writes the mesh as Wavefront OBJ (v, vn, f), the bytes `kmol surf --mesh x.obj` "
          "writes, through a temporary file renamed at the end.")
      .def("__repr__", &mesh_repr);
  m.def("marching_cubes", &isosurface, py::arg("map"), py::arg("iso"), py::kw_only(),
        py::arg("origin") = py::none(), py::arg("spacing") = py::none(), py::arg("device") = "auto",
        py::arg("allow_empty") = false,
        R"(Isosurface at `iso` of a kmol.Map, or of an (nx, ny, nz) array with origin and spacing
(Angstrom); values above iso are inside. Values are read as float32. Returns a kmol.Mesh.
A mesh with no triangles, zero area or a closed surface enclosing no volume raises ValueError
unless allow_empty is true.)");

  py::class_<CorrelationOut>(
      m, "Correlation",
      "coefficient: Pearson coefficient (global) over the counted voxels; voxels: how "
      "many; local: kmol.Map of the coefficient on 8^3 tiles.")
      .def_readonly("coefficient", &CorrelationOut::global)
      .def_readonly("voxels", &CorrelationOut::voxels)
      .def_readonly("local", &CorrelationOut::local)
      .def("__repr__", &correlation_repr);
  m.def(
      "cross_correlation", &correlate, py::arg("simulated"), py::arg("reference"), py::kw_only(),
      py::arg("threshold") = py::none(), py::arg("origin") = py::none(),
      py::arg("spacing") = py::none(), py::arg("device") = "auto",
      R"(Cross-correlation of two maps on one lattice (kmol.Map or arrays with origin and spacing):
the global Pearson coefficient and local ones on 8^3 tiles. threshold: count only
voxels whose reference value exceeds it. Values are read as float32. Returns kmol.Correlation.)");

  m.def("read_pqr", &read_pqr, py::arg("path"),
        "A PQR file's atoms: positions (n, 3) Angstrom, charges (e), radii (Angstrom) as the file "
        "gives them, atom_names, residue_names, residue_ids and elements (as kmol tells them).");
  m.def("read_map", &read_map, py::arg("path"),
        "An OpenDX (.dx) or MRC/CCP4 map as a kmol.Map (float32 values).");
}

}  // namespace kmol::python
