#include "drivers/library/map_output.hpp"

#include <fmt/core.h>
#include <fmt/os.h>
#include <hdf5.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <type_traits>

#include "drivers/library/atomic_write.hpp"
#include "drivers/library/elements.hpp"
#include "drivers/library/plot_script.hpp"
#include "drivers/library/potential_hdf5.hpp"
#include "drivers/library/structure_frames.hpp"
#include "kernels/density/half.hpp"
#include "kmol/core/errors.hpp"
#include "kmol/core/io/hdf5_handle.hpp"
#include "kmol/core/io/mrc.hpp"
#include "kmol/core/io/pqr.hpp"
#include "kmol/core/io/topology.hpp"
#include "kmol/core/io/trajectory_reader.hpp"
#include "kmol/core/stop.hpp"

namespace kmol {
namespace {

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// IEEE binary16 as HDF5 1.10 describes it (the layout numpy's float16 and h5py use).
io::Hid half_type() {
  io::Hid t(H5Tcopy(H5T_IEEE_F32LE));
  H5Tset_fields(t.get(), 15, 10, 5, 0, 10);
  H5Tset_size(t.get(), 2);
  H5Tset_ebias(t.get(), 15);
  return t;
}

template <class V>
void write_hdf5(const std::string& path, const Grid& grid, const V* values,
                const MapLabels& labels) {
  io::Hid half16 = half_type();
  hid_t stored = H5T_IEEE_F32LE, memory = H5T_NATIVE_FLOAT;
  if constexpr (sizeof(V) == 2) stored = memory = half16.get();
  if constexpr (std::is_same_v<V, double>) stored = H5T_IEEE_F64LE, memory = H5T_NATIVE_DOUBLE;
  write_atomically(path, [&](const std::string& temporary) {
    write_grid_hdf5(temporary, path, grid, values, labels.dataset, stored, memory,
                    labels.attributes);
  });
}

bool is_hdf5(const std::string& path) { return ends_with(path, ".h5") || ends_with(path, ".hdf5"); }

bool is_mrc(const std::string& path) {
  return ends_with(path, ".mrc") || ends_with(path, ".map") || ends_with(path, ".ccp4");
}

// The formats that hold float values (every one but HDF5, which keeps binary16 and double).
template <class T>
void write_text_or_mrc(const std::string& path, const Grid& grid, const T* values,
                       const MapLabels& labels) {
  if (is_mrc(path)) {
    io::write_mrc(path, {grid, std::vector<float>(values, values + grid.points())});
  } else if (ends_with(path, ".dx")) {
    io::write_opendx(path, grid, values, labels.title);
  } else if (ends_with(path, ".cube") || ends_with(path, ".cub")) {
    io::write_cube(path, grid, values, labels.atoms,
                   labels.cube_title.empty() ? labels.title : labels.cube_title);
  } else {
    throw InputError({path, "--out", -1},
                     "expected a .dx, .h5, .hdf5, .mrc, .map, .ccp4, .cube or .cub map");
  }
}

}  // namespace

Structure read_structure(const std::string& path, std::int64_t frame, const std::string& topology,
                         double fallback_radius) {
  Structure s;
  if (ends_with(path, ".pqr") || ends_with(path, ".pdb") || ends_with(path, ".ent")) {
    StructureFrames file = read_structure_frames(path, fallback_radius);
    for (const auto& p : file.positions.front()) s.positions.push_back(p.cast<float>());
    s.radii = std::move(file.radii);
    s.masses = std::move(file.masses);
    s.masses_from = std::move(file.masses_from);
    s.names = std::move(file.names);
    return s;
  }
  if (io::sniff_file(path) == io::FileKind::text)
    throw InputError(
        {path, "input", -1},
        "expected a .pqr, .pdb or .ent structure or a trajectory (H5MD, XTC, TRR, TNG, "
        "NetCDF); the file is " +
            io::describe_file(path));
  const auto reader = io::open_trajectory_file(path);
  if (frame < 0 || frame >= reader->n_frames())
    throw InputError({path, "--frame", long(frame)},
                     "the file has " + std::to_string(reader->n_frames()) + " frames");
  std::vector<Vec3<double>> xyz(std::size_t(reader->n_atoms()));
  reader->read_frame(frame, xyz.data());
  for (const auto& p : xyz) s.positions.push_back(p.cast<float>());
  s.radii.assign(xyz.size(), float(fallback_radius));
  if (!reader->masses().empty()) {
    s.masses.assign(reader->masses().begin(), reader->masses().end());
    s.masses_from = path + "'s masses";
  }
  if (!topology.empty()) {
    const io::Topology top = io::read_topology(topology);
    if (top.size() != xyz.size())
      throw InputError({topology, "atoms", -1}, "has " + std::to_string(top.size()) +
                                                    " atoms, the trajectory " +
                                                    std::to_string(xyz.size()));
    const std::vector<std::string> elements = topology_elements(top);
    for (std::size_t a = 0; a < top.size(); ++a)
      s.radii[a] = float(element_radius(elements[a], fallback_radius));
    s.masses = topology_masses(top, topology, s.masses_from);
  }
  return s;
}

template <class T>
void write_map(const std::string& path, const Grid& grid, const T* values,
               const MapLabels& labels) {
  if (is_hdf5(path))
    write_hdf5(path, grid, values, labels);
  else
    write_text_or_mrc(path, grid, values, labels);
}

template void write_map(const std::string&, const Grid&, const float*, const MapLabels&);
template void write_map(const std::string&, const Grid&, const double*, const MapLabels&);

void write_half_map(const std::string& path, const Grid& grid, const std::uint16_t* bits,
                    const MapLabels& labels) {
  if (is_hdf5(path)) return write_hdf5(path, grid, bits, labels);
  std::vector<float> widened(std::size_t(grid.points()));
  for (std::size_t p = 0; p < widened.size(); ++p) widened[p] = half_to_float(bits[p]);
  write_text_or_mrc(path, grid, widened.data(), labels);
}

io::ScalarMap read_map(const std::string& path) {
  if (ends_with(path, ".dx")) return io::read_opendx(path);
  if (is_mrc(path)) return io::read_mrc(path);
  throw InputError({path, "--map", -1},
                   "expected an OpenDX (.dx) or MRC/CCP4 (.mrc, .map, .ccp4) map");
}

namespace {

// The plane's value at (a, b) along its two axes u and v.
template <class T>
double plane_value(const Grid& g, const T* values, int axis, std::int64_t plane, std::int64_t a,
                   std::int64_t b) {
  const int u = axis == 0 ? 1 : 0, v = axis == 2 ? 1 : 2;
  std::int64_t ijk[3];
  ijk[axis] = plane;
  ijk[u] = a;
  ijk[v] = b;
  return double(values[g.index(ijk[0], ijk[1], ijk[2])]);
}

}  // namespace

template <class T>
void plot_plane(const PlanePlot& plot, const Grid& g, const T* values) {
  const int axis = plot.axis == "x" ? 0 : plot.axis == "y" ? 1 : 2;
  const int u = axis == 0 ? 1 : 0, v = axis == 2 ? 1 : 2;
  const double origin[3] = {g.origin.x, g.origin.y, g.origin.z};
  std::int64_t plane = g.counts[std::size_t(axis)] / 2;
  if (std::isfinite(plot.at))
    plane = std::llround((plot.at - origin[axis]) / g.spacing[std::size_t(axis)]);
  if (plane < 0 || plane >= g.counts[std::size_t(axis)])
    throw InputError({"", "--plot-at", -1},
                     fmt::format("{} A lies outside the lattice along {}", plot.at, plot.axis));
  const std::string data = plot.path + ".values-" + std::to_string(getpid()) + ".txt";
  {
    auto f = fmt::output_file(data);
    for (std::int64_t b = 0; b < g.counts[std::size_t(v)]; ++b) {
      for (std::int64_t a = 0; a < g.counts[std::size_t(u)]; ++a)
        f.print("{:.6e} ", plane_value(g, values, axis, plane, a, b));
      f.print("\n");
    }
  }
  const char* names = "xyz";
  const double hu = g.spacing[std::size_t(u)], hv = g.spacing[std::size_t(v)];
  std::vector<std::string> arguments = {
      "--title",
      fmt::format("{}, {} = {:.2f} A", plot.title, names[axis],
                  origin[axis] + double(plane) * g.spacing[std::size_t(axis)]),
      "--xlabel", fmt::format("{} (A)", names[u]), "--ylabel", fmt::format("{} (A)", names[v]),
      "--units", plot.units, "--quantity", plot.quantity, "--iso", fmt::format("{}", plot.iso),
      // Pixels centre on the lattice points.
      "--extent", fmt::format("{}", origin[u] - 0.5 * hu),
      fmt::format("{}", origin[u] + (double(g.counts[std::size_t(u)]) - 0.5) * hu),
      fmt::format("{}", origin[v] - 0.5 * hv),
      fmt::format("{}", origin[v] + (double(g.counts[std::size_t(v)]) - 0.5) * hv)};
  if (plot.diverging) arguments.push_back("--diverging");
  run_plot_script(plot.path, "plot_map.py", KMOL_MAP_PLOT_SCRIPT, data, arguments);
}

template void plot_plane(const PlanePlot&, const Grid&, const float*);
template void plot_plane(const PlanePlot&, const Grid&, const double*);

void plot_timeline(const std::string& png, const std::string& csv, const std::string& title) {
  // The data is the caller's output: a copy is handed over, which the script's run removes.
  const std::string data = png + ".timeline-" + std::to_string(getpid()) + ".csv";
  {
    std::ifstream in(csv, std::ios::binary);
    std::ofstream out(data, std::ios::binary);
    out << in.rdbuf();
  }
  run_plot_script(png, "plot_map.py", KMOL_MAP_PLOT_SCRIPT, data, {"--timeline", "--title", title});
}

}  // namespace kmol
