// GROMACS trajectories through libgromacs: XTC by frame offsets (random access), TRR and TNG
// sequentially through trxio (random access reopens and skips). Coordinates and boxes are
// converted from nm to Angstrom here, once.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "contained_call.hpp"
#include "gromacs/fileio/trxio.h"
#include "gromacs/trajectory/trajectoryframe.h"
#include "gromacs/utility/baseversion.h"
#include "gromacs/utility/programcontext.h"
#include "gromacs_api.hpp"
#include "gromacs_readers.hpp"
#include "kmol/core/errors.hpp"
#include "kmol/core/io/xtc_index.hpp"
#include "trr_reader.hpp"

namespace kmol::io::gromacs {
namespace {

constexpr double angstrom_per_nm = 10.0;

BoxSpec box_from(const matrix box) {
  const double f = angstrom_per_nm;
  const bool off_diagonal = box[0][1] != 0 || box[0][2] != 0 || box[1][0] != 0 || box[1][2] != 0 ||
                            box[2][0] != 0 || box[2][1] != 0;
  if (!off_diagonal && box[0][0] == 0 && box[1][1] == 0 && box[2][2] == 0) return BoxSpec::none();
  if (!off_diagonal) return BoxSpec::orthorhombic(f * box[0][0], f * box[1][1], f * box[2][2]);
  return BoxSpec::triclinic({f * box[0][0], f * box[0][1], f * box[0][2]},
                            {f * box[1][0], f * box[1][1], f * box[1][2]},
                            {f * box[2][0], f * box[2][1], f * box[2][2]});
}

template <class T>
void convert(const std::vector<float>& nm, Vec3<T>* out, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i)
    out[i] = {T(angstrom_per_nm * nm[3 * i]), T(angstrom_per_nm * nm[3 * i + 1]),
              T(angstrom_per_nm * nm[3 * i + 2])};
}

// libgromacs tells formats by file name: a file whose name says otherwise (kmol tells them by
// content) is opened through a symbolic link with the right extension in a private directory.
class NameForLibgromacs {
 public:
  NameForLibgromacs(const std::string& path, const std::string& extension) : name_(path) {
    if (path.size() > extension.size() &&
        path.compare(path.size() - extension.size(), extension.size(), extension) == 0)
      return;
    std::string pattern = (std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp");
    pattern += "/kmol-XXXXXX";
    char* target = realpath(path.c_str(), nullptr);
    if (target == nullptr || mkdtemp(pattern.data()) == nullptr) {
      std::free(target);
      throw InputError({path, "", -1}, "cannot link the file under a " + extension + " name");
    }
    directory_ = pattern;
    name_ = directory_ + "/trajectory" + extension;
    const bool linked = symlink(target, name_.c_str()) == 0;
    std::free(target);
    if (!linked)
      throw InputError({path, "", -1}, "cannot link the file under a " + extension + " name");
  }
  ~NameForLibgromacs() {
    if (directory_.empty()) return;
    unlink(name_.c_str());
    rmdir(directory_.c_str());
  }
  NameForLibgromacs(const NameForLibgromacs&) = delete;
  NameForLibgromacs& operator=(const NameForLibgromacs&) = delete;
  const char* c_str() const { return name_.c_str(); }

 private:
  std::string name_, directory_;
};

// XTC frames are found by the index and decoded by kmol's own decoder (xtc_index.hpp), which
// checks every header field and bit against the frame's bounds: libgromacs' decoder writes past
// its buffers on a damaged frame.
class XtcReader final : public TrajectoryReader {
 public:
  explicit XtcReader(const std::string& path) : XtcReader(path, index_xtc(path)) {
    if (!index_.cache_note.empty()) warnings_.push_back(index_.cache_note);
  }
  XtcReader(const std::string& path, XtcIndex index) : path_(path), index_(std::move(index)) {
    file_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (file_ < 0) throw InputError({path, "", -1}, "cannot open the XTC file");
    file_size_ = std::int64_t(lseek(file_, 0, SEEK_END));
    try {
      coordinates_.resize(3 * std::size_t(index_.n_atoms));
      first_box_ = frame_info(0).box;
    } catch (...) {
      ::close(file_);  // the destructor does not run for a constructor that throws
      throw;
    }
  }
  ~XtcReader() override { ::close(file_); }

  // Each reader decodes on its own descriptor and buffers.
  std::unique_ptr<TrajectoryReader> another_reader() const override {
    return std::make_unique<XtcReader>(path_, index_);
  }

  const std::string& path() const override { return path_; }
  std::string description() const override { return "GROMACS XTC"; }
  std::int64_t n_frames() const override {
    return std::int64_t(index_.offsets.size()) + (index_.damaged_frame >= 0 ? 1 : 0);
  }
  std::int64_t n_atoms() const override { return index_.n_atoms; }
  BoxKind box_kind() const override { return first_box_.kind; }
  const std::vector<std::string>& warnings() const override { return warnings_; }

  FrameInfo read_frame(std::int64_t t, Vec3<float>* p) override { return read(t, p); }
  FrameInfo read_frame(std::int64_t t, Vec3<double>* p) override { return read(t, p); }
  FrameInfo frame_info(std::int64_t t) override { return decode(t); }

 private:
  template <class T>
  FrameInfo read(std::int64_t t, Vec3<T>* positions) {
    const FrameInfo info = decode(t);
    convert(coordinates_, positions, index_.n_atoms);
    return info;
  }

  [[noreturn]] void damaged(std::int64_t t, const std::string& why) const {
    throw InputError({path_, "frame", long(t)},
                     "damaged: " + why + "; frames 0 to " + std::to_string(t - 1) +
                         " are whole (--frames :" + std::to_string(t) + " reads them)");
  }

  // The whole frame: XTC's header and coordinates come in one compressed record.
  FrameInfo decode(std::int64_t t) {
    if (t == index_.damaged_frame) damaged(t, index_.damage);
    if (t < 0 || t >= std::int64_t(index_.offsets.size()))
      throw InputError({path_, "frame", long(t)},
                       "the file has " + std::to_string(n_frames()) + " frames");
    const std::int64_t offset = index_.offsets[std::size_t(t)];
    XtcFrameHeader header;
    read_bytes(t, offset, std::min(xtc_header_bytes(index_.n_atoms), file_size_ - offset));
    std::string wrong =
        read_xtc_header(bytes_.data(), std::int64_t(bytes_.size()), index_.n_atoms, header);
    if (!wrong.empty()) damaged(t, wrong);
    read_bytes(t, offset, std::min(header.bytes, file_size_ - offset));
    wrong = decode_xtc_frame(bytes_.data(), std::int64_t(bytes_.size()), index_.n_atoms, header,
                             coordinates_.data());
    if (!wrong.empty()) damaged(t, wrong);
    matrix box;
    for (int k = 0; k < 9; ++k) box[k / 3][k % 3] = header.box[k];
    return {t, header.step, double(header.time), box_from(box)};
  }

  void read_bytes(std::int64_t t, std::int64_t offset, std::int64_t size) {
    bytes_.resize(std::size_t(std::max<std::int64_t>(size, 0)));
    std::size_t done = 0;
    while (done < bytes_.size()) {
      const ssize_t n = pread(file_, bytes_.data() + done, bytes_.size() - done,
                              off_t(offset + std::int64_t(done)));
      if (n <= 0)
        throw InputError({path_, "frame", long(t)}, "cannot read the frame (the file changed?)");
      done += std::size_t(n);
    }
  }

  std::string path_;
  XtcIndex index_;
  int file_ = -1;
  std::int64_t file_size_ = 0;
  std::vector<unsigned char> bytes_;  // the frame as stored
  std::vector<float> coordinates_;    // nm, as decoded
  BoxSpec first_box_;
  std::vector<std::string> warnings_;
};

// TNG through trxio's sequential reader: frames without coordinates are skipped (GROMACS writes
// velocities and forces at their own intervals). Which frames carry velocities is learnt in the
// counting pass. libgromacs' fatal errors arrive as std::runtime_error (install_error_handler).
class SequentialReader final : public TrajectoryReader {
 public:
  SequentialReader(const std::string& path, std::string format, const std::string& extension)
      : path_(path), format_(std::move(format)), name_(path, extension) {
    // Counting needs one pass: neither format says how many frames it holds. libgromacs announces
    // the TRR version on its first read.
    QuietStderr quiet;
    rewind();
    if (!have_frame_)
      throw InputError({path_, "frame", 0},
                       "no frame with coordinates in this " + format_ + " file");
    atoms_ = frame_.natoms;
    first_box_ = frame_.bBox ? box_from(frame_.box) : BoxSpec::none();
    do {
      velocities_.push_back(frame_.bV);
    } while (advance());
    frames_ = current_ + 1;
    rewind();
  }
  ~SequentialReader() override { close(); }

  const std::string& path() const override { return path_; }
  std::string description() const override { return "GROMACS " + format_; }
  std::int64_t n_frames() const override { return frames_; }
  std::int64_t n_atoms() const override { return atoms_; }
  BoxKind box_kind() const override { return first_box_.kind; }

  FrameInfo read_frame(std::int64_t t, Vec3<float>* p) override { return read(t, p); }
  FrameInfo read_frame(std::int64_t t, Vec3<double>* p) override { return read(t, p); }
  FrameInfo frame_info(std::int64_t t) override {
    seek(t);
    return info();
  }
  bool has_velocities(std::int64_t t) override {
    return t >= 0 && t < frames_ && velocities_[std::size_t(t)];
  }
  FrameInfo read_frame_with_velocities(std::int64_t t, Vec3<double>* p, Vec3<double>* v) override {
    if (!has_velocities(t)) return TrajectoryReader::read_frame_with_velocities(t, p, v);
    const FrameInfo frame = read(t, p);
    converted(t, "velocities", &frame_.v[0][0], v);
    return frame;
  }

 private:
  template <class T>
  FrameInfo read(std::int64_t t, Vec3<T>* positions) {
    seek(t);
    converted(t, "coordinates", &frame_.x[0][0], positions);
    return info();
  }

  // nm (per ps) to Angstrom (per ps), refusing values that are not finite.
  template <class T>
  void converted(std::int64_t t, const char* what, const float* nm, Vec3<T>* out) const {
    for (std::int64_t i = 0; i < atoms_; ++i) {
      const float* r = nm + 3 * i;
      if (!std::isfinite(r[0]) || !std::isfinite(r[1]) || !std::isfinite(r[2]))
        throw InputError({path_, "frame", long(t)},
                         "atom " + std::to_string(i) + " has non-finite " + what);
      out[i] = {T(angstrom_per_nm * r[0]), T(angstrom_per_nm * r[1]), T(angstrom_per_nm * r[2])};
    }
  }

  FrameInfo info() const {
    return {current_, frame_.bStep ? std::int64_t(frame_.step) : current_,
            frame_.bTime ? double(frame_.time) : 0.0,
            frame_.bBox ? box_from(frame_.box) : BoxSpec::none()};
  }

  void seek(std::int64_t t) {
    if (t < 0 || t >= frames_)
      throw InputError({path_, "frame", long(t)},
                       "the file has " + std::to_string(frames_) + " frames");
    if (t < current_) rewind();
    while (current_ < t)
      if (!advance())
        throw InputError({path_, "frame", long(current_ + 1)},
                         "libgromacs cannot read this frame (the file changed or is damaged)");
    if (frame_.natoms != atoms_)
      throw InputError({path_, "frame", long(t)}, "has " + std::to_string(frame_.natoms) +
                                                      " atoms, frame 0 " + std::to_string(atoms_));
  }

  void rewind() {
    close();
    try {
      have_frame_ = read_first_frame(quiet_output_environment(), &status_, name_.c_str(), &frame_,
                                     TRX_NEED_X | TRX_READ_V);
    } catch (const std::exception& e) {
      throw InputError({path_, "frame", 0}, "libgromacs cannot read it: " + std::string(e.what()));
    }
    current_ = 0;
  }

  bool advance() {
    try {
      if (!read_next_frame(quiet_output_environment(), status_, &frame_)) return false;
    } catch (const std::exception& e) {
      throw InputError({path_, "frame", long(current_ + 1)},
                       "libgromacs cannot read it: " + std::string(e.what()));
    }
    ++current_;
    return true;
  }

  void close() {
    if (status_ != nullptr) close_trx(status_);
    status_ = nullptr;
    if (have_frame_) done_frame(&frame_);  // the coordinates read_first_frame allocated
    have_frame_ = false;
  }

  std::string path_, format_;
  NameForLibgromacs name_;
  t_trxstatus* status_ = nullptr;
  t_trxframe frame_{};
  bool have_frame_ = false;
  std::int64_t current_ = -1, frames_ = 0, atoms_ = 0;
  std::vector<char> velocities_;  // per frame: whether it has them
  BoxSpec first_box_;
};

}  // namespace

const gmx_output_env_t* quiet_output_environment() {
  static gmx_output_env_t* environment = [] {
    // trxio prints "Reading frame N" unless this is 0; read when the environment is made.
    setenv("GMX_TRAJECTORY_IO_VERBOSITY", "0", 1);
    gmx_output_env_t* e = nullptr;
    output_env_init(&e, gmx::getProgramContext(), gmx::TimeUnit::Picoseconds, false,
                    XvgFormat::None, 0);
    return e;
  }();
  return environment;
}

QuietStderr::QuietStderr() {
  std::fflush(stderr);
  saved_ = dup(STDERR_FILENO);
  const int null = open("/dev/null", O_WRONLY);
  if (null >= 0) {
    dup2(null, STDERR_FILENO);
    ::close(null);
  }
}

QuietStderr::~QuietStderr() {
  std::fflush(stderr);
  if (saved_ >= 0) {
    dup2(saved_, STDERR_FILENO);
    ::close(saved_);
  }
}

std::unique_ptr<TrajectoryReader> open_trajectory(const std::string& path, FileKind kind) {
  if (kind == FileKind::xtc) return std::make_unique<XtcReader>(path);
  if (kind == FileKind::trr) return open_trr(path);
  // libgromacs' TNG library cannot be checked up front: a child reads every frame first.
  install_error_handler();
  contained_call(path, "the TNG trajectory", [&] {
    SequentialReader probe(path, "TNG", ".tng");
    std::vector<Vec3<float>> positions(std::size_t(probe.n_atoms()));
    for (std::int64_t t = 0; t < probe.n_frames(); ++t) probe.read_frame(t, positions.data());
    return std::string();
  });
  return std::make_unique<SequentialReader>(path, "TNG", ".tng");
}

std::string library_version() {
  return std::string("libgromacs ") + gmx_version() + " (single precision)";
}

}  // namespace kmol::io::gromacs
