// kmol.pair_histogram (one frame, species partials, exclusions) and kmol.RDF (g(r) accumulated over
// frames, normalised as `kmol rdf` does).
#include <fmt/core.h>
#include <pybind11/stl.h>

#include <optional>

#include "drivers/library/exclusion.hpp"
#include "drivers/library/rdf_job.hpp"
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

// A frame's arrays in the working precision T, checked and converted once; the numpy arrays are
// held (their data stays put), so input() may be used while the GIL is off.
template <class T>
struct FrameArrays {
  Coordinates<T> a;
  std::optional<Coordinates<T>> b;
  std::optional<Labels> species, molecules, molecules_b;

  PairHistogramInput<T> input() const {
    PairHistogramInput<T> in{a.data(), a.size()};
    if (b) {
      in.b = b->data();
      in.n_b = b->size();
    }
    if (species) in.species = species->data();
    if (molecules) in.molecule_a = molecules->data();
    if (molecules_b) in.molecule_b = molecules_b->data();
    return in;
  }
};

template <class T>
FrameArrays<T> arrays_of(const Frame& f) {
  FrameArrays<T> arrays{coordinates<T>(f.a, "a"), std::nullopt, std::nullopt, std::nullopt,
                        std::nullopt};
  if (arrays.a.size() == 0) bad_input("a", "at least one atom");
  if (!f.b.is_none()) {
    arrays.b = coordinates<T>(f.b, "b");
    if (arrays.b->size() == 0) bad_input("b", "at least one atom");
  }
  if (!f.species.is_none()) arrays.species = labels(f.species, "species", arrays.a.size());
  if (!f.molecules.is_none()) arrays.molecules = labels(f.molecules, "molecules", arrays.a.size());
  if (!f.molecules_b.is_none()) {
    if (!arrays.b) bad_input("molecules_b", "None for one set (give molecules)");
    arrays.molecules_b = labels(f.molecules_b, "molecules_b", arrays.b->size());
  }
  if (arrays.b && f.molecules.is_none() != f.molecules_b.is_none())
    bad_input("molecules", "both molecules and molecules_b for two sets, or neither");
  return arrays;
}

// One frame's counts in the working precision T.
template <class T>
PairHistogramResult count_frame(const Frame& f, PairHistogramSettings s,
                                const std::string& device) {
  const FrameArrays<T> arrays = arrays_of<T>(f);
  s.box = box_from(f.box);
  return without_gil([&] {
    return on_device(device,
                     [&](const auto& space) { return pair_histogram(space, arrays.input(), s); });
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
  const py::array raw = as_array<py::array>(object);
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

// kmol.RDF: the RDF job (rdf_job.hpp) with Python's names, the device keyword and the precision
// of each frame ('auto': its dtype).
// plane=: None (3-D distances) or 'xy', 'xz', 'yz'.
Plane plane_of(const py::object& plane) {
  if (plane.is_none()) return Plane::none;
  if (!py::isinstance<py::str>(plane))
    bad_input("plane", "'xy', 'xz', 'yz' or None, not " + py::repr(plane).cast<std::string>());
  return plane_from_string(plane.cast<std::string>());
}

RdfSettings rdf_settings(double r_max, std::int32_t bins, double r_min, const std::string& norm,
                         const std::string& impl, const std::string& device, bool allow_empty,
                         const py::object& plane) {
  RdfSettings s;
  s.plane = plane_of(plane);
  s.r_min = r_min;
  s.r_max = r_max;
  s.bins = bins;
  s.norm = rdf_normalization_from_string(norm);
  s.impl = pair_histogram_impl_from_string(impl);
  s.device = device_policy_from_string(device, python_device);
  s.device_option = python_device;
  s.result = python_result_options(allow_empty);
  s.names.r_min = "r_min";
  s.names.r_max = "r_max";
  s.names.bins = "bins";
  s.names.norm = "norm";
  s.names.plane = "plane";
  s.names.kb = "kb";
  s.names.boxless_norms = "norm='density' or 'none'";
  s.names.blocks = "blocks";
  s.names.ask_blocks = "RDF(..., blocks=N or 'auto')";
  s.names.auto_blocks = "'auto'";
  return s;
}

class RdfAccumulator {
 public:
  RdfAccumulator(double r_max, std::int32_t bins, double r_min, const std::string& norm,
                 const std::string& impl, const std::string& device, std::string precision,
                 bool allow_empty, py::object blocks, py::object plane)
      : job_(rdf_settings(r_max, bins, r_min, norm, impl, device, allow_empty, plane)),
        precision_(std::move(precision)) {
    if (precision_ != "auto") precision_from(precision_, py::none());
    if (blocks.is_none()) return;
    std::int64_t requested = 0;  // 'auto'
    if (py::isinstance<py::int_>(blocks) && !py::isinstance<py::bool_>(blocks) &&
        blocks.cast<std::int64_t>() >= 2) {
      requested = blocks.cast<std::int64_t>();
    } else if (!py::isinstance<py::str>(blocks) || blocks.cast<std::string>() != "auto") {
      throw InputError({"", "blocks", -1},
                       "must be a number of blocks, 2 or more, 'auto' or None, not " +
                           py::repr(blocks).cast<std::string>());
    }
    job_.keep_blocks(requested);
  }

  // The frames so far in blocks, with the standard errors of g and n (ValueError without
  // blocks=, or with more blocks than frames).
  RdfBlockErrors block_errors() const { return job_.frame_block_errors(); }
  KirkwoodBuff kirkwood_buff() const { return job_.kirkwood_buff(); }

  void add_frame(py::object a, py::object b, py::object box, py::object molecules,
                 py::object molecules_b) {
    const Frame f{a, b, box, py::none(), molecules, molecules_b};
    if (precision_from(precision_, a) == Precision::single)
      add<float>(f);
    else
      add<double>(f);
  }

  // The normalised result, unchecked (for its bins).
  Rdf values() const { return job_.values(); }
  // The normalised result, checked: not finite, or no pair counted, raises ValueError (with
  // allow_empty=True an empty one is returned with a kmol.EmptyResultWarning, once per state).
  Rdf result() {
    RdfResult r = job_.result();
    if (!r.warning.empty() && warned_at_ != job_.frames()) {
      warned_at_ = job_.frames();
      warn_empty_result(r.warning);
    }
    return std::move(r.rdf);
  }
  const RdfCountsSummary& summary() const { return job_.summary(); }
  const std::string& impl() const { return job_.impl(); }
  std::string norm() const { return to_string(job_.settings().norm); }

 private:
  // Checked and added with the GIL held; counted without it.
  template <class T>
  void add(const Frame& f) {
    const FrameArrays<T> arrays = arrays_of<T>(f);
    const RdfFrame<T> frame{arrays.input(), box_from(f.box)};
    const RdfPairs pairs = job_.check_frame(frame);
    const PairHistogramResult counted = without_gil([&] { return job_.count(frame); });
    job_.add_counted(frame, pairs, counted);
  }

  RdfJob job_;
  std::string precision_;
  std::int64_t warned_at_ = -1;  // frames when the empty result was last warned about
};

py::array array_of(std::vector<double> v) {
  const auto n = py::ssize_t(v.size());
  return adopt(std::move(v), {n});
}

// RDF.kb: the Kirkwood-Buff integrals as arrays.
struct KirkwoodBuffOut {
  py::array r, running, finite_volume, closed;
  double infinite = 0, fit_from = 0, fit_to = 0;
};

KirkwoodBuffOut kirkwood_buff_out(KirkwoodBuff kb) {
  return {array_of(std::move(kb.r)),
          array_of(std::move(kb.running)),
          array_of(std::move(kb.finite_volume)),
          array_of(std::move(kb.closed)),
          kb.infinite,
          kb.fit_from,
          kb.fit_to};
}

std::string histogram_repr(const HistogramOut& h) {
  const auto edges = h.edges.cast<py::array_t<double>>();
  const auto counts = h.counts.cast<py::array_t<std::uint64_t>>();
  std::uint64_t pairs = 0;
  for (py::ssize_t i = 0; i < counts.size(); ++i) pairs += counts.data()[i];
  const py::ssize_t bins = edges.size() - 1;
  const std::string partials =
      h.species_pairs.empty() ? "" : fmt::format(" x {} species pairs", py::len(h.species_pairs));
  return fmt::format("<kmol.PairHistogram {} bins{} over [{:.6g}, {:.6g}) A, {} pairs, impl {}>",
                     bins, partials, edges.data()[0], edges.data()[bins], pairs, h.impl);
}

std::string rdf_repr(const RdfAccumulator& r) {
  const RdfCountsSummary& s = r.summary();
  return fmt::format("<kmol.RDF {} bins over [{:.6g}, {:.6g}) A, norm {}, {} frame{}>",
                     s.counts.size(), s.r_min, s.r_max, r.norm(), s.frames,
                     s.frames == 1 ? "" : "s");
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
      .def_readonly("launch", &HistogramOut::launch)
      .def("__repr__", &histogram_repr);
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

  py::class_<KirkwoodBuffOut>(
      m, "KirkwoodBuff",
      "Kirkwood-Buff integrals of an RDF (docs/trajectories.md), per bin's upper edge r (A): "
      "running G(R) with Ganguly and van der Vegt's correction, finite_volume G_V(R) over a "
      "sphere of diameter R (Krueger, Schnell et al.), closed G_V(R) of the box's own g (A^3); "
      "infinite: G from the fit of R G_V(R) = G R + F over [fit_from, fit_to].")
      .def_readonly("r", &KirkwoodBuffOut::r)
      .def_readonly("running", &KirkwoodBuffOut::running)
      .def_readonly("finite_volume", &KirkwoodBuffOut::finite_volume)
      .def_readonly("closed", &KirkwoodBuffOut::closed)
      .def_readonly("infinite", &KirkwoodBuffOut::infinite)
      .def_readonly("fit_from", &KirkwoodBuffOut::fit_from)
      .def_readonly("fit_to", &KirkwoodBuffOut::fit_to);

  py::class_<RdfAccumulator>(m, "RDF", R"(Radial distribution function accumulated over frames.

RDF(r_max, bins, r_min=0, norm='rdf', impl='auto', device='auto', precision='auto',
allow_empty=False, blocks=None, plane=None); call add_frame(a, b=None, box=None, molecules=None, molecules_b=None) per frame
(coordinates in Angstrom, as for pair_histogram), then read counts, edges, bins (bin centres), rdf
and coordination. norm 'rdf': g(r), 1 for an ideal gas, with the mean 1/V of the boxes
(1/Angstrom^3); 'density': number density of b around an a atom (1/Angstrom^3); 'none': pairs per
frame. The same normalisation as `kmol rdf`.
Every frame must be like the first: a box or none, the same sets and sizes, the same exclusions;
add_frame raises ValueError naming the frame otherwise, and for molecules that exclude every pair.
rdf and coordination raise ValueError when no pair was counted in [r_min, r_max) or a
value is not finite (allow_empty=True: an empty result with a kmol.EmptyResultWarning).
blocks=N or 'auto' keeps each frame's counts, for std_error and coordination_std_error (the
standard errors per bin) and block_rdf: N blocks of floor(frames / N) consecutive frames, the
error that of their mean; 'auto': blocking analysis over single frames chooses the block (as
`kmol rdf --blocks`, docs/trajectories.md).
plane='xy', 'xz' or 'yz': distances within the plane (2-D RDFs, `kmol rdf --plane`, gmx rdf -xy),
the box periodic along its two edges in it; rdf divides by annuli and the box's area in the plane.
kb: the Kirkwood-Buff integrals of the frames so far (`kmol rdf --kb`): r, running,
finite_volume, closed per bin (A^3), infinite (the fitted G), fit_from and fit_to.)")
      .def(py::init<double, std::int32_t, double, std::string, std::string, std::string,
                    std::string, bool, py::object, py::object>(),
           py::arg("r_max"), py::arg("bins"), py::arg("r_min") = 0.0, py::arg("norm") = "rdf",
           py::arg("impl") = "auto", py::arg("device") = "auto", py::arg("precision") = "auto",
           py::arg("allow_empty") = false, py::arg("blocks") = py::none(),
           py::arg("plane") = py::none())
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
      .def_property_readonly(
          "std_error", [](const RdfAccumulator& r) { return array_of(r.block_errors().g_error); },
          "Standard error of rdf per bin, from blocks of the frames added (blocks=)")
      .def_property_readonly(
          "coordination_std_error",
          [](const RdfAccumulator& r) { return array_of(r.block_errors().coordination_error); },
          "Standard error of coordination per bin, from the same blocks")
      .def_property_readonly(
          "block_rdf",
          [](const RdfAccumulator& r) {
            const RdfBlockErrors e = r.block_errors();
            std::vector<double> flat;
            for (const Rdf& b : e.blocks) flat.insert(flat.end(), b.g.begin(), b.g.end());
            const auto n = py::ssize_t(e.blocks.size());
            const auto bins = n > 0 ? py::ssize_t(flat.size()) / n : 0;
            return adopt(std::move(flat), {n, bins});
          },
          "Each block's rdf [block][bin] (blocks=N: N blocks of floor(frames / N) frames; "
          "'auto': single frames, of which blocking analysis chose the block)")
      .def_property_readonly(
          "error_block",
          [](const RdfAccumulator& r) {
            const RdfBlockErrors e = r.block_errors();
            return py::make_tuple(e.blocking.block * e.frames_per_block, e.blocking.converged);
          },
          "(frames, converged): the frames in each block the errors come from, and whether the "
          "errors settled at that length (False: blocking found no plateau; they are too low)")
      .def_property_readonly(
          "kb", [](const RdfAccumulator& r) { return kirkwood_buff_out(r.kirkwood_buff()); },
          "Kirkwood-Buff integrals of the frames so far (ValueError without a box, with r_min > 0 "
          "or a plane)")
      .def_property_readonly("norm", &RdfAccumulator::norm)
      .def_property_readonly("impl", &RdfAccumulator::impl)
      .def("__repr__", &rdf_repr);
}

}  // namespace kmol::python
