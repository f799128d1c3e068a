// The C API (kmol.h): the runtime, errors and the scattering jobs; the RDF job's functions are
// in kmol_c_rdf.cpp.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "drivers/c_api/c_common.hpp"
#include "drivers/library/device_policy.hpp"
#include "drivers/library/scattering_job.hpp"
#include "drivers/library/scattering_solution.hpp"
#include "kmol/core/errors.hpp"
#include "kmol/core/runtime.hpp"
#include "kmol/core/version.hpp"

namespace {

std::unique_ptr<kmol::Runtime> runtime;

}  // namespace

namespace kmol::c_api {

std::string& last_error() {
  thread_local std::string message;
  return message;
}

bool runtime_started() { return runtime != nullptr; }

BoxSpec box_from(const double* e) {
  if (e == nullptr) return BoxSpec::none();
  if (e[1] == 0 && e[2] == 0 && e[3] == 0 && e[5] == 0 && e[6] == 0 && e[7] == 0)
    return BoxSpec::orthorhombic(e[0], e[4], e[8]);
  return BoxSpec::triclinic({e[0], e[1], e[2]}, {e[3], e[4], e[5]}, {e[6], e[7], e[8]});
}

}  // namespace kmol::c_api

namespace {

using kmol::c_api::box_from;
using kmol::c_api::guarded;
using kmol::c_api::vectors;

// The C API's names of the scattering settings in refusals.
kmol::ScatteringSettings scattering_settings(kmol_probe probe, double d2o, double q_min,
                                             double q_max, int32_t q_bins) {
  kmol::ScatteringSettings s;
  s.probe = probe == KMOL_NEUTRON ? kmol::Probe::neutron : kmol::Probe::xray;
  s.d2o = d2o;
  s.q_min = q_min;
  s.q_max = q_max;
  s.q_bins = q_bins;
  s.names.q_min = "q_min", s.names.q_max = "q_max";
  s.names.q_bins = "q_bins", s.names.d2o = "d2o";
  s.names.element = "elements";
  s.names.element_hint = "elements (one symbol per atom)";
  return s;
}

kmol::AtomIdentity element_identity(const char* const* elements, int64_t n, const char* name) {
  if (elements == nullptr || n < 1)
    throw kmol::InputError({"", name, -1}, "one element symbol per atom");
  kmol::AtomIdentity atoms;
  for (int64_t i = 0; i < n; ++i)
    atoms.elements.push_back(elements[i] != nullptr ? elements[i] : "");
  atoms.source = "";
  return atoms;
}

// Copies a result's columns into the caller's arrays (any may be NULL).
void write_result(const kmol::ScatteringResult& r, double* q, double* intensity, double* sigma,
                  double* error) {
  for (std::size_t k = 0; k < r.q.size(); ++k) {
    if (q) q[k] = r.q[k];
    if (intensity) intensity[k] = r.intensity[k];
    if (sigma) sigma[k] = r.sigma[k];
    if (error) error[k] = r.error[k];
  }
}

}  // namespace

extern "C" {

kmol_status kmol_initialize(void) {
  return guarded([] {
    if (!runtime) runtime = std::make_unique<kmol::Runtime>();
  });
}

kmol_status kmol_finalize(void) {
  return guarded([] { runtime.reset(); });
}

const char* kmol_version(void) { return KMOL_VERSION; }

const char* kmol_last_error(void) { return kmol::c_api::last_error().c_str(); }

struct kmol_scattering {
  kmol::ScatteringSettings settings;
  kmol::AtomIdentity atoms;
  std::unique_ptr<kmol::ScatteringJob> job;
  bool periodic = false;
};

kmol_scattering* kmol_scattering_create(const char* const* elements, int64_t n_atoms,
                                        kmol_probe probe, double d2o, double q_min, double q_max,
                                        int32_t q_bins) {
  auto s = std::make_unique<kmol_scattering>();
  const kmol_status status = guarded([&] {
    if (elements == nullptr || n_atoms < 2)
      throw kmol::InputError({"", "elements", -1}, "at least 2 atoms' element symbols");
    s->settings = scattering_settings(probe, d2o, q_min, q_max, q_bins);
    kmol::check_settings(s->settings);
    s->atoms = element_identity(elements, n_atoms, "elements");
  });
  return status == KMOL_OK ? s.release() : nullptr;
}

void kmol_scattering_destroy(kmol_scattering* scattering) { delete scattering; }

kmol_status kmol_scattering_add_frame(kmol_scattering* s, const double* xyz, const double* box) {
  return guarded([&] {
    if (s == nullptr || xyz == nullptr)
      throw kmol::InputError({"", "xyz", -1}, "a scattering job and coordinates");
    const auto frame = vectors<double>(xyz, std::int64_t(s->atoms.elements.size()));
    const kmol::BoxSpec spec = box_from(box);
    if (!s->job) {
      s->job = std::make_unique<kmol::ScatteringJob>(s->settings, s->atoms,
                                                     std::vector<std::string>{}, frame, spec);
      s->periodic = box != nullptr;
    }
    if ((box != nullptr) != s->periodic)
      throw kmol::InputError({"", "box", -1}, s->periodic
                                                  ? "NULL, but the first frame had a box"
                                                  : "a box, but the first frame had none (NULL)");
    kmol::with_space(kmol::DevicePolicy::automatic,
                     [&](const auto& space) { s->job->add_frame(space, frame, spec); });
  });
}

kmol_status kmol_scattering_result(const kmol_scattering* s, double* q, double* intensity,
                                   double* sigma, double* error) {
  return guarded([&] {
    if (s == nullptr || !s->job) throw kmol::InputError({"", "frames", -1}, "no frame was added");
    write_result(s->job->result(), q, intensity, sigma, error);
  });
}

struct kmol_solution_scattering {
  std::unique_ptr<kmol::SolutionScattering> job;
  kmol::AtomIdentity solution, solvent;
  std::vector<std::int64_t> solute;
};

// One frame of the solution's run or of the solvent's, the first of each starting its run.
static kmol_status add_solution_run_frame(kmol_solution_scattering* s, const double* xyz,
                                          const double* box, bool solvent) {
  return guarded([&] {
    if (s == nullptr || xyz == nullptr || box == nullptr)
      throw kmol::InputError({"", "xyz", -1}, "a job, coordinates and a box");
    const kmol::AtomIdentity& atoms = solvent ? s->solvent : s->solution;
    const auto frame = vectors<double>(xyz, std::int64_t(atoms.elements.size()));
    const kmol::BoxSpec spec = box_from(box);
    if (solvent && !s->job->solvent_started()) s->job->start_solvent(atoms, {}, frame, spec);
    if (!solvent && !s->job->solution_started())
      s->job->start_solution(atoms, {}, s->solute, frame, spec);
    kmol::with_space(kmol::DevicePolicy::automatic, [&](const auto& space) {
      if (solvent)
        s->job->add_solvent_frame(space, frame, spec);
      else
        s->job->add_solution_frame(space, frame, spec);
    });
  });
}

kmol_solution_scattering* kmol_solution_scattering_create(
    const char* const* elements, int64_t n_atoms, const int64_t* solute, int64_t n_solute,
    const char* const* solvent_elements, int64_t n_solvent, kmol_volume volume, double size,
    kmol_probe probe, double d2o, double q_min, double q_max, int32_t q_bins) {
  auto s = std::make_unique<kmol_solution_scattering>();
  const kmol_status status = guarded([&] {
    kmol::ScatteringSettings settings = scattering_settings(probe, d2o, q_min, q_max, q_bins);
    kmol::ObservationVolume v;
    v.shape = volume == KMOL_SHELL ? kmol::VolumeShape::shell : kmol::VolumeShape::sphere;
    v.size = size;
    kmol::SolutionNames names;
    names.radius = names.shell = "size";
    names.solute = "solute";
    names.solvent = "solvent_elements";
    s->job = std::make_unique<kmol::SolutionScattering>(settings, v, names);
    s->solution = element_identity(elements, n_atoms, "elements");
    s->solvent = element_identity(solvent_elements, n_solvent, "solvent_elements");
    if (solute == nullptr || n_solute < 1)
      throw kmol::InputError({"", "solute", -1}, "the solute's atom indices, at least one");
    s->solute.assign(solute, solute + n_solute);
  });
  return status == KMOL_OK ? s.release() : nullptr;
}

void kmol_solution_scattering_destroy(kmol_solution_scattering* scattering) { delete scattering; }

kmol_status kmol_solution_scattering_add_solution_frame(kmol_solution_scattering* s,
                                                        const double* xyz, const double* box) {
  return add_solution_run_frame(s, xyz, box, false);
}

kmol_status kmol_solution_scattering_add_solvent_frame(kmol_solution_scattering* s,
                                                       const double* xyz, const double* box) {
  return add_solution_run_frame(s, xyz, box, true);
}

kmol_status kmol_solution_scattering_result(const kmol_solution_scattering* s, double* q,
                                            double* intensity, double* sigma, double* error) {
  return guarded([&] {
    if (s == nullptr) throw kmol::InputError({"", "scattering", -1}, "a job");
    write_result(s->job->result(), q, intensity, sigma, error);
  });
}

}  // extern "C"
