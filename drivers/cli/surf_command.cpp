// kmol surf: the Gaussian density map of a structure (PQR, PDB or an H5MD frame) and its
// isosurface (marching cubes), or the isosurface of an existing map (--map: OpenDX or MRC), with
// the surface's area and enclosed volume.
#include <fmt/core.h>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cmath>

#include "drivers/cli/commands.hpp"
#include "drivers/cli/common_options.hpp"
#include "drivers/cli/option_checks.hpp"
#include "drivers/cli/trajectory_options.hpp"
#include "drivers/library/device_policy.hpp"
#include "drivers/library/map_job.hpp"
#include "drivers/library/map_output.hpp"
#include "kernels/density/density.hpp"
#include "kernels/surface/surface.hpp"
#include "kmol/core/errors.hpp"
#include "kmol/core/io/trajectory_reader.hpp"
#include "kmol/core/map_check.hpp"
#include "kmol/core/preflight.hpp"
#include "kmol/core/runtime.hpp"

namespace kmol::cli {
namespace {

struct SurfOptions {
  std::string input, map, top, out, mesh = "surface.ply", plot, plot_axis = "z", device = "auto",
                                    impl = "auto";
  std::string storage = "float";
  double spacing = 1.0, scale = 1.0, threshold = 0.01, radius = 1.5, iso = 0.5, padding = -1,
         memory_budget = 0;
  double plot_at = NAN;
  FrameChoice frames;  // of a trajectory input
  int threads = -1;
  bool force = false, mesh_defaulted = false, allow_empty = false;
};

// Options of the density map mean nothing with --map; H5MD options nothing with other inputs.
void check_option_use(const CLI::App& cmd, const SurfOptions& o) {
  needs_mode(cmd,
             {"--radius", "--scale", "--threshold", "--spacing", "--padding", "--storage",
              "--memory-budget", "--impl", "--out"},
             o.map.empty(), "a structure (they shape its density map, not a --map)");
  const bool trajectory = !o.input.empty() && io::sniff_file(o.input) != io::FileKind::text;
  needs_mode(cmd, {"--frames", "--begin", "--end", "--dt", "--top"}, trajectory,
             "a trajectory (H5MD, XTC, ...) input");
  needs_option(cmd, {"--plot-axis", "--plot-at"}, "--plot");
}

// The mesh's 32-bit indices bound the lattice: refused before the density is computed, naming
// the file whose map or whose atoms' extent (with --spacing) made it that large.
void check_mesh_limit(const SurfOptions& o, const Grid& grid, double points) {
  if (points <= double(max_surface_points)) return;
  const bool structure = o.map.empty();
  throw InputError(
      {structure ? o.input : o.map, structure ? "--spacing" : "counts", -1},
      fmt::format("a lattice of {} x {} x {} points{} is beyond the mesh's limit of {} "
                  "million points (32-bit indices){}",
                  grid.counts[0], grid.counts[1], grid.counts[2],
                  structure ? " around the atoms" : "", max_surface_points / 1000000,
                  structure ? "; a coarser --spacing, or atoms closer together" : ""));
}

void preflight_surf(const SurfOptions& o, const Grid& grid) {
  const double points = double(grid.counts[0]) * double(grid.counts[1]) * double(grid.counts[2]);
  check_mesh_limit(o, grid, points);  // first: neither memory nor --force lifts it
  const double value = o.storage == "half" ? 2 : 4;
  const bool text = has_extension(o.out, ".dx");
  RunPlan plan;
  plan.outputs.push_back({o.out,
                          "--out",
                          {".dx", ".h5", ".hdf5", ".mrc", ".map", ".ccp4"},
                          points * (text ? 13 : value),
                          false});
  // A closed surface has about 2 triangles per lattice cell it crosses: a few per cent of them.
  plan.outputs.push_back(
      {o.mesh, "--mesh", {".ply", ".obj"}, 0.05 * points * 30, o.mesh_defaulted});
  plan.outputs.push_back({o.plot, "--plot", {".png"}, 0, false});
  plan.inputs = {o.input, o.map, o.top};
  // The map (float for the mesh, whatever its storage), its copy on the device, and the marching
  // cubes' per-cell counts and offsets.
  plan.memory_bytes = points * (4 + value + 8);
  plan.size_option = o.map.empty() ? "--spacing " + fmt::format("{}", o.spacing) : "";
  plan.size_cause = lattice_cause(grid, o.map.empty() ? o.input : "");
  plan.force = o.force;
  preflight(plan);
}

// What makes a map's mesh degenerate, for the message: vertices that single precision cannot
// tell apart (an origin far from zero for the spacing), else the iso value.
std::string mesh_hint(const Grid& grid) {
  const double far = std::max(
                   {std::abs(grid.origin.x), std::abs(grid.origin.y), std::abs(grid.origin.z)}),
               finest = std::min({grid.spacing[0], grid.spacing[1], grid.spacing[2]});
  if (far / finest > double(1 << 22))
    return fmt::format(
        "the map's origin ({:.4g} A from zero) is too far for its spacing ({:.4g} A) to keep "
        "vertices apart in single precision",
        far, finest);
  return "choose an --iso well inside the map's values";
}

// An empty or degenerate mesh is refused (exit 1) with its cause and the option that changes it;
// --allow-empty writes it with a warning.
void check_mesh(const SurfOptions& o, const SurfaceMesh& mesh, const MeshMeasures& m,
                std::int64_t open, const Grid& grid, const std::string& source) {
  const std::string fault = mesh_fault(mesh, m, open);
  if (fault.empty()) return;
  const std::string what =
      fmt::format("the isosurface {} of {} {}: {}", o.iso, source, fault, mesh_hint(grid));
  if (!o.allow_empty)
    throw RunFailure(
        fmt::format("{}: --iso: {}; no mesh written (--allow-empty writes it)", o.mesh, what));
  fmt::print(stderr, "kmol: warning: {} (written as asked by --allow-empty)\n", what);
}

template <class Space>
SurfaceMesh triangulate_on(const Space& space, const io::ScalarMap& map, float iso) {
  return marching_cubes(space, map.grid, map.values.data(), iso);
}

template <class Space>
DensityMap density_on(const Space& space, const Structure& s, const DensitySettings& settings) {
  return gaussian_density(
      space, {s.positions.data(), s.radii.data(), std::int64_t(s.positions.size())}, settings);
}

int surf(const SurfOptions& o) {
  io::ScalarMap map;
  std::string source;
  Kokkos::Timer timer;
  if (!o.map.empty()) {
    map = read_map(o.map);
    preflight_surf(o, map.grid);
    source = fmt::format("map {} ({} x {} x {})", o.map, map.grid.counts[0], map.grid.counts[1],
                         map.grid.counts[2]);
  } else {
    const Structure s =
        read_structure(o.input, one_frame(o.input, o.frames, "surf"), o.top, o.radius);
    DensitySettings settings;
    settings.scale = o.scale;
    settings.threshold = o.threshold;
    settings.memory_budget = o.memory_budget;
    settings.storage = o.storage == "half" ? DensityStorage::half : DensityStorage::single;
    settings.impl = density_impl_from_string(o.impl);
    if (!(o.scale > 0)) throw InputError({"", "--scale", -1}, "must be positive");
    if (!(o.threshold > 0 && o.threshold < 1))
      throw InputError({"", "--threshold", -1}, "must lie in (0, 1)");
    double widest = 0;
    for (float r : s.radii) widest = std::max(widest, double(r));
    // Default margin: the widest Gaussian's cut radius and two lattice steps, so the surface
    // closes.
    const double padding = o.padding >= 0
                               ? o.padding
                               : density_cut_radius(o.scale * widest, o.threshold) + 2 * o.spacing;
    settings.grid = naming_file(o.input, [&] {
      return density_grid_around(s.positions.data(), std::int64_t(s.positions.size()), o.spacing,
                                 padding, s.names.empty() ? nullptr : s.names.data());
    });
    preflight_surf(o, settings.grid);
    timer.reset();
    const DensityMap density = naming_file(o.input, [&] {
      return with_space(o.device,
                        [&](const auto& space) { return density_on(space, s, settings); });
    });
    const double seconds = timer.seconds();
    const auto& g = density.grid;
    fmt::print(
        "{} atoms: density on {} x {} x {} points at {} A in {:.4f} s ({:.3g} M points/s) with {} "
        "({}), {} slab{}\n",
        s.positions.size(), g.counts[0], g.counts[1], g.counts[2], g.spacing[0], seconds,
        double(g.counts[0] * g.counts[1] * g.counts[2]) / seconds * 1e-6,
        to_string(density.impl_used), density.launch, density.slabs, density.slabs == 1 ? "" : "s");
    if (!o.out.empty()) {
      MapNames names;
      names.origin = names.counts = "";  // surf places every lattice around the atoms
      const MapExpectation expect = density_expectation(o.out, o.storage == "half", names);
      const MapLabels labels{"density", "", "density", {}, {}};
      if (density.values.empty()) {
        check_half_map(g, density.half_values.data(), expect);
        write_half_map(o.out, g, density.half_values.data(), labels);
      } else {
        check_map(g, density.values.data(), expect);
        write_map(o.out, g, density.values.data(), labels);
      }
      fmt::print("wrote {}\n", o.out);
    }
    map.grid = g;
    if (density.values.empty()) {
      map.values.resize(density.half_values.size());
      for (std::size_t p = 0; p < map.values.size(); ++p)
        map.values[p] = density.at(std::int64_t(p));
    } else {
      map.values.assign(density.values.begin(), density.values.end());
    }
    source = o.input;
  }
  if (!o.mesh.empty()) {
    const auto [low, high] = std::minmax_element(map.values.begin(), map.values.end());
    if (!(o.iso > *low && o.iso < *high))
      throw InputError({o.mesh, "--iso", -1},
                       fmt::format("the isosurface {} of {} is empty: its values lie in [{:.6g}, "
                                   "{:.6g}]; no mesh written",
                                   o.iso, source, *low, *high));
    // The surface encloses the values beyond iso, away from zero: above a positive iso, below a
    // negative one (a negative potential's pockets). Triangulating -map at -iso for the latter
    // orients the normals out of that region, so its volume is positive too.
    const bool below = o.iso < 0;
    if (below)
      for (float& v : map.values) v = -v;
    timer.reset();
    const SurfaceMesh mesh = with_space(o.device, [&](const auto& space) {
      return triangulate_on(space, map, float(below ? -o.iso : o.iso));
    });
    if (below)
      for (float& v : map.values) v = -v;
    const double seconds = timer.seconds();
    const MeshMeasures m = measure_mesh(mesh);
    const std::int64_t open = open_edges(mesh);
    check_mesh(o, mesh, m, open, map.grid, source);
    if (has_extension(o.mesh, ".obj"))
      write_obj(o.mesh, mesh);
    else
      write_ply(o.mesh, mesh);
    fmt::print(
        "isosurface {} of {} (around the values {} it): {} triangles, {} vertices in {:.4f} s; "
        "area {:.6g} A^2, volume {:.6g} A^3, {}; wrote {}\n",
        o.iso, source, below ? "below" : "above", mesh.triangles.size(), mesh.positions.size(),
        seconds, m.area, m.volume,
        open == 0
            ? "closed"
            : fmt::format("open ({} boundary edges: the surface reaches the map's edge)", open),
        o.mesh);
  }
  if (!o.plot.empty()) {
    plot_plane({o.plot, o.plot_axis, o.plot_at, o.map.empty() ? "density" : o.map,
                o.map.empty() ? "density" : "map value", "", o.iso, false},
               map.grid, map.values.data());
  }
  return 0;
}

}  // namespace

Action add_surf_command(CLI::App& app) {
  auto o = std::make_shared<SurfOptions>();
  auto* cmd = app.add_subcommand(
      "surf",
      "Gaussian density map and isosurface (QuickSurf-style) of a structure, or the "
      "isosurface of an existing map");
  cmd->add_option("input", o->input,
                  "Structure: PQR (radii from the file), PDB (radii by element) or H5MD (.h5md)")
      ->check(CLI::ExistingFile);
  cmd->add_option("--map", o->map,
                  "Triangulate this map instead (OpenDX .dx, MRC/CCP4 .mrc/.map/.ccp4)")
      ->check(CLI::ExistingFile);
  add_one_frame_options(cmd, o->frames, "Trajectory input");
  cmd->add_option("--top", o->top,
                  "H5MD input: PDB/GRO/PQR topology giving atom names (radii by element)")
      ->check(CLI::ExistingFile);
  cmd->add_option("--radius", o->radius,
                  "Radius for atoms without one (H5MD without --top, unknown elements), Angstrom");
  cmd->add_option("--scale", o->scale, "Gaussian width: sigma = scale * radius");
  cmd->add_option("--threshold", o->threshold,
                  "Drop each Gaussian where it falls below this (0 < t < 1)");
  cmd->add_option("--spacing", o->spacing, "Grid spacing (Angstrom)");
  cmd->add_option(
      "--padding", o->padding,
      "Margin around the atoms (Angstrom; default: the widest cut radius + 2 spacings)");
  cmd->add_option("--storage", o->storage, "Map values stored as float or half")
      ->check(CLI::IsMember({"float", "half"}));
  cmd->add_option("--memory-budget", o->memory_budget,
                  "Device bytes for the map; larger maps go in slabs of z planes (0: three "
                  "quarters of the GPU's free memory, 4 GB on CPUs)");
  cmd->add_option("--iso", o->iso, "Iso value of the surface");
  cmd->add_option("--out", o->out,
                  "Write the density map: .dx, .h5/.hdf5 (dataset /density) or .mrc");
  cmd->add_option("--mesh", o->mesh, "Write the isosurface: .ply (binary) or .obj ('' for none)");
  add_device_option(cmd, o->device);
  cmd->add_option("--impl", o->impl, "Density implementation: auto, kokkos or cuda");
  add_threads_option(cmd, o->threads);
  cmd->add_option("--plot", o->plot,
                  "Draw a plane of the map (with the iso contour) into this PNG");
  add_plane_options(cmd, o->plot_axis, o->plot_at);
  cmd->add_flag("--allow-empty", o->allow_empty,
                "Write an empty or degenerate mesh (no triangles, zero area or volume) with a "
                "warning instead of failing");
  add_force_flag(cmd, o->force);
  return [o, cmd] {
    o->mesh_defaulted = !given(*cmd, "--mesh");
    check_option_use(*cmd, *o);
    if (o->input.empty() == o->map.empty())
      throw InputError({"", o->map.empty() ? "input" : "--map", -1},
                       "give either a structure or --map, not both");
    if (!(o->spacing > 0)) throw InputError({"", "--spacing", -1}, "must be positive (Angstrom)");
    if (!(o->memory_budget >= 0))
      throw InputError({"", "--memory-budget", -1}, "must be positive (bytes), or 0 for automatic");
    Runtime runtime({o->threads, -1});
    return surf(*o);
  };
}

}  // namespace kmol::cli
