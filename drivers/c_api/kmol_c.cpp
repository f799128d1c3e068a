// The C API (kmol.h) over the RDF job (drivers/library/rdf_job.hpp).
#include "drivers/c_api/kmol.h"

#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "drivers/library/device_policy.hpp"
#include "drivers/library/rdf_job.hpp"
#include "drivers/library/scattering_job.hpp"
#include "kmol/core/errors.hpp"
#include "kmol/core/runtime.hpp"
#include "kmol/core/version.hpp"

struct kmol_rdf {
  explicit kmol_rdf(kmol::RdfSettings settings) : job(std::move(settings)) {}
  kmol::RdfJob job;
};

namespace {

thread_local std::string last_error;
std::unique_ptr<kmol::Runtime> runtime;

template <class F>
kmol_status guarded(F&& f) {
  try {
    f();
    last_error.clear();
    return KMOL_OK;
  } catch (const kmol::InputError& e) {
    last_error = e.what();
    return KMOL_ERROR_INPUT;
  } catch (const kmol::UnsupportedError& e) {
    last_error = e.what();
    return KMOL_ERROR_UNSUPPORTED;
  } catch (const std::exception& e) {
    last_error = e.what();
    return KMOL_ERROR_INTERNAL;
  }
}

kmol::BoxSpec box_from(const double* e) {
  if (e == nullptr) return kmol::BoxSpec::none();
  if (e[1] == 0 && e[2] == 0 && e[3] == 0 && e[5] == 0 && e[6] == 0 && e[7] == 0)
    return kmol::BoxSpec::orthorhombic(e[0], e[4], e[8]);
  return kmol::BoxSpec::triclinic({e[0], e[1], e[2]}, {e[3], e[4], e[5]}, {e[6], e[7], e[8]});
}

template <class T>
std::vector<kmol::Vec3<T>> vectors(const double* xyz, std::int64_t n) {
  std::vector<kmol::Vec3<T>> v(std::size_t(n > 0 ? n : 0));
  for (std::int64_t i = 0; i < n; ++i) v[i] = {T(xyz[3 * i]), T(xyz[3 * i + 1]), T(xyz[3 * i + 2])};
  return v;
}

// The C API's names of its arguments in refusals; the device is the one policy's auto (the GPU
// when there is one, else the host).
kmol::RdfSettings c_settings(double r_min, double r_max, int32_t n_bins, kmol_precision precision) {
  kmol::RdfSettings s;
  s.r_min = r_min;
  s.r_max = r_max;
  s.bins = n_bins;
  s.precision = precision == KMOL_DOUBLE ? kmol::Precision::double_ : kmol::Precision::single;
  s.names.r_min = "r_min";
  s.names.r_max = "r_max";
  s.names.bins = "n_bins";
  s.names.norm = "norm";
  s.names.a = "xyz_a";
  s.names.b = "xyz_b";
  s.names.none = "NULL";
  s.result.range = "r_max";
  s.result.allow_empty_option = "kmol_rdf_allow_empty";
  return s;
}

template <class T>
void add_frame(kmol::RdfJob& job, const double* xyz_a, std::int64_t n_a, const double* xyz_b,
               std::int64_t n_b, const double* box) {
  const auto a = vectors<T>(xyz_a, n_a);
  const auto b = vectors<T>(xyz_b, xyz_b ? n_b : 0);
  kmol::RdfFrame<T> frame;
  frame.input = xyz_b ? kmol::two_sets(a.data(), n_a, b.data(), n_b) : kmol::one_set(a.data(), n_a);
  frame.box = box_from(box);
  job.add_frame(frame);
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

kmol_rdf* kmol_rdf_create(double r_min, double r_max, int32_t n_bins, kmol_precision precision) {
  kmol_rdf* made = nullptr;
  guarded([&] { made = new kmol_rdf(c_settings(r_min, r_max, n_bins, precision)); });
  return made;
}

void kmol_rdf_destroy(kmol_rdf* rdf) { delete rdf; }

kmol_status kmol_rdf_add_frame(kmol_rdf* rdf, const double* xyz_a, int64_t n_a, const double* xyz_b,
                               int64_t n_b, const double* box) {
  return guarded([&] {
    if (!runtime) throw kmol::InputError({"", "", -1}, "call kmol_initialize first");
    if (rdf == nullptr || (xyz_a == nullptr && n_a > 0))
      throw kmol::InputError({"", "xyz_a", -1}, "null pointer");
    if (rdf->job.settings().precision == kmol::Precision::double_)
      add_frame<double>(rdf->job, xyz_a, n_a, xyz_b, n_b, box);
    else
      add_frame<float>(rdf->job, xyz_a, n_a, xyz_b, n_b, box);
  });
}

int64_t kmol_rdf_frames(const kmol_rdf* rdf) { return rdf ? rdf->job.frames() : 0; }

kmol_status kmol_rdf_counts(const kmol_rdf* rdf, uint64_t* counts) {
  return guarded([&] {
    if (!rdf || !counts) throw kmol::InputError({"", "counts", -1}, "null pointer");
    const auto& summed = rdf->job.summary().counts;
    std::copy(summed.begin(), summed.end(), counts);
  });
}

kmol_status kmol_rdf_allow_empty(kmol_rdf* rdf, int allow) {
  return guarded([&] {
    if (!rdf) throw kmol::InputError({"", "rdf", -1}, "null pointer");
    rdf->job.allow_empty(allow != 0);
  });
}

kmol_status kmol_rdf_result(const kmol_rdf* rdf, kmol_norm norm, double* r, double* g, double* n) {
  std::string warning;
  const kmol_status status = guarded([&] {
    if (!rdf) throw kmol::InputError({"", "rdf", -1}, "null pointer");
    const kmol::RdfNormalization mode = norm == KMOL_NORM_DENSITY ? kmol::RdfNormalization::density
                                        : norm == KMOL_NORM_NONE  ? kmol::RdfNormalization::none
                                                                  : kmol::RdfNormalization::rdf;
    const kmol::RdfResult out = rdf->job.result(mode);
    warning = out.warning;
    for (std::size_t k = 0; k < out.rdf.g.size(); ++k) {
      if (r) r[k] = out.rdf.centres[k];
      if (g) g[k] = out.rdf.g[k];
      if (n) n[k] = out.rdf.coordination[k];
    }
  });
  if (status == KMOL_OK) last_error = warning;
  return status;
}

const char* kmol_last_error(void) { return last_error.c_str(); }

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
    s->settings.probe = probe == KMOL_NEUTRON ? kmol::Probe::neutron : kmol::Probe::xray;
    s->settings.d2o = d2o;
    s->settings.q_min = q_min;
    s->settings.q_max = q_max;
    s->settings.q_bins = q_bins;
    s->settings.names.q_min = "q_min", s->settings.names.q_max = "q_max";
    s->settings.names.q_bins = "q_bins", s->settings.names.d2o = "d2o";
    s->settings.names.element = "elements";
    s->settings.names.element_hint = "elements (one symbol per atom)";
    kmol::check_settings(s->settings);
    for (int64_t i = 0; i < n_atoms; ++i)
      s->atoms.elements.push_back(elements[i] != nullptr ? elements[i] : "");
    s->atoms.source = "";
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
    const kmol::ScatteringResult r = s->job->result();
    for (std::size_t k = 0; k < r.q.size(); ++k) {
      if (q) q[k] = r.q[k];
      if (intensity) intensity[k] = r.intensity[k];
      if (sigma) sigma[k] = r.sigma[k];
      if (error) error[k] = r.error[k];
    }
  });
}

}  // extern "C"
