// kmol orbital: a molecular orbital of a Molden file on a lattice, written as a Gaussian cube or
// OpenDX map, optionally with a heat map of a plane.
#include <fmt/core.h>
#include <fmt/os.h>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "drivers/cli/commands.hpp"
#include "drivers/cli/common_options.hpp"
#include "drivers/cli/option_checks.hpp"
#include "drivers/library/device_policy.hpp"
#include "drivers/library/map_job.hpp"
#include "drivers/library/map_output.hpp"
#include "kernels/orbital/conventions.hpp"
#include "kernels/orbital/examples.hpp"
#include "kernels/orbital/orbital.hpp"
#include "kernels/orbital/overlap.hpp"
#include "kernels/orbital/selection.hpp"
#include "kernels/surface/surface.hpp"
#include "kmol/core/errors.hpp"
#include "kmol/core/map_check.hpp"
#include "kmol/core/preflight.hpp"
#include "kmol/core/runtime.hpp"
#include "kmol/core/stop.hpp"

namespace kmol::cli {
namespace {

struct OrbitalOptions {
  std::string input, example, mo = "homo", spin = "Alpha", precision = "single", device = "auto",
                              impl = "auto";
  std::string out = "orbital.cube", plot, plot_axis = "z", write_molden, mesh;
  std::string cartesian_norm = "each";
  double plot_at = NAN, iso = NAN;
  LatticeRequest lattice{0.1, 5, {}, {}};
  int threads = -1;
  bool force = false, spin_given = false, allow_empty = false;
};

// Neither lobe crosses the lattice: an empty mesh is refused unless --allow-empty asks for it.
template <class V>
[[noreturn]] void refuse_empty_mesh(const OrbitalOptions& o, const V& values) {
  const auto [low, high] = std::minmax_element(values.begin(), values.end());
  const double a = values.empty() ? 0 : double(*low), b = values.empty() ? 0 : double(*high);
  // The input is named: an empty mesh comes from its orbital (or from --iso beyond it).
  const ErrorContext where{o.input.empty() ? o.mesh : o.input, "--iso", -1};
  if (a == 0 && b == 0)
    throw InputError(where, fmt::format("the orbital is zero on the whole lattice, so the "
                                        "isosurfaces psi = +-{} are empty; no mesh written to {} "
                                        "(are its coefficients in the file? --allow-empty writes "
                                        "the empty mesh)",
                                        o.iso, o.mesh));
  throw InputError(where, fmt::format("the isosurfaces psi = +-{} of the orbital are empty: its "
                                      "values lie in [{:.6g}, {:.6g}]; no mesh written to {} "
                                      "(lower --iso, or add --allow-empty)",
                                      o.iso, a, b, o.mesh));
}

// The orbital's two lobes, psi = +iso and psi = -iso, in one mesh (each closed where it does not
// reach the lattice's edge; normals point away from each lobe's inside), with their measures.
template <class T>
void write_lobes(const OrbitalOptions& o, const OrbitalMap<T>& map) {
  const Grid& grid = map.lattice;
  std::vector<float> values(map.values.begin(), map.values.end());
  SurfaceMesh mesh;
  std::string report;
  for (const float sign : {1.0f, -1.0f}) {
    if (sign < 0)
      for (float& v : values) v = -v;
    SurfaceMesh part;
    part = with_space(o.device, [&](const auto& space) {
      return marching_cubes(space, grid, values.data(), float(o.iso));
    });
    const MeshMeasures m = measure_mesh(part);
    report += fmt::format("; {} lobe: {} triangles, area {:.6g} A^2, volume {:.6g} A^3{}",
                          sign > 0 ? "+" : "-", part.triangles.size(), m.area, m.volume,
                          open_edges(part) == 0 ? "" : " (open: reaches the lattice's edge)");
    const auto offset = std::int32_t(mesh.positions.size());
    mesh.positions.insert(mesh.positions.end(), part.positions.begin(), part.positions.end());
    mesh.normals.insert(mesh.normals.end(), part.normals.begin(), part.normals.end());
    for (auto t : part.triangles)
      mesh.triangles.push_back({t[0] + offset, t[1] + offset, t[2] + offset});
  }
  if (mesh.triangles.empty() && !o.allow_empty) refuse_empty_mesh(o, map.values);
  if (has_extension(o.mesh, ".obj"))
    write_obj(o.mesh, mesh);
  else
    write_ply(o.mesh, mesh);
  fmt::print("isosurfaces psi = +-{} bohr^-3/2{}; wrote {}\n", o.iso, report, o.mesh);
}

void preflight_orbital(const CLI::App& cmd, const OrbitalOptions& o, const Grid& lattice) {
  const double points = double(lattice.points());
  const double value = o.precision == "double" ? 8 : 4;
  RunPlan plan;
  // Text maps: 13 characters a value.
  plan.outputs.push_back(
      {o.out, "--out", {".cube", ".cub", ".dx"}, 13 * points, !given(cmd, "--out")});
  plan.outputs.push_back({o.plot, "--plot", {".png"}, 0, false});
  plan.outputs.push_back({o.mesh, "--mesh", {".ply", ".obj"}, 0, false});
  plan.outputs.push_back(
      {o.write_molden, "--write-molden", {".molden", ".mold", ".input"}, 0, false});
  if (!o.input.empty()) plan.inputs.push_back(o.input);
  // The map on the device and its host copy; a float copy of it for the lobes' meshes.
  plan.memory_bytes = points * (2 * value + (o.mesh.empty() ? 0 : 8));
  plan.size_option =
      o.lattice.counts.empty() ? fmt::format("--spacing {}", o.lattice.spacing) : "--counts";
  plan.size_cause = lattice_cause(lattice, o.lattice.counts.empty() ? o.input : "");
  plan.force = o.force;
  preflight(plan);
}

// Every orbital's norm, checked once on load; a file whose norms the older axial normalisation
// of Cartesian functions explains is named so, with the option that converts it.
void report_norms(const MoldenData& molden, bool convention_given) {
  for (const auto& warning :
       norm_warnings(check_orbital_norms(molden), convention_given, "--cartesian-norm axial"))
    fmt::print(stderr, "kmol: warning: {}\n", warning);
}

template <class T>
int orbital(const OrbitalOptions& o, const MoldenData& molden, const OrbitalSettings& s) {
  const int index = select_orbital(molden, o.mo, o.spin_given ? o.spin : "");
  const MolecularOrbital& mo = molden.orbitals[std::size_t(index)];
  const OrbitalBasis basis(molden);
  // The file's normalisation under kmol's conventions (docs/orbital.md), from analytic overlaps.
  double norm = NAN;
  if (basis.functions() <= 3000)
    norm = overlap(overlap_matrix(basis), mo.coefficients, mo.coefficients);
  Kokkos::Timer timer;
  MapRun run;
  run.device = device_policy_from_string(o.device);
  const OrbitalMap<T> map = orbital_map<T>(basis, mo, s, run);
  const double seconds = timer.seconds();
  const Grid& l = map.lattice;
  check_map(l, map.values.data(), orbital_expectation(o.out, o.input, MapNames()));
  // The title is one line of every map format: a label's control characters become '?'.
  std::string title =
      fmt::format("orbital {} ({} {}, E = {:.6f} Eh, occupation {})", index + 1, mo.spin,
                  mo.symmetry.empty() ? "-" : mo.symmetry, mo.energy, mo.occupation);
  for (char& c : title)
    if (std::iscntrl(static_cast<unsigned char>(c))) c = '?';
  // The mesh first: a refused (empty) mesh leaves no map behind either.
  if (!o.mesh.empty()) write_lobes(o, map);
  MapLabels labels{"MOLECULAR ORBITAL (bohr^-3/2): " + title, "kmol " + title, "orbital", {}, {}};
  for (std::size_t a = 0; a < molden.positions.size(); ++a)
    labels.atoms.push_back({molden.atomic_numbers[a], molden.positions[a]});
  write_map(o.out, l, map.values.data(), labels);
  if (!o.plot.empty())
    plot_plane({o.plot, o.plot_axis, o.plot_at, fmt::format("orbital {}", index + 1), "bohr^-3/2",
                "psi", NAN, true},
               l, map.values.data());
  const double evaluations = double(l.points()) * double(basis.functions());
  fmt::print(
      "{} atoms, {} basis functions; {}; norm (analytic) {:.6f}; lattice {} x {} x {} at {} A; "
      "{:.4f} s with {} "
      "({}); {:.3g} G basis-function evaluations/s; wrote {}\n",
      molden.atoms(), basis.functions(), title, norm, l.counts[0], l.counts[1], l.counts[2],
      l.spacing[0], seconds, to_string(map.impl_used), map.launch, evaluations / seconds * 1e-9,
      o.out);
  return 0;
}

}  // namespace

Action add_orbital_command(CLI::App& app) {
  auto o = std::make_shared<OrbitalOptions>();
  auto* cmd = app.add_subcommand(
      "orbital", "A molecular orbital of a Molden file on a lattice (Gaussian cube or OpenDX)");
  cmd->add_option("input", o->input, "Molden file (GTO basis, [MO] section)")
      ->check(CLI::ExistingFile);
  cmd->add_option("--example", o->example,
                  "Instead of a file: water (STO-3G) or c60 (6-31G*, valence), orthonormal test "
                  "orbitals (docs/orbital.md)")
      ->check(CLI::IsMember({"water", "c60"}));
  cmd->add_option("--write-molden", o->write_molden,
                  "Also write the input as a Molden file (to keep an --example)");
  cmd->add_option("--mo", o->mo,
                  "Orbital: homo, lumo, homo-K, lumo+K, or its number (from 1: in the file, or "
                  "among the --spin orbitals when --spin is given)");
  cmd->add_option("--spin", o->spin, "Alpha or Beta: the channel of --mo")
      ->check(CLI::IsMember({"Alpha", "Beta"}));
  add_lattice_options(cmd, o->lattice);
  add_precision_option(cmd, o->precision);
  add_device_option(cmd, o->device);
  cmd->add_option("--impl", o->impl, "auto, kokkos, host or cuda");
  add_threads_option(cmd, o->threads);
  cmd->add_option("--out", o->out,
                  "Output map: .cube (Gaussian cube, bohr) or .dx (OpenDX, Angstrom)");
  cmd->add_option("--plot", o->plot, "Also draw a heat map of one lattice plane into this PNG");
  add_plane_options(cmd, o->plot_axis, o->plot_at);
  cmd->add_option("--iso", o->iso, "Isosurfaces psi = +iso and -iso (bohr^-3/2; with --mesh)");
  cmd->add_option("--mesh", o->mesh, "Write the isosurfaces by marching cubes: .ply or .obj");
  cmd->add_flag("--allow-empty", o->allow_empty,
                "Write the mesh even when neither isosurface crosses the lattice");
  cmd->add_option("--cartesian-norm", o->cartesian_norm,
                  "each (every Cartesian d/f/g function normalised on its own) or axial (all as "
                  "x^l, as older psi4 releases write them): converted to each on load")
      ->check(CLI::IsMember({"each", "axial"}));
  add_force_flag(cmd, o->force);
  return [o, cmd] {
    o->spin_given = given(*cmd, "--spin");
    needs_option(*cmd, {"--plot-axis", "--plot-at"}, "--plot");
    excludes(*cmd, "--padding", "--origin");
    if (o->input.empty() == o->example.empty())
      throw InputError({"", "input", -1}, "give either a Molden file or --example (not both)");
    if (o->mesh.empty() != !std::isfinite(o->iso))
      throw InputError({"", o->mesh.empty() ? "--mesh" : "--iso", -1},
                       "--iso and --mesh go together");
    if (o->allow_empty && o->mesh.empty())
      throw InputError({"", "--allow-empty", -1}, "applies only with --mesh");
    if (!o->mesh.empty() && !(o->iso > 0))
      throw InputError({"", "--iso", -1}, "must be positive (both signs are drawn)");
    // Water's 7 functions hold 5 occupied orbitals; C60's 360 electrons 180.
    ExampleOptions example;
    example.valence = o->example == "c60";
    example.orbitals = example.valence ? 184 : 7;
    example.occupied = example.valence ? 180 : 5;
    MoldenData molden = o->example.empty()
                            ? read_molden(o->input)
                            : example_molecule(o->example == "c60" ? ExampleMolecule::c60_631gs
                                                                   : ExampleMolecule::water_sto3g,
                                               example);
    if (cartesian_normalisation_from_string(o->cartesian_norm) == CartesianNormalisation::axial)
      convert_axial_cartesian(molden);
    report_norms(molden, given(*cmd, "--cartesian-norm"));
    OrbitalSettings s;
    s.impl = orbital_impl_from_string(o->impl);
    s.lattice = map_lattice(
        o->lattice, {molden.positions.data(), molden.atoms(), nullptr, o->input}, MapNames());
    preflight_orbital(*cmd, *o, s.lattice);
    if (!o->write_molden.empty()) {
      TemporaryFile output(o->write_molden, "--write-molden");
      {
        std::ofstream f(output.temporary());
        write_molden(f, molden);
        if (!f)
          throw InputError({o->write_molden, "--write-molden", -1}, "cannot write the Molden file");
      }
      output.commit();
    }
    Runtime runtime({o->threads, -1});
    return o->precision == "double" ? orbital<double>(*o, molden, s)
                                    : orbital<float>(*o, molden, s);
  };
}

}  // namespace kmol::cli
