// The C API (kmol.h) over pair_histogram and normalize_rdf.
#include "drivers/c_api/kmol.h"

#include <Kokkos_Core.hpp>

#include <memory>
#include <string>
#include <vector>

#include "drivers/library/result_check.hpp"
#include "kernels/pair_histogram/gr.hpp"
#include "kernels/pair_histogram/pair_histogram.hpp"
#include "kmol/core/errors.hpp"
#include "kmol/core/runtime.hpp"
#include "kmol/core/version.hpp"

struct kmol_rdf {
  kmol::PairHistogramSettings settings;
  kmol_precision precision = KMOL_SINGLE;
  std::vector<std::uint64_t> counts;
  std::int64_t frames = 0, n_a = -1, n_b = -1;
  bool periodic = false;     // the first frame's box: every frame must have one, or none
  bool allow_empty = false;  // kmol_rdf_allow_empty
  double inverse_volume_sum = 0;
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

template <class T>
kmol::PairHistogramResult histogram(const kmol_rdf& rdf, const double* xyz_a, std::int64_t n_a,
                                    const double* xyz_b, std::int64_t n_b,
                                    const kmol::PairHistogramSettings& settings) {
  const auto a = vectors<T>(xyz_a, n_a);
  const auto b = vectors<T>(xyz_b, xyz_b ? n_b : 0);
  const auto input =
      xyz_b ? kmol::two_sets(a.data(), n_a, b.data(), n_b) : kmol::one_set(a.data(), n_a);
  (void)rdf;
  return kmol::pair_histogram(Kokkos::DefaultExecutionSpace(), input, settings);
}

// Every frame like the first: the same set sizes, a box or none. Frame numbers from 0.
void refuse_unlike_frame(const kmol_rdf& rdf, std::int64_t n_a, std::int64_t n_b, bool periodic) {
  if (rdf.frames == 0) return;
  const std::string frame = "frame " + std::to_string(rdf.frames) + ": ";
  if (periodic != rdf.periodic)
    throw kmol::InputError({"", "box", -1},
                           frame + (periodic ? "a box, but the first frame had none (NULL)"
                                             : "NULL, but the first frame had a box: give every "
                                               "frame its box"));
  if (n_a != rdf.n_a || n_b != rdf.n_b)
    throw kmol::InputError({"", n_a != rdf.n_a ? "n_a" : "n_b", -1},
                           frame + std::to_string(n_a) + " and " + std::to_string(n_b) +
                               " atoms, but the first frame had " + std::to_string(rdf.n_a) +
                               " and " + std::to_string(rdf.n_b));
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
  guarded([&] {
    if (!(r_max > r_min) || r_min < 0)
      throw kmol::InputError({"", "r_max", -1}, "need 0 <= r_min < r_max");
    if (n_bins <= 0 || n_bins > kmol::HistogramRange<double>::max_bins)
      throw kmol::InputError(
          {"", "n_bins", -1},
          "must be between 1 and " + std::to_string(kmol::HistogramRange<double>::max_bins));
    auto rdf = std::make_unique<kmol_rdf>();
    rdf->settings.r_min = r_min;
    rdf->settings.r_max = r_max;
    rdf->settings.n_bins = n_bins;
    rdf->precision = precision;
    rdf->counts.assign(std::size_t(n_bins), 0);
    made = rdf.release();
  });
  return made;
}

void kmol_rdf_destroy(kmol_rdf* rdf) { delete rdf; }

kmol_status kmol_rdf_add_frame(kmol_rdf* rdf, const double* xyz_a, int64_t n_a, const double* xyz_b,
                               int64_t n_b, const double* box) {
  return guarded([&] {
    if (!runtime) throw kmol::InputError({"", "", -1}, "call kmol_initialize first");
    if (rdf == nullptr || (xyz_a == nullptr && n_a > 0))
      throw kmol::InputError({"", "xyz_a", -1}, "null pointer");
    if (!xyz_b) n_b = 0;
    refuse_unlike_frame(*rdf, n_a, n_b, box != nullptr);
    kmol::PairHistogramSettings settings = rdf->settings;
    settings.box = box_from(box);
    const auto result = rdf->precision == KMOL_DOUBLE
                            ? histogram<double>(*rdf, xyz_a, n_a, xyz_b, n_b, settings)
                            : histogram<float>(*rdf, xyz_a, n_a, xyz_b, n_b, settings);
    for (std::size_t k = 0; k < rdf->counts.size(); ++k) rdf->counts[k] += result.counts[k];
    rdf->inverse_volume_sum += box ? 1 / kmol::volume(kmol::validated(settings.box)) : 0;
    rdf->n_a = n_a;
    rdf->n_b = n_b;
    rdf->periodic = box != nullptr;
    ++rdf->frames;
  });
}

int64_t kmol_rdf_frames(const kmol_rdf* rdf) { return rdf ? rdf->frames : 0; }

kmol_status kmol_rdf_counts(const kmol_rdf* rdf, uint64_t* counts) {
  return guarded([&] {
    if (!rdf || !counts) throw kmol::InputError({"", "counts", -1}, "null pointer");
    std::copy(rdf->counts.begin(), rdf->counts.end(), counts);
  });
}

kmol_status kmol_rdf_allow_empty(kmol_rdf* rdf, int allow) {
  return guarded([&] {
    if (!rdf) throw kmol::InputError({"", "rdf", -1}, "null pointer");
    rdf->allow_empty = allow != 0;
  });
}

kmol_status kmol_rdf_result(const kmol_rdf* rdf, kmol_norm norm, double* r, double* g, double* n) {
  std::string warning;
  const kmol_status status = guarded([&] {
    if (!rdf) throw kmol::InputError({"", "rdf", -1}, "null pointer");
    kmol::RdfCountsSummary s;
    s.counts = rdf->counts;
    s.r_min = rdf->settings.r_min;
    s.r_max = rdf->settings.r_max;
    s.frames = rdf->frames;
    s.n_a = rdf->n_a;
    s.n_b = rdf->n_b;
    s.one_set = rdf->n_b <= 0;
    s.mean_inverse_volume = rdf->frames > 0 ? rdf->inverse_volume_sum / double(rdf->frames) : 0;
    const kmol::RdfNormalization mode = norm == KMOL_NORM_DENSITY ? kmol::RdfNormalization::density
                                        : norm == KMOL_NORM_NONE  ? kmol::RdfNormalization::none
                                                                  : kmol::RdfNormalization::rdf;
    const kmol::Rdf out = kmol::normalize_rdf(s, mode);
    kmol::ResultOptions options;
    options.range = "r_max";
    options.allow_empty_option = "kmol_rdf_allow_empty";
    options.allow_empty = rdf->allow_empty;
    warning = kmol::check_rdf(s, out, options);
    for (std::size_t k = 0; k < out.g.size(); ++k) {
      if (r) r[k] = out.centres[k];
      if (g) g[k] = out.g[k];
      if (n) n[k] = out.coordination[k];
    }
  });
  if (status == KMOL_OK) last_error = warning;
  return status;
}

const char* kmol_last_error(void) { return last_error.c_str(); }

}  // extern "C"
