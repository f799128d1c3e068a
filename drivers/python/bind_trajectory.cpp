// kmol.open: the frames of every file kmol reads (trajectories, and PDB, GRO, PQR and XYZ
// structures) as numpy arrays, with the topology's atoms as attributes.
#include <fmt/core.h>
#include <pybind11/stl.h>

#include <memory>
#include <mutex>
#include <optional>
#include <type_traits>

#include "drivers/library/elements.hpp"
#include "drivers/library/structure_frames.hpp"
#include "drivers/python/common.hpp"
#include "kmol/core/io/pqr.hpp"
#include "kmol/core/io/topology.hpp"
#include "kmol/core/io/trajectory_reader.hpp"

namespace kmol::python {
namespace {

struct FrameOut {
  py::array positions;  // (n, 3), Angstrom
  py::object box;       // (3, 3) edge vectors (rows), Angstrom, or None
  double time = 0;
  std::int64_t step = 0, index = 0;
  std::string path;
};

// One open file: a trajectory reader or a text structure's frames, its topology (its own or
// top=), and reads serialised, since they run without the GIL and no reader is thread-safe.
class TrajectoryFile {
 public:
  TrajectoryFile(const std::string& path, const std::string& top, const std::string& group,
                 const std::string& dtype)
      : path_(path_arg(path, "path")), single_(dtype == "float32") {
    if (dtype != "float64" && dtype != "float32")
      bad_input("dtype", "'float64' or 'float32', not '" + dtype + "'");
    if (is_structure_file(path_)) {
      if (!group.empty()) throw InputError({path_, "group", -1}, "applies to H5MD files only");
      open_structure();
    } else {
      open_trajectory(group);
    }
    if (!top.empty()) apply_topology(path_arg(top, "top"));
  }

  FrameOut frame(std::int64_t t) {
    const std::int64_t n = frames();
    if (t < 0) t += n;
    if (t < 0 || t >= n)
      throw py::index_error(path_ + ": frame " + std::to_string(t < 0 ? t - n : t) +
                            " is out of range: the file has " + std::to_string(n) + " frames");
    return single_ ? read<float>(t) : read<double>(t);
  }

  std::int64_t frames() const {
    require_open();
    return text_ ? text_->frames() : reader_->n_frames();
  }
  std::int64_t atoms() const { return atoms_; }
  void close() {
    const std::lock_guard<std::mutex> lock(reading_);
    reader_.reset();
    text_.reset();
    closed_ = true;
  }

  std::string path_, format_, masses_from_, note_;
  std::int64_t atoms_ = 0;
  bool single_ = false, closed_ = false;
  std::optional<io::Topology> topology_;
  std::vector<std::string> names_, elements_;
  std::vector<float> masses_;
  std::vector<double> radii_;  // a PQR file's own
  std::vector<std::int32_t> species_;
  std::vector<std::string> species_names_, warnings_;

 private:
  void require_open() const {
    if (closed_) throw InputError({path_, "", -1}, "the file is closed");
  }

  void open_structure() {
    text_ = read_structure_frames(path_);
    format_ = text_->format;
    atoms_ = std::int64_t(text_->atoms());
    names_ = text_->names;
    elements_ = text_->elements;
    masses_ = text_->masses;
    masses_from_ = text_->masses_from;
    if (format_ == "PQR") radii_ = io::read_pqr(path_).radii;
    if (format_ != "XYZ") topology_ = io::read_topology(path_);
    if (topology_) note_ = topology_->note;
  }

  void open_trajectory(const std::string& group) {
    if (io::sniff_file(path_) == io::FileKind::tpr)
      throw InputError({path_, "", -1},
                       "is a GROMACS run input (TPR), a topology without frames: give it as "
                       "top= with a trajectory");
    if (io::sniff_file(path_) == io::FileKind::text)
      throw InputError({path_, "", -1},
                       "expected a trajectory (H5MD, XTC, TRR, TNG, NetCDF) or a .pdb, .ent, "
                       ".gro, .pqr or .xyz structure; the file is " +
                           io::describe_file(path_));
    reader_ = io::open_trajectory_file(path_, group);
    format_ = reader_->description();
    atoms_ = reader_->n_atoms();
    species_ = reader_->species();
    species_names_ = reader_->species_names();
    warnings_ = reader_->warnings();
    if (!reader_->masses().empty()) {
      masses_.assign(reader_->masses().begin(), reader_->masses().end());
      masses_from_ = path_ + "'s masses";
    }
  }

  // As the command's --top: the atoms in the file's order, their names, residues, molecules,
  // charges and masses (the topology's, else by the elements of its names).
  void apply_topology(const std::string& top) {
    io::Topology t = io::read_topology(top);
    if (std::int64_t(t.size()) != atoms_)
      throw InputError({top, "", -1}, "has " + std::to_string(t.size()) + " atoms, the file " +
                                          path_ + " " + std::to_string(atoms_));
    masses_ = topology_masses(t, top, masses_from_);
    names_ = t.names;
    elements_ = topology_elements(t);
    note_ = t.note;
    topology_ = std::move(t);
  }

  template <class T>
  FrameOut read(std::int64_t t) {
    std::vector<Vec3<T>> xyz(static_cast<std::size_t>(atoms_));
    FrameOut f;
    BoxSpec box;
    without_gil([&] {
      const std::lock_guard<std::mutex> lock(reading_);
      require_open();
      if (text_) {
        const auto& p = text_->positions[std::size_t(t)];
        for (std::size_t a = 0; a < xyz.size(); ++a) xyz[a] = p[a].cast<T>();
        f.time = text_->times[std::size_t(t)];
        f.step = text_->steps[std::size_t(t)];
        box = text_->boxes[std::size_t(t)];
      } else {
        const io::FrameInfo info = reader_->read_frame(t, xyz.data());
        f.time = info.time;
        f.step = info.step;
        box = info.box;
      }
    });
    f.box = box_to_python(box);
    f.index = t;
    f.path = path_;
    f.positions = adopt<T>(std::move(xyz), {atoms_, 3});
    return f;
  }

  std::unique_ptr<io::TrajectoryReader> reader_;
  std::optional<StructureFrames> text_;
  std::mutex reading_;
};

using File = std::shared_ptr<TrajectoryFile>;

// Frames of a file in a given order, read one at a time as they are asked for.
struct FrameIterator {
  File file;
  std::vector<std::int64_t> indices;
  std::size_t next = 0;

  FrameOut advance() {
    if (next >= indices.size()) throw py::stop_iteration();
    return file->frame(indices[next++]);
  }
};

FrameIterator frames_of(const File& file, const py::slice& slice) {
  std::size_t start = 0, stop = 0, step = 0, length = 0;
  if (!slice.compute(std::size_t(file->frames()), &start, &stop, &step, &length))
    throw py::error_already_set();
  FrameIterator it{file, {}, 0};
  for (std::size_t i = 0; i < length; ++i) it.indices.push_back(std::int64_t(start + i * step));
  return it;
}

// None for what no file gives (an empty list or text), else the value as Python has it.
template <class T>
py::object or_none(const std::vector<T>& v) {
  if (v.empty()) return py::none();
  if constexpr (std::is_arithmetic_v<T>) return py::array_t<T>(py::ssize_t(v.size()), v.data());
  return py::cast(v);
}

py::object or_none(const std::string& text) {
  return text.empty() ? py::object(py::none()) : py::object(py::str(text));
}

// A getter of a topology's field, None without a topology.
template <class Field>
auto topology_field(Field io::Topology::*field) {
  return [field](const TrajectoryFile& t) -> py::object {
    return t.topology_ ? or_none((*t.topology_).*field) : py::object(py::none());
  };
}

std::string box_words(const py::object& box) {
  if (box.is_none()) return "no box";
  const auto e = box.cast<py::array_t<double>>().unchecked<2>();
  if (e(0, 1) == 0 && e(0, 2) == 0 && e(1, 0) == 0 && e(1, 2) == 0 && e(2, 0) == 0 && e(2, 1) == 0)
    return fmt::format("box ({:.6g}, {:.6g}, {:.6g}) A", e(0, 0), e(1, 1), e(2, 2));
  return "triclinic box";
}

std::string frame_repr(const FrameOut& f) {
  return fmt::format("<kmol.Frame {} of {}: {} atoms, time {:.6g}, step {}, {}>", f.index, f.path,
                     py::len(f.positions), f.time, f.step, box_words(f.box));
}

std::string file_repr(const TrajectoryFile& t) {
  if (t.closed_) return fmt::format("<kmol.Trajectory {} (closed)>", t.path_);
  return fmt::format("<kmol.Trajectory {} ({}): {} frames of {} atoms{}>", t.path_, t.format_,
                     t.frames(), t.atoms(), t.topology_ ? "" : ", no topology");
}

}  // namespace

void bind_trajectory(py::module_& m) {
  py::class_<FrameOut>(m, "Frame",
                       "One frame: positions (n, 3) Angstrom, box ((3, 3) edge vectors as rows, "
                       "Angstrom, or None), time (as the file stores it: ps for GROMACS and "
                       "AMBER files), step, index (the frame's number in the file, from 0).")
      .def_readonly("positions", &FrameOut::positions)
      .def_readonly("box", &FrameOut::box)
      .def_readonly("time", &FrameOut::time)
      .def_readonly("step", &FrameOut::step)
      .def_readonly("index", &FrameOut::index)
      .def("__repr__", &frame_repr);

  py::class_<FrameIterator>(m, "FrameIterator", "Frames read one at a time as they are asked for.")
      .def("__iter__", [](FrameIterator& it) -> FrameIterator& { return it; })
      .def("__next__", &FrameIterator::advance)
      .def("__len__", [](const FrameIterator& it) { return it.indices.size() - it.next; });

  py::class_<TrajectoryFile, File>(m, "Trajectory", R"(A file kmol reads, opened by kmol.open.

Iterating gives kmol.Frame objects in order; t[i] reads frame i (negative from the end), t[a:b:c]
iterates over those frames; len(t) is the number of frames. Attributes: path, format, n_atoms,
n_frames; the topology's names, elements (as kmol tells them from names and residues), resnames,
resids, residues (0-based), molecules (0-based), chains, charges (e) and masses (g/mol; by element
where the files give none, NaN for an element kmol does not tabulate; masses_from says which),
None where no file gives them; radii (a PQR file's own, Angstrom, 0 where it gives none); species and species_names (H5MD); note (how molecules were told) and
warnings. close() (or a with block) closes the file.)")
      .def_property_readonly("path", [](const TrajectoryFile& t) { return t.path_; })
      .def_property_readonly("format", [](const TrajectoryFile& t) { return t.format_; })
      .def_property_readonly("n_atoms", &TrajectoryFile::atoms)
      .def_property_readonly("n_frames", &TrajectoryFile::frames)
      .def("__len__", &TrajectoryFile::frames)
      .def("__getitem__", &TrajectoryFile::frame, py::arg("index"))
      .def("__getitem__", &frames_of, py::arg("frames"))
      .def(
          "__iter__",
          [](const File& t) { return frames_of(t, py::slice(py::none(), py::none(), py::none())); })
      .def_property_readonly("names", [](const TrajectoryFile& t) { return or_none(t.names_); })
      .def_property_readonly("elements",
                             [](const TrajectoryFile& t) { return or_none(t.elements_); })
      .def_property_readonly("resnames", topology_field(&io::Topology::resnames))
      .def_property_readonly("chains", topology_field(&io::Topology::chains))
      .def_property_readonly("resids", topology_field(&io::Topology::resids))
      .def_property_readonly("residues", topology_field(&io::Topology::residues))
      .def_property_readonly("molecules", topology_field(&io::Topology::molecules))
      .def_property_readonly("charges", topology_field(&io::Topology::charges))
      .def_property_readonly(
          "masses",
          [](const TrajectoryFile& t) {
            return or_none(std::vector<double>(t.masses_.begin(), t.masses_.end()));
          })
      .def_property_readonly("masses_from",
                             [](const TrajectoryFile& t) { return or_none(t.masses_from_); })
      .def_property_readonly("radii", [](const TrajectoryFile& t) { return or_none(t.radii_); })
      .def_property_readonly("species", [](const TrajectoryFile& t) { return or_none(t.species_); })
      .def_property_readonly("species_names",
                             [](const TrajectoryFile& t) { return or_none(t.species_names_); })
      .def_property_readonly("note", [](const TrajectoryFile& t) { return or_none(t.note_); })
      .def_property_readonly("warnings", [](const TrajectoryFile& t) { return t.warnings_; })
      .def("close", &TrajectoryFile::close, "Closes the file; reading a frame then raises.")
      .def("__enter__", [](const File& t) { return t; })
      .def("__exit__", [](TrajectoryFile& t, py::args) { t.close(); })
      .def("__repr__", &file_repr);

  m.def(
      "open",
      [](const std::string& path, py::object top, py::object group, const std::string& dtype) {
        return std::make_shared<TrajectoryFile>(path, top.is_none() ? "" : top.cast<std::string>(),
                                                group.is_none() ? "" : group.cast<std::string>(),
                                                dtype);
      },
      py::arg("path"), py::arg("top") = py::none(), py::kw_only(), py::arg("group") = py::none(),
      py::arg("dtype") = "float64",
      R"(Opens any file kmol reads and returns a kmol.Trajectory of its frames.

path: a trajectory (H5MD, GROMACS XTC, TRR or TNG, AMBER NetCDF; told by content) or a structure
(.pdb/.ent: every MODEL a frame, CRYST1 the box; .gro: every frame, nm read as Angstrom; .pqr: one
frame; .xyz: every frame). top: a topology in the file's atom order (TPR, PDB, GRO or PQR), as the
command's --top: names, residues, molecules, charges and masses. group: the H5MD particle group
(as --group). dtype: 'float64' or 'float32' positions (RDF.add_frame's precision='auto' follows
it). Positions are in Angstrom whatever the file stores. Errors name the file: ValueError for a
file kmol cannot read or a topology of other atoms, IndexError for a frame beyond the file.)");
}

}  // namespace kmol::python
