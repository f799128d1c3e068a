#include "kmol/core/io/trajectory_reader.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <fstream>

#include "kmol/core/errors.hpp"
#include "kmol/core/io/h5md_reader.hpp"
#include "kmol/core/io/hdf5_handle.hpp"
#include "kmol/core/names.hpp"
#ifdef KMOL_HAVE_GROMACS
#include "gromacs_readers.hpp"
#endif
#ifdef KMOL_HAVE_NETCDF
#include "netcdf_readers.hpp"
#endif

namespace kmol::io {
namespace {

std::string first_bytes(const std::string& path, std::size_t n) {
  struct stat info {};
  if (stat(path.c_str(), &info) != 0) throw InputError({path, "", -1}, "no such file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError({path, "", -1}, "cannot open the file");
  std::string bytes(n, '\0');
  in.read(bytes.data(), std::streamsize(n));
  bytes.resize(std::size_t(in.gcount()));
  return bytes;
}

bool starts_with(const std::string& s, const char* prefix, std::size_t n) {
  return s.size() >= n && std::memcmp(s.data(), prefix, n) == 0;
}

bool contains(const std::string& s, const char* what) { return s.find(what) != std::string::npos; }

bool is_text(const std::string& bytes) {
  return !bytes.empty() && std::all_of(bytes.begin(), bytes.end(), [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return u == '\n' || u == '\r' || u == '\t' || (u >= 32 && u < 127) || u >= 128;
  });
}

// A trajectory reader whose file, atoms and labels are those of the reader it wraps (an
// H5mdReader or another TrajectoryReader); subclasses say what its frames are.
template <class Source>
class ForwardedReader : public TrajectoryReader {
 public:
  const std::string& path() const override { return reader_->path(); }
  std::int64_t n_frames() const override { return reader_->n_frames(); }
  std::int64_t n_atoms() const override { return reader_->n_atoms(); }
  BoxKind box_kind() const override { return reader_->box_kind(); }
  const std::vector<std::int32_t>& species() const override { return reader_->species(); }
  const std::vector<std::string>& species_names() const override {
    return reader_->species_names();
  }
  const std::vector<double>& masses() const override { return reader_->masses(); }
  const std::vector<std::string>& warnings() const override { return reader_->warnings(); }
  double convert_seconds() const override { return reader_->convert_seconds(); }

 protected:
  explicit ForwardedReader(std::unique_ptr<Source> reader) : reader_(std::move(reader)) {}
  std::unique_ptr<Source> reader_;
};

class H5mdTrajectory final : public ForwardedReader<H5mdReader> {
 public:
  H5mdTrajectory(const std::string& path, const std::string& group)
      : H5mdTrajectory(std::make_unique<H5mdReader>(path, group)) {}
  explicit H5mdTrajectory(std::unique_ptr<H5mdReader> reader)
      : ForwardedReader(std::move(reader)) {}

  std::string description() const override { return "H5MD particles/" + reader_->particle_group(); }
  FrameInfo read_frame(std::int64_t t, Vec3<float>* p) override {
    return converted(reader_->read_frame(t, p));
  }
  FrameInfo read_frame(std::int64_t t, Vec3<double>* p) override {
    return converted(reader_->read_frame(t, p));
  }
  FrameInfo frame_info(std::int64_t t) override { return converted(reader_->frame_info(t)); }
  // Readers on other threads read frames beside this one (H5mdReader::another).
  std::unique_ptr<TrajectoryReader> another_reader() const override {
    auto another = reader_->another();
    return another ? std::make_unique<H5mdTrajectory>(std::move(another)) : nullptr;
  }
  bool has_velocities(std::int64_t) override { return reader_->has_velocities(); }
  FrameInfo read_frame_with_velocities(std::int64_t t, Vec3<double>* p, Vec3<double>* v) override {
    return converted(reader_->read_frame(t, p, v));
  }

 private:
  static FrameInfo converted(const H5mdFrameInfo& i) { return {i.index, i.step, i.time, i.box}; }
};

// NetCDF-4 files are HDF5 files: an AMBER one has a root `coordinates` and no H5MD `particles`.
bool is_netcdf4_amber(const std::string& path) {
  QuietHdf5 quiet;
  Hid file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
  return file.valid() && H5Lexists(file.get(), "coordinates", H5P_DEFAULT) > 0 &&
         H5Lexists(file.get(), "particles", H5P_DEFAULT) <= 0;
}

// Every reader's frames pass the same checks, whatever the format: a finite time, a step a
// double holds exactly (a continued run counts on from it), and a box validated() accepts, each
// refusal naming the file and the frame.
class CheckedFrames final : public ForwardedReader<TrajectoryReader> {
 public:
  explicit CheckedFrames(std::unique_ptr<TrajectoryReader> reader)
      : ForwardedReader(std::move(reader)) {}

  std::string description() const override { return reader_->description(); }
  FrameInfo read_frame(std::int64_t t, Vec3<float>* p) override {
    return checked(reader_->read_frame(t, p));
  }
  FrameInfo read_frame(std::int64_t t, Vec3<double>* p) override {
    return checked(reader_->read_frame(t, p));
  }
  FrameInfo frame_info(std::int64_t t) override { return checked(reader_->frame_info(t)); }
  std::unique_ptr<TrajectoryReader> another_reader() const override {
    auto another = reader_->another_reader();
    return another ? std::make_unique<CheckedFrames>(std::move(another)) : nullptr;
  }
  bool has_velocities(std::int64_t t) override { return reader_->has_velocities(t); }
  FrameInfo read_frame_with_velocities(std::int64_t t, Vec3<double>* p, Vec3<double>* v) override {
    return checked(reader_->read_frame_with_velocities(t, p, v));
  }

 private:
  FrameInfo checked(const FrameInfo& info) const {
    const std::string& file = reader_->path();
    if (!std::isfinite(info.time))
      throw InputError({file, "time", long(info.index)},
                       "is " + std::to_string(info.time) + ": expected a finite number");
    if (info.step > max_exact_step || info.step < -max_exact_step)
      throw InputError({file, "step", long(info.index)},
                       std::to_string(info.step) + " is beyond +-2^53 (a damaged step?)");
    try {
      validated(info.box);
    } catch (const InputError& e) {
      throw InputError({file, "", long(info.index)}, e.what());
    }
    return info;
  }
};

std::unique_ptr<TrajectoryReader> open_netcdf(const std::string& path) {
#ifdef KMOL_HAVE_NETCDF
  return netcdf::open_amber(path);
#else
  throw UnsupportedError(path +
                         " is an AMBER NetCDF trajectory, which needs libnetcdf; this "
                         "build lacks it (install libnetcdf-dev and rebuild)");
#endif
}

}  // namespace

bool TrajectoryReader::has_velocities(std::int64_t) { return false; }

FrameInfo TrajectoryReader::read_frame_with_velocities(std::int64_t t, Vec3<double>*,
                                                       Vec3<double>*) {
  throw InputError({path(), "frame", long(t)}, description() + " stores no velocities");
}

FileKind sniff_file(const std::string& path) {
  const std::string b = first_bytes(path, 64);
  if (starts_with(b, "\x89HDF\r\n\x1a\n", 8)) return FileKind::h5md_or_hdf5;
  if (starts_with(b, "CDF\x01", 4) || starts_with(b, "CDF\x02", 4) || starts_with(b, "CDF\x05", 4))
    return FileKind::netcdf;
  if (starts_with(b, "\x00\x00\x07\xcb", 4)) return FileKind::xtc;  // 1995, big-endian
  if (starts_with(b, "\x00\x00\x07\xc9", 4)) return FileKind::trr;  // 1993
  if (contains(b, "GENERAL INFO")) return FileKind::tng;
  if (b.size() >= 16 && b.compare(8, 8, "VERSION ") == 0) return FileKind::tpr;
  if (is_text(b)) return FileKind::text;
  return FileKind::unknown;
}

namespace {

// What each kind of file is called in messages; text is described by its first line.
constexpr Named<FileKind> file_descriptions[] = {
    {FileKind::h5md_or_hdf5, "an HDF5 file"},
    {FileKind::netcdf, "a NetCDF (classic) file"},
    {FileKind::xtc, "a GROMACS XTC trajectory"},
    {FileKind::trr, "a GROMACS TRR trajectory"},
    {FileKind::tng, "a GROMACS TNG trajectory"},
    {FileKind::tpr, "a GROMACS run input (TPR)"},
    {FileKind::unknown, "binary data of no format kmol knows"}};

}  // namespace

std::string describe_file(const std::string& path) {
  const FileKind kind = sniff_file(path);
  if (kind != FileKind::text) return name_of(file_descriptions, kind);
  const std::string bytes = first_bytes(path, 60);
  return "text starting with '" + bytes.substr(0, bytes.find('\n')) + "'";
}

namespace {

std::unique_ptr<TrajectoryReader> open_unchecked(const std::string& path,
                                                 const std::string& particle_group) {
  const FileKind kind = sniff_file(path);
  if (kind == FileKind::h5md_or_hdf5) H5mdReader::check_structure(path, particle_group);
  if (kind == FileKind::netcdf || (kind == FileKind::h5md_or_hdf5 && is_netcdf4_amber(path)))
    return open_netcdf(path);
  if (kind == FileKind::h5md_or_hdf5) return std::make_unique<H5mdTrajectory>(path, particle_group);
  if (kind == FileKind::xtc || kind == FileKind::trr || kind == FileKind::tng) {
#ifdef KMOL_HAVE_GROMACS
    if (!particle_group.empty())
      throw InputError({path, "--group", -1},
                       "applies to H5MD files only; this is " + describe_file(path));
    return gromacs::open_trajectory(path, kind);
#else
    throw UnsupportedError(path + " is " + describe_file(path) +
                           ", which needs libgromacs; this build lacks it (install "
                           "libgromacs-dev and rebuild, or convert with tools/convert-to-h5md)");
#endif
  }
  throw InputError({path, "", -1},
                   "not a trajectory kmol reads (H5MD, GROMACS XTC, TRR or TNG, AMBER NetCDF): "
                   "it is " +
                       describe_file(path) + " (tools/convert-to-h5md converts other formats)");
}

}  // namespace

std::unique_ptr<TrajectoryReader> open_trajectory_file(const std::string& path,
                                                       const std::string& particle_group) {
  return std::make_unique<CheckedFrames>(open_unchecked(path, particle_group));
}

std::vector<std::string> trajectory_formats() {
  std::vector<std::string> formats{"H5MD (HDF5)"};
#ifdef KMOL_HAVE_GROMACS
  formats.push_back("GROMACS XTC, TRR, TNG trajectories and TPR topologies through " +
                    gromacs::library_version());
#else
  formats.push_back("no GROMACS formats (built without libgromacs)");
#endif
#ifdef KMOL_HAVE_NETCDF
  formats.push_back("AMBER NetCDF trajectories through " + netcdf::library_version());
#else
  formats.push_back("no AMBER NetCDF (built without libnetcdf)");
#endif
  return formats;
}

}  // namespace kmol::io
