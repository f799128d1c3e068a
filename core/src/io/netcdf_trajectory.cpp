// AMBER NetCDF trajectories (the convention of AMBER, cpptraj, OpenMM and MDAnalysis) through
// Debian's libnetcdf: coordinates [frame][atom][spatial] with a length unit, optional
// cell_lengths [frame][3] and cell_angles [frame][3] (degrees), and optional velocities
// [frame][atom][spatial] (length unit per picosecond, times the variable's scale_factor: AMBER
// stores its internal velocity unit with scale_factor 20.455). One frame is one hyperslab.
#include <netcdf.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "kmol/core/errors.hpp"
#include "kmol/core/io/contained_call.hpp"
#include "netcdf_readers.hpp"

namespace kmol::io::netcdf {
namespace {

constexpr double degrees = M_PI / 180;

class AmberReader final : public TrajectoryReader {
 public:
  explicit AmberReader(const std::string& path) : path_(path) {
    check_classic_header(path);
    probe_open(path);
    check(nc_open(path.c_str(), NC_NOWRITE, &file_), "", "cannot open the NetCDF file");
    if (nc_inq_varid(file_, "coordinates", &coordinates_) != NC_NOERR)
      throw InputError({path_, "coordinates", -1},
                       "no 'coordinates' variable: not an AMBER NetCDF trajectory (expected "
                       "coordinates [frame][atom][spatial])");
    int dims = 0;
    int ids[NC_MAX_VAR_DIMS];
    check(nc_inq_var(file_, coordinates_, nullptr, nullptr, &dims, ids, nullptr), "coordinates",
          "unreadable");
    std::size_t lengths[3] = {0, 0, 0};
    for (int d = 0; d < dims && d < 3; ++d) nc_inq_dimlen(file_, ids[d], &lengths[d]);
    if (dims != 3 || lengths[2] != 3)
      throw InputError({path_, "coordinates", -1},
                       "expected dimensions [frame][atom][spatial = 3], found " +
                           std::to_string(dims) + " dimensions");
    frames_ = std::int64_t(lengths[0]);
    atoms_ = std::int64_t(lengths[1]);
    factor_ = length_factor(coordinates_, "coordinates");
    const bool lengths_given = nc_inq_varid(file_, "cell_lengths", &cell_lengths_) == NC_NOERR;
    const bool angles_given = nc_inq_varid(file_, "cell_angles", &cell_angles_) == NC_NOERR;
    if (lengths_given != angles_given)
      throw InputError({path_, lengths_given ? "cell_angles" : "cell_lengths", -1},
                       "missing: a periodic cell needs both cell_lengths and cell_angles");
    if (lengths_given) cell_factor_ = length_factor(cell_lengths_, "cell_lengths");
    has_cell_ = lengths_given;
    if (nc_inq_varid(file_, "velocities", &velocities_) == NC_NOERR) open_velocities(ids);
    buffer_.resize(3 * std::size_t(atoms_));
    if (frames_ > 0) first_box_ = frame_info(0).box;
  }
  ~AmberReader() override { nc_close(file_); }

  const std::string& path() const override { return path_; }
  std::string description() const override { return "AMBER NetCDF"; }
  std::int64_t n_frames() const override { return frames_; }
  std::int64_t n_atoms() const override { return atoms_; }
  BoxKind box_kind() const override { return first_box_.kind; }

  FrameInfo read_frame(std::int64_t t, Vec3<float>* p) override { return read(t, p); }
  FrameInfo read_frame(std::int64_t t, Vec3<double>* p) override { return read(t, p); }

  bool has_velocities(std::int64_t t) override { return velocities_ >= 0 && t >= 0 && t < frames_; }
  FrameInfo read_frame_with_velocities(std::int64_t t, Vec3<double>* p, Vec3<double>* v) override {
    if (!has_velocities(t)) return TrajectoryReader::read_frame_with_velocities(t, p, v);
    const FrameInfo info = read(t, p);
    read_vectors(t, velocities_, "velocities", velocity_factor_, v);
    return info;
  }

  FrameInfo frame_info(std::int64_t t) override {
    if (t < 0 || t >= frames_)
      throw InputError({path_, "frame", long(t)},
                       "the file has " + std::to_string(frames_) + " frames");
    FrameInfo info{t, t, 0.0, BoxSpec::none()};
    int time = -1;
    if (nc_inq_varid(file_, "time", &time) == NC_NOERR) {
      const std::size_t at[1] = {std::size_t(t)};
      float value = 0;
      if (nc_get_var1_float(file_, time, at, &value) == NC_NOERR) info.time = value;
    }
    if (has_cell_) info.box = box_of(t);
    return info;
  }

 private:
  // libnetcdf opens the file first in a child with a time and memory limit: a header the grammar
  // check lets through (or a NetCDF-4 one) that makes it crash or grow without end is refused.
  static void probe_open(const std::string& path) {
    contained_call(
        path, "the NetCDF header",
        [&] {
          int file = -1;
          if (nc_open(path.c_str(), NC_NOWRITE, &file) == NC_NOERR) nc_close(file);
          return std::string();
        },
        "libnetcdf");
  }

  template <class T>
  FrameInfo read(std::int64_t t, Vec3<T>* positions) {
    const FrameInfo info = frame_info(t);
    read_vectors(t, coordinates_, "coordinates", factor_, positions);
    return info;
  }

  // Frame t of a [frame][atom][spatial] variable, scaled, refusing values that are not finite as
  // stored or once scaled to Angstrom in T (a float in nanometres can overflow).
  template <class T>
  void read_vectors(std::int64_t t, int variable, const char* name, double factor, Vec3<T>* out) {
    const std::size_t start[3] = {std::size_t(t), 0, 0};
    const std::size_t count[3] = {1, std::size_t(atoms_), 3};
    check(nc_get_vara_float(file_, variable, start, count, buffer_.data()), name,
          "cannot read frame " + std::to_string(t));
    for (std::int64_t i = 0; i < atoms_; ++i) {
      const float* r = &buffer_[3 * std::size_t(i)];
      if (!std::isfinite(r[0]) || !std::isfinite(r[1]) || !std::isfinite(r[2]))
        throw InputError({path_, "frame", long(t)},
                         "atom " + std::to_string(i) + " has non-finite " + name);
      out[i] = {T(factor * r[0]), T(factor * r[1]), T(factor * r[2])};
      if (!std::isfinite(out[i].x) || !std::isfinite(out[i].y) || !std::isfinite(out[i].z))
        throw InputError({path_, "frame", long(t)}, "atom " + std::to_string(i) + "'s " + name +
                                                        " overflow once scaled to Angstrom");
    }
  }

  // velocities: the coordinates' dimensions, "<length>/picosecond" units and any scale_factor.
  void open_velocities(const int* coordinate_dims) {
    int dims = 0;
    int ids[NC_MAX_VAR_DIMS];
    check(nc_inq_var(file_, velocities_, nullptr, nullptr, &dims, ids, nullptr), "velocities",
          "unreadable");
    if (dims != 3 || !std::equal(ids, ids + 3, coordinate_dims))
      throw InputError({path_, "velocities", -1},
                       "expected the dimensions of coordinates, [frame][atom][spatial]");
    std::size_t length = 0;
    std::string units = "angstrom/picosecond";  // AMBER's, when the attribute is absent
    if (nc_inq_attlen(file_, velocities_, "units", &length) == NC_NOERR) {
      units.assign(length, '\0');
      check(nc_get_att_text(file_, velocities_, "units", units.data()), "velocities",
            "unreadable units");
      while (!units.empty() && (units.back() == '\0' || units.back() == ' ')) units.pop_back();
    }
    const auto slash = units.find('/');
    const std::string length_unit = units.substr(0, slash);
    const std::string time_unit = slash == std::string::npos ? "" : units.substr(slash + 1);
    if (time_unit != "picosecond" && time_unit != "picoseconds" && time_unit != "ps")
      throw InputError({path_, "velocities", -1},
                       "unknown velocity unit '" + units + "' (expected angstrom/picosecond)");
    velocity_factor_ = length_scale(length_unit, "velocities");
    double scale = 1;
    if (nc_get_att_double(file_, velocities_, "scale_factor", &scale) == NC_NOERR)
      velocity_factor_ *= scale;
  }

  // a along x, b in the xy plane: the vectors of lengths a, b, c and angles alpha, beta, gamma.
  BoxSpec box_of(std::int64_t t) {
    const std::size_t start[2] = {std::size_t(t), 0}, count[2] = {1, 3};
    double l[3], angle[3];
    check(nc_get_vara_double(file_, cell_lengths_, start, count, l), "cell_lengths",
          "cannot read frame " + std::to_string(t));
    check(nc_get_vara_double(file_, cell_angles_, start, count, angle), "cell_angles",
          "cannot read frame " + std::to_string(t));
    for (double& x : l) x *= cell_factor_;
    if (l[0] == 0 && l[1] == 0 && l[2] == 0) return BoxSpec::none();
    if (angle[0] == 90 && angle[1] == 90 && angle[2] == 90)
      return BoxSpec::orthorhombic(l[0], l[1], l[2]);
    const double ca = std::cos(angle[0] * degrees), cb = std::cos(angle[1] * degrees),
                 cg = std::cos(angle[2] * degrees), sg = std::sin(angle[2] * degrees);
    const double cy = (ca - cb * cg) / sg;
    return BoxSpec::triclinic({l[0], 0, 0}, {l[1] * cg, l[1] * sg, 0},
                              {l[2] * cb, l[2] * cy, l[2] * std::sqrt(1 - cb * cb - cy * cy)});
  }

  double length_factor(int variable, const std::string& name) {
    std::size_t length = 0;
    if (nc_inq_attlen(file_, variable, "units", &length) != NC_NOERR) return 1;  // AMBER: Angstrom
    std::string units(length, '\0');
    check(nc_get_att_text(file_, variable, "units", units.data()), name, "unreadable units");
    while (!units.empty() && (units.back() == '\0' || units.back() == ' ')) units.pop_back();
    return length_scale(units, name);
  }

  double length_scale(const std::string& units, const std::string& name) const {
    if (units == "angstrom" || units == "angstroms" || units == "Angstrom" || units == "A")
      return 1;
    if (units == "nanometer" || units == "nanometers" || units == "nm") return 10;
    throw InputError({path_, name, -1},
                     "unknown length unit '" + units + "' (expected angstrom or nanometer)");
  }

  void check(int status, const std::string& field, const std::string& what) const {
    if (status != NC_NOERR)
      throw InputError({path_, field, -1}, what + " (" + nc_strerror(status) + ")");
  }

  std::string path_;
  int file_ = -1, coordinates_ = -1, cell_lengths_ = -1, cell_angles_ = -1, velocities_ = -1;
  bool has_cell_ = false;
  std::int64_t frames_ = 0, atoms_ = 0;
  double factor_ = 1, cell_factor_ = 1, velocity_factor_ = 1;
  std::vector<float> buffer_;
  BoxSpec first_box_;
};

}  // namespace

std::unique_ptr<TrajectoryReader> open_amber(const std::string& path) {
  return std::make_unique<AmberReader>(path);
}

std::string library_version() { return std::string("libnetcdf ") + nc_inq_libvers(); }

}  // namespace kmol::io::netcdf
