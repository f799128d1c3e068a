// kmol.pair_histogram (one frame, species partials, exclusions) and kmol.RDF (g(r) accumulated over
// frames, normalised as `kmol rdf` does).
#include <pybind11/stl.h>

#include <optional>

#include "drivers/library/exclusion.hpp"
#include "drivers/library/result_check.hpp"
#include "drivers/python/common.hpp"
#include "kernels/pair_histogram/gr.hpp"
#include "kernels/pair_histogram/pair_histogram.hpp"

namespace kmol::python {
namespace {

using Labels = py::array_t<std::int32_t, py::array::c_style | py::array::forcecast>;

struct Frame {
  py::object a, b, box, species, molecules, molecules_b;
};

// One frame's counts in the working precision T; the arrays stay referenced while the GIL is off.
template <class T>
PairHistogramResult count_frame(const Frame& f, PairHistogramSettings s,
                                const std::string& device) {
  const Coordinates<T> a = coordinates<T>(f.a, "a");
  if (a.size() == 0) bad_input("a", "at least one atom");
  std::optional<Coordinates<T>> b;
  if (!f.b.is_none()) {
    b = coordinates<T>(f.b, "b");
    if (b->size() == 0) bad_input("b", "at least one atom");
  }
  PairHistogramInput<T> in{a.data(), a.size()};
  if (b) {
    in.b = b->data();
    in.n_b = b->size();
  }
  Labels species, molecules, molecules_b;
  if (!f.species.is_none()) {
    species = labels(f.species, "species", a.size());
    in.species = species.data();
  }
  if (!f.molecules.is_none()) {
    molecules = labels(f.molecules, "molecules", a.size());
    in.molecule_a = molecules.data();
  }
  if (!f.molecules_b.is_none()) {
    if (!b) bad_input("molecules_b", "None for one set (give molecules)");
    molecules_b = labels(f.molecules_b, "molecules_b", b->size());
    in.molecule_b = molecules_b.data();
  }
  if (b && (in.molecule_a == nullptr) != (in.molecule_b == nullptr))
    bad_input("molecules", "both molecules and molecules_b for two sets, or neither");
  s.box = box_from(f.box);
  return without_gil([&] {
    return on_device(device, [&](const auto& space) { return pair_histogram(space, in, s); });
  });
}

PairHistogramResult count_frame(const Frame& f, const PairHistogramSettings& s,
                                const std::string& device, Precision p) {
  return p == Precision::single ? count_frame<float>(f, s, device)
                                : count_frame<double>(f, s, device);
}

PairHistogramSettings settings_of(double r_min, double r_max, std::int32_t bins,
                                  const std::string& impl) {
  // Checked here as well as by the kernel, since the bins are allocated before any frame.
  if (bins < 1 || bins > HistogramRange<double>::max_bins)
    bad_input("bins", "between 1 and " + std::to_string(HistogramRange<double>::max_bins) +
                          " bins, not " + std::to_string(bins));
  if (!(std::isfinite(r_min) && r_min >= 0)) bad_input("r_min", "a finite r_min >= 0");
  if (!(std::isfinite(r_max) && r_max > r_min)) bad_input("r_max", "a finite r_max above r_min");
  PairHistogramSettings s;
  s.r_min = r_min;
  s.r_max = r_max;
  s.n_bins = bins;
  s.impl = pair_histogram_impl_from_string(impl);
  return s;
}

// Labels checked as the kernels' are (integers of 32 bits), as a vector; none for None.
std::vector<std::int32_t> labels_of(const py::object& o, const char* name) {
  if (o.is_none()) return {};
  const Labels checked = labels(o, name, -1);
  return {checked.data(), checked.data() + checked.size()};
}

// Molecule labels that put every pair into one molecule leave nothing to count: refused, naming
// the keyword. Returns the pairs they exclude.
std::int64_t refuse_molecules_excluding_every_pair(const py::object& molecules, const py::object& b,
                                                   const py::object& molecules_b) {
  const auto a_labels = labels_of(molecules, "molecules"),
             b_labels = labels_of(molecules_b, "molecules_b");
  const bool one_set = b.is_none();
  const std::int64_t excluded = excluded_pairs(a_labels, b_labels, one_set);
  const auto n_a = std::int64_t(a_labels.size()), n_b = std::int64_t(b_labels.size());
  refuse_excluding_every_pair(distinct_pairs(n_a, n_b, one_set, 0), excluded, "molecules",
                              "molecule");
  return excluded;
}

ResultOptions python_result_options(bool allow_empty) {
  ResultOptions o;
  o.range = "r_max";
  o.allow_empty_option = "allow_empty=True";
  o.allow_empty = allow_empty;
  return o;
}

py::array edges_of(double r_min, double r_max, std::int32_t bins) {
  const HistogramRange<double> range(r_min, r_max, bins);
  std::vector<double> edges(std::size_t(bins) + 1);
  for (std::int32_t k = 0; k <= bins; ++k) edges[k] = range.edge(k);
  return adopt(std::move(edges), {bins + 1});
}

// The species_pairs mask: bools or integers 0 and 1 (a cast would read 0.5 as off, 2 as on).
std::vector<std::uint8_t> switches(const py::handle& object) {
  const py::array raw = py::array::ensure(object);
  const char kind = raw ? raw.dtype().kind() : 'O';
  if (kind != 'b' && kind != 'i' && kind != 'u')
    bad_input("species_pairs", "a mask of 0/1 or bools, one per species pair");
  const auto v = values<std::int64_t>(raw, "species_pairs", -1);
  std::vector<std::uint8_t> on(std::size_t(v.shape(0)));
  for (std::size_t i = 0; i < on.size(); ++i) {
    if (v.data()[i] != 0 && v.data()[i] != 1)
      bad_input("species_pairs", "0 or 1 per species pair, not " + std::to_string(v.data()[i]));
    on[i] = std::uint8_t(v.data()[i]);
  }
  return on;
}

struct HistogramOut {
  py::array counts, edges;
  py::list species_pairs;
  std::string impl, launch;
};

HistogramOut histogram(py::object a, py::object b, double r_max, std::int32_t bins, double r_min,
                       py::object box, py::object species, std::int32_t n_species,
                       py::object species_pairs, py::object molecules, py::object molecules_b,
                       const std::string& impl, const std::string& device,
                       const std::string& precision, bool allow_empty) {
  PairHistogramSettings s = settings_of(r_min, r_max, bins, impl);
  if (!species.is_none()) {
    if (!b.is_none()) bad_input("species", "None with two sets (partials are for one set)");
    const auto ids = labels(species, "species", -1);
    std::int32_t most = -1;
    for (py::ssize_t i = 0; i < ids.shape(0); ++i) most = std::max(most, ids.data()[i]);
    if (n_species < 0) bad_input("n_species", "a positive number of species, or 0 to count them");
    s.n_species = n_species > 0 ? n_species : most + 1;
    if (!species_pairs.is_none()) s.species_pairs_enabled = switches(species_pairs);
  } else if (!species_pairs.is_none()) {
    bad_input("species_pairs", "None without species");
  }
  if (!molecules.is_none() && !allow_empty)
    refuse_molecules_excluding_every_pair(molecules, b, molecules_b);
  const Frame f{a, b, box, species, molecules, molecules_b};
  PairHistogramResult r = count_frame(f, s, device, precision_from(precision, a));
  // The distinct pairs where they are known (one set without exclusions), for the message.
  const std::int64_t n_a = py::len(a);
  const std::int64_t pairs = molecules.is_none() && b.is_none() ? n_a * (n_a - 1) / 2 : -1;
  const std::string warning =
      check_pair_counts(r.counts, r_min, r_max, pairs, python_result_options(allow_empty));
  if (!warning.empty()) warn_empty_result(warning);
  HistogramOut out;
  if (species.is_none()) {
    out.counts = adopt(std::move(r.counts), {bins});
  } else {
    out.counts = adopt(std::move(r.counts), {r.n_histograms, bins});
    for (std::int32_t p = 0; p < s.n_species; ++p)
      for (std::int32_t q = p; q < s.n_species; ++q) out.species_pairs.append(py::make_tuple(p, q));
  }
  out.edges = edges_of(s.r_min, s.r_max, bins);
  out.impl = to_string(r.impl_used);
  out.launch = r.launch;
  return out;
}

// g(r) over frames: counts summed, the mean 1/V of the boxes, normalised by normalize_rdf. Every
// frame must be like the first (sets, their sizes, exclusions, a box or none): one that is not is
// refused before it is counted, naming its number.
class RdfAccumulator {
 public:
  RdfAccumulator(double r_max, std::int32_t bins, double r_min, std::string norm, std::string impl,
                 std::string device, std::string precision, bool allow_empty)
      : settings_(settings_of(r_min, r_max, bins, impl)),
        norm_(rdf_normalization_from_string(norm)),
        device_(std::move(device)),
        precision_(std::move(precision)),
        allow_empty_(allow_empty) {
    summary_.counts.assign(std::size_t(bins), 0);
    summary_.r_min = r_min;
    summary_.r_max = r_max;
    use_gpu(device_);
    if (precision_ != "auto") precision_from(precision_, py::none());
  }

  void add_frame(py::object a, py::object b, py::object box, py::object molecules,
                 py::object molecules_b) {
    const Precision p = precision_from(precision_, a);
    const std::int64_t n_a = py::len(a), n_b = b.is_none() ? 0 : py::len(b);
    const BoxSpec spec = box_from(box);
    const std::int64_t excluded =
        molecules.is_none() ? 0 : refuse_molecules_excluding_every_pair(molecules, b, molecules_b);
    refuse_unlike_frame(n_a, n_b, b.is_none(), spec.kind != BoxKind::none, excluded);
    const Frame f{a, b, box, py::none(), molecules, molecules_b};
    const PairHistogramResult r = count_frame(f, settings_, device_, p);
    for (std::size_t k = 0; k < r.counts.size(); ++k) summary_.counts[k] += r.counts[k];
    summary_.n_a = n_a;
    summary_.n_b = n_b;
    summary_.one_set = b.is_none();
    summary_.excluded_pairs = excluded;
    periodic_ = spec.kind != BoxKind::none;
    inverse_volume_sum_ += spec.kind == BoxKind::none ? 0 : 1 / volume(validated(spec));
    ++summary_.frames;
    summary_.mean_inverse_volume = inverse_volume_sum_ / double(summary_.frames);
    impl_ = to_string(r.impl_used);
  }

  // The normalised result, unchecked (for its bins).
  Rdf values() const { return normalize_rdf(summary_, norm_); }
  // The normalised result, checked: not finite, or no pair counted, raises ValueError (with
  // allow_empty=True an empty one is returned with a kmol.EmptyResultWarning, once per state).
  Rdf result() {
    const Rdf rdf = normalize_rdf(summary_, norm_);
    ResultOptions options = python_result_options(allow_empty_);
    const std::string warning = check_rdf(summary_, rdf, options);
    if (!warning.empty() && warned_at_ != summary_.frames) {
      warned_at_ = summary_.frames;
      warn_empty_result(warning);
    }
    return rdf;
  }
  const RdfCountsSummary& summary() const { return summary_; }
  const std::string& impl() const { return impl_; }
  std::string norm() const { return to_string(norm_); }

 private:
  void refuse_unlike_frame(std::int64_t n_a, std::int64_t n_b, bool one_set, bool periodic,
                           std::int64_t excluded) const {
    if (summary_.frames == 0) return;
    const std::string frame = "frame " + std::to_string(summary_.frames) + ": ";
    const std::string earlier =
        summary_.frames == 1 ? "frame 0" : "frames 0 to " + std::to_string(summary_.frames - 1);
    const auto refuse = [&](const std::string& field, const std::string& what) {
      throw InputError({"", field, -1}, frame + what);
    };
    if (periodic != periodic_)
      refuse("box", periodic ? "a periodic box, but " + earlier + " had none (box=None)"
                             : "None, but " + earlier +
                                   " had a periodic box: give every frame "
                                   "its box");
    if (one_set != summary_.one_set)
      refuse("b", one_set ? "None (one set), but " + earlier + " had two sets"
                          : "a second set, but " + earlier + " had one (b=None)");
    if (n_a != summary_.n_a || n_b != summary_.n_b)
      refuse(n_a != summary_.n_a ? "a" : "b",
             std::to_string(n_a) + " and " + std::to_string(n_b) + " atoms, but " + earlier +
                 " had " + std::to_string(summary_.n_a) + " and " + std::to_string(summary_.n_b));
    if (excluded != summary_.excluded_pairs)
      refuse("molecules", "they exclude " + std::to_string(excluded) + " pairs, but those of " +
                              earlier + " " + std::to_string(summary_.excluded_pairs));
  }

  PairHistogramSettings settings_;
  RdfNormalization norm_;
  std::string device_, precision_, impl_;
  bool allow_empty_ = false, periodic_ = false;
  RdfCountsSummary summary_;
  double inverse_volume_sum_ = 0;
  std::int64_t warned_at_ = -1;  // frames when the empty result was last warned about
};

py::array array_of(std::vector<double> v) {
  const auto n = py::ssize_t(v.size());
  return adopt(std::move(v), {n});
}

}  // namespace

void bind_pair_histogram(py::module_& m) {
  py::class_<HistogramOut>(m, "PairHistogram",
                           "Pair counts of one frame: counts (uint64, per bin, or per species pair "
                           "and bin), edges (bins + 1, Angstrom), species_pairs, impl, launch.")
      .def_readonly("counts", &HistogramOut::counts)
      .def_readonly("edges", &HistogramOut::edges)
      .def_readonly("species_pairs", &HistogramOut::species_pairs)
      .def_readonly("impl", &HistogramOut::impl)
      .def_readonly("launch", &HistogramOut::launch);
  m.def("pair_histogram", &histogram, py::arg("a"), py::arg("b") = py::none(), py::kw_only(),
        py::arg("r_max"), py::arg("bins"), py::arg("r_min") = 0.0, py::arg("box") = py::none(),
        py::arg("species") = py::none(), py::arg("n_species") = 0,
        py::arg("species_pairs") = py::none(), py::arg("molecules") = py::none(),
        py::arg("molecules_b") = py::none(), py::arg("impl") = "auto", py::arg("device") = "auto",
        py::arg("precision") = "auto", py::arg("allow_empty") = false,
        R"(Histogram of pair distances in one frame, counted exactly (uint64).

a, b: (n, 3) coordinates in Angstrom. Without b, each unordered pair of a once; with b, every
  (i of a, j of b). C-contiguous float32 (precision single) or float64 (double) arrays are read in
  place; anything else is converted once.
r_max, r_min: the binned range [r_min, r_max) in Angstrom; bins: its number of equal bins.
box: None (no periodicity), (3,) edge lengths, (3, 3) edge vectors (rows) or (6,) dimensions
  [a, b, c, alpha, beta, gamma] (Angstrom, degrees); distances are minimum images.
species: one set only, int per atom (0..n_species-1): counts per species pair (s <= t) in the
  order of species_pairs; species_pairs: optional 0/1 mask switching pairs off.
molecules (and molecules_b for two sets): int labels; pairs of equal label are not counted.
impl: 'auto', 'kokkos', 'host', 'cuda' or 'cells'; device: 'auto', 'cpu' or 'gpu';
precision: 'auto' (the dtype of a), 'single' or 'double'.
Raises ValueError for bad input and for a result with no pair in [r_min, r_max) (allow_empty=True
returns it with a kmol.EmptyResultWarning), kmol.UnsupportedError when impl or device cannot run
it.)");

  py::class_<RdfAccumulator>(m, "RDF", R"(Radial distribution function accumulated over frames.

RDF(r_max, bins, r_min=0, norm='rdf', impl='auto', device='auto', precision='auto',
allow_empty=False); call add_frame(a, b=None, box=None, molecules=None, molecules_b=None) per frame
(coordinates in Angstrom, as for pair_histogram), then read counts, edges, bins (bin centres), rdf
and coordination. norm 'rdf': g(r), 1 for an ideal gas, with the mean 1/V of the boxes
(1/Angstrom^3); 'density': number density of b around an a atom (1/Angstrom^3); 'none': pairs per
frame. The same normalisation as `kmol rdf`.
Every frame must be like the first: a box or none, the same sets and sizes, the same exclusions;
add_frame raises ValueError naming the frame otherwise, and for molecules that exclude every pair.
rdf and coordination raise ValueError when no pair was counted in [r_min, r_max) or a
value is not finite (allow_empty=True: an empty result with a kmol.EmptyResultWarning).)")
      .def(py::init<double, std::int32_t, double, std::string, std::string, std::string,
                    std::string, bool>(),
           py::arg("r_max"), py::arg("bins"), py::arg("r_min") = 0.0, py::arg("norm") = "rdf",
           py::arg("impl") = "auto", py::arg("device") = "auto", py::arg("precision") = "auto",
           py::arg("allow_empty") = false)
      .def("add_frame", &RdfAccumulator::add_frame, py::arg("a"), py::arg("b") = py::none(),
           py::arg("box") = py::none(), py::arg("molecules") = py::none(),
           py::arg("molecules_b") = py::none(), "Counts one frame's pairs (GIL released).")
      .def_property_readonly("counts",
                             [](const RdfAccumulator& r) {
                               auto c = r.summary().counts;
                               const auto n = py::ssize_t(c.size());
                               return adopt(std::move(c), {n});
                             })
      .def_property_readonly("frames", [](const RdfAccumulator& r) { return r.summary().frames; })
      .def_property_readonly("edges",
                             [](const RdfAccumulator& r) { return array_of(r.values().edges); })
      .def_property_readonly("bins",
                             [](const RdfAccumulator& r) { return array_of(r.values().centres); })
      .def_property_readonly("rdf", [](RdfAccumulator& r) { return array_of(r.result().g); })
      .def_property_readonly("coordination",
                             [](RdfAccumulator& r) { return array_of(r.result().coordination); })
      .def_property_readonly("norm", &RdfAccumulator::norm)
      .def_property_readonly("impl", &RdfAccumulator::impl);
}

}  // namespace kmol::python
