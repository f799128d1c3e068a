// The C API's kmol_rdf_* (kmol.h): the RDF job every front end runs (drivers/library/rdf_job.hpp),
// its refusals naming the C arguments; centres of groups from c_groups.hpp.
#include <fmt/core.h>

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "drivers/c_api/c_common.hpp"
#include "drivers/c_api/c_groups.hpp"
#include "drivers/library/centres.hpp"
#include "drivers/library/rdf_job.hpp"

struct kmol_rdf {
  explicit kmol_rdf(kmol::RdfSettings settings) : job(std::move(settings)) {}
  kmol::RdfJob job;
  // kmol_rdf_set_centres of the first and second set: the sites of each frame's atoms, or none
  // (the atoms are the sites).
  std::optional<kmol::SiteMap> centres[2];
  // kmol_rdf_set_exclusions: a label per atom of each set, or none (every pair counts).
  std::optional<std::vector<std::int32_t>> labels[2];
};

namespace {

using kmol::InputError;
using kmol::c_api::box_from;
using kmol::c_api::group_sites;
using kmol::c_api::guarded;
using kmol::c_api::vectors;

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
  s.names.molecules = "labels_a/labels_b";
  s.names.plane = "plane";
  s.names.kb = "kmol_rdf_kirkwood_buff";
  s.names.boxless_norms = "KMOL_NORM_DENSITY or KMOL_NORM_NONE";
  s.names.blocks = "n_blocks";
  s.names.ask_blocks =
      "call kmol_rdf_set_blocks(rdf, n_blocks) before the first frame (n_blocks 0: blocking "
      "analysis chooses the block)";
  s.names.auto_blocks = "0 (automatic)";
  s.result.range = "r_max";
  s.result.allow_empty_option = "kmol_rdf_allow_empty";
  return s;
}

template <class Rdf>
auto& job_of(Rdf* rdf) {
  if (rdf == nullptr) throw InputError({"", "rdf", -1}, "null pointer");
  return rdf->job;
}

// A C enumerator, its name in kmol.h and the kmol value it stands for.
template <class C, class K>
struct CName {
  C c;
  const char* name;
  K value;
};

// The value `c` stands for; otherwise InputError naming `argument` and listing every enumerator.
template <class C, class K, std::size_t N>
K from_c(const CName<C, K> (&names)[N], C c, const char* argument) {
  std::string expected;
  for (std::size_t k = 0; k < N; ++k) {
    if (names[k].c == c) return names[k].value;
    expected += (k == 0 ? "" : k + 1 == N ? " or " : ", ") + std::string(names[k].name);
  }
  throw InputError({"", argument, -1}, fmt::format("expected {}, not {}", expected, int(c)));
}

constexpr CName<kmol_norm, kmol::RdfNormalization> norm_names[] = {
    {KMOL_NORM_RDF, "KMOL_NORM_RDF", kmol::RdfNormalization::rdf},
    {KMOL_NORM_DENSITY, "KMOL_NORM_DENSITY", kmol::RdfNormalization::density},
    {KMOL_NORM_NONE, "KMOL_NORM_NONE", kmol::RdfNormalization::none}};
constexpr CName<kmol_plane, kmol::Plane> plane_names[] = {
    {KMOL_PLANE_NONE, "KMOL_PLANE_NONE", kmol::Plane::none},
    {KMOL_PLANE_XY, "KMOL_PLANE_XY", kmol::Plane::xy},
    {KMOL_PLANE_XZ, "KMOL_PLANE_XZ", kmol::Plane::xz},
    {KMOL_PLANE_YZ, "KMOL_PLANE_YZ", kmol::Plane::yz}};

void copy_to(const std::vector<double>& values, double* out) {
  if (out != nullptr) std::copy(values.begin(), values.end(), out);
}

// One set's sites of a frame: its atoms, or the centres of their groups.
template <class T>
struct Sites {
  std::vector<kmol::Vec3<T>> xyz;
  std::int64_t n = 0;
};

template <class T>
Sites<T> sites_of(const std::optional<kmol::SiteMap>& centres, const double* xyz, std::int64_t n,
                  const kmol::BoxSpec& box, const char* name) {
  Sites<T> out{vectors<T>(xyz, n), n};
  if (!centres) return out;
  const auto atoms = std::int64_t(centres->members.size());
  if (n != atoms)
    throw InputError({"", name, -1},
                     fmt::format("{} atoms, but kmol_rdf_set_centres gave groups of {}", n, atoms));
  std::vector<kmol::Vec3<double>> whole(static_cast<std::size_t>(n));
  std::vector<kmol::Vec3<T>> centred(std::size_t(centres->size()));
  kmol::site_positions(*centres, out.xyz.data(), box, whole, centred.data());
  return {std::move(centred), centres->size()};
}

// One set's exclusion labels of a frame's sites: its atoms' labels, or those of each centre's
// first atom (kmol rdf --exclude-same with --pos1 alike); empty without labels.
std::vector<std::int32_t> site_labels(const kmol_rdf& rdf, int set, std::int64_t atoms,
                                      const char* name) {
  const auto& labels = rdf.labels[set];
  if (!labels) return {};
  if (atoms != std::int64_t(labels->size()))
    throw InputError(
        {"", name, -1},
        fmt::format("{} atoms, but kmol_rdf_set_exclusions gave {} labels", atoms, labels->size()));
  return rdf.centres[set] ? kmol::site_groups(*rdf.centres[set], *labels) : *labels;
}

template <class T>
void add_frame(kmol_rdf& rdf, const double* xyz_a, std::int64_t n_a, const double* xyz_b,
               std::int64_t n_b, const double* box) {
  if (xyz_b == nullptr && (rdf.centres[1] || rdf.labels[1]))
    throw InputError({"", "xyz_b", -1},
                     rdf.centres[1]
                         ? "NULL (one set), but kmol_rdf_set_centres gave groups of a second set"
                         : "NULL (one set), but kmol_rdf_set_exclusions gave labels_b");
  kmol::RdfFrame<T> frame;
  frame.box = box_from(box);
  const Sites<T> a = sites_of<T>(rdf.centres[0], xyz_a, n_a, frame.box, "xyz_a");
  const Sites<T> b = sites_of<T>(rdf.centres[1], xyz_b, xyz_b ? n_b : 0, frame.box, "xyz_b");
  frame.input = xyz_b ? kmol::two_sets(a.xyz.data(), a.n, b.xyz.data(), b.n)
                      : kmol::one_set(a.xyz.data(), a.n);
  const std::vector<std::int32_t> labels_a = site_labels(rdf, 0, n_a, "xyz_a");
  const std::vector<std::int32_t> labels_b = site_labels(rdf, 1, xyz_b ? n_b : 0, "xyz_b");
  if (!labels_a.empty()) frame.input.molecule_a = labels_a.data();
  if (!labels_b.empty()) frame.input.molecule_b = labels_b.data();
  rdf.job.add_frame(frame);
}

}  // namespace

extern "C" {

kmol_rdf* kmol_rdf_create(double r_min, double r_max, int32_t n_bins, kmol_precision precision) {
  kmol_rdf* made = nullptr;
  guarded([&] { made = new kmol_rdf(c_settings(r_min, r_max, n_bins, precision)); });
  return made;
}

void kmol_rdf_destroy(kmol_rdf* rdf) { delete rdf; }

kmol_status kmol_rdf_add_frame(kmol_rdf* rdf, const double* xyz_a, int64_t n_a, const double* xyz_b,
                               int64_t n_b, const double* box) {
  return guarded([&] {
    if (!kmol::c_api::runtime_started())
      throw InputError({"", "", -1}, "call kmol_initialize first");
    if (rdf == nullptr || (xyz_a == nullptr && n_a > 0))
      throw InputError({"", "xyz_a", -1}, "null pointer");
    if (rdf->job.settings().precision == kmol::Precision::double_)
      add_frame<double>(*rdf, xyz_a, n_a, xyz_b, n_b, box);
    else
      add_frame<float>(*rdf, xyz_a, n_a, xyz_b, n_b, box);
  });
}

int64_t kmol_rdf_frames(const kmol_rdf* rdf) { return rdf ? rdf->job.frames() : 0; }

kmol_status kmol_rdf_counts(const kmol_rdf* rdf, uint64_t* counts) {
  return guarded([&] {
    if (!rdf || !counts) throw InputError({"", "counts", -1}, "null pointer");
    const auto& summed = rdf->job.summary().counts;
    std::copy(summed.begin(), summed.end(), counts);
  });
}

kmol_status kmol_rdf_allow_empty(kmol_rdf* rdf, int allow) {
  return guarded([&] { job_of(rdf).allow_empty(allow != 0); });
}

kmol_status kmol_rdf_result(const kmol_rdf* rdf, kmol_norm norm, double* r, double* g, double* n) {
  std::string warning;
  const kmol_status status = guarded([&] {
    const kmol::RdfResult out = job_of(rdf).result(from_c(norm_names, norm, "norm"));
    warning = out.warning;
    copy_to(out.rdf.centres, r);
    copy_to(out.rdf.g, g);
    copy_to(out.rdf.coordination, n);
  });
  if (status == KMOL_OK) kmol::c_api::last_error() = warning;
  return status;
}

kmol_status kmol_rdf_set_plane(kmol_rdf* rdf, kmol_plane plane) {
  return guarded([&] { job_of(rdf).set_plane(from_c(plane_names, plane, "plane")); });
}

kmol_status kmol_rdf_set_blocks(kmol_rdf* rdf, int64_t n_blocks) {
  return guarded([&] { job_of(rdf).keep_blocks(n_blocks); });
}

kmol_status kmol_rdf_std_error(const kmol_rdf* rdf, kmol_norm norm, double* g_error,
                               double* n_error) {
  return guarded([&] {
    const kmol::RdfBlockErrors e = job_of(rdf).frame_block_errors(from_c(norm_names, norm, "norm"));
    copy_to(e.g_error, g_error);
    copy_to(e.coordination_error, n_error);
  });
}

kmol_status kmol_rdf_block_rdf(const kmol_rdf* rdf, kmol_norm norm, int64_t* n_blocks, double* g) {
  return guarded([&] {
    if (n_blocks == nullptr)
      throw InputError({"", "n_blocks", -1}, "null pointer: where the number of blocks goes");
    const kmol::RdfBlockErrors e = job_of(rdf).frame_block_errors(from_c(norm_names, norm, "norm"));
    *n_blocks = std::int64_t(e.blocks.size());
    if (g == nullptr) return;
    for (const kmol::Rdf& block : e.blocks) g = std::copy(block.g.begin(), block.g.end(), g);
  });
}

kmol_status kmol_rdf_error_block(const kmol_rdf* rdf, kmol_norm norm, int64_t* frames,
                                 int* converged) {
  return guarded([&] {
    const kmol::RdfBlockErrors e = job_of(rdf).frame_block_errors(from_c(norm_names, norm, "norm"));
    if (frames != nullptr) *frames = e.blocking.block * e.frames_per_block;
    if (converged != nullptr) *converged = e.blocking.converged ? 1 : 0;
  });
}

kmol_status kmol_rdf_kirkwood_buff(const kmol_rdf* rdf, double* r, double* running,
                                   double* finite_volume, double* closed, double* infinite) {
  return guarded([&] {
    const kmol::KirkwoodBuff kb = job_of(rdf).kirkwood_buff();
    copy_to(kb.r, r);
    copy_to(kb.running, running);
    copy_to(kb.finite_volume, finite_volume);
    copy_to(kb.closed, closed);
    if (infinite != nullptr) *infinite = kb.infinite;
  });
}

kmol_status kmol_rdf_set_exclusions(kmol_rdf* rdf, const int32_t* labels_a, int64_t n_a,
                                    const int32_t* labels_b, int64_t n_b) {
  return guarded([&] {
    const std::int64_t frames = job_of(rdf).frames();
    if (frames > 0)
      throw InputError({"", "labels_a", -1},
                       fmt::format("exclusions are chosen before the first frame, and {} were "
                                   "added",
                                   frames));
    if (labels_a == nullptr || n_a < 1)
      throw InputError({"", "labels_a", -1}, "one label per atom of xyz_a, at least one");
    if ((labels_b == nullptr) != (n_b == 0) || n_b < 0)
      throw InputError({"", "labels_b", -1},
                       fmt::format("n_b labels, one per atom of xyz_b, or NULL and 0 for one set; "
                                   "got {} and {}",
                                   labels_b ? "labels" : "NULL", n_b));
    rdf->labels[0].emplace(labels_a, labels_a + n_a);
    if (labels_b != nullptr) rdf->labels[1].emplace(labels_b, labels_b + n_b);
  });
}

kmol_status kmol_rdf_set_centres(kmol_rdf* rdf, kmol_set set, const int32_t* groups,
                                 const double* masses, int64_t n_atoms, const int32_t* bonds,
                                 int64_t n_bonds) {
  return guarded([&] {
    const std::int64_t frames = job_of(rdf).frames();
    if (set != KMOL_SET_A && set != KMOL_SET_B)
      throw InputError({"", "set", -1},
                       fmt::format("expected KMOL_SET_A or KMOL_SET_B, not {}", int(set)));
    if (frames > 0)
      throw InputError(
          {"", "groups", -1},
          fmt::format("centres are chosen before the first frame, and {} were added", frames));
    rdf->centres[set] =
        group_sites(groups, masses, n_atoms, bonds, n_bonds, set == KMOL_SET_A ? "xyz_a" : "xyz_b");
  });
}

}  // extern "C"
