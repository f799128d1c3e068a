// GROMACS trajectories through libgromacs: XTC by frame offsets (random access), TRR and TNG
// sequentially through trxio (random access reopens and skips). Coordinates and boxes are
// converted from nm to Angstrom here, once.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "gromacs/fileio/trxio.h"
#include "gromacs/trajectory/trajectoryframe.h"
#include "gromacs/utility/baseversion.h"
#include "gromacs/utility/programcontext.h"
#include "gromacs_api.hpp"
#include "gromacs_readers.hpp"
#include "kmol/core/errors.hpp"
#include "kmol/core/io/contained_call.hpp"
#include "kmol/core/io/xtc_index.hpp"
#include "spooled_trajectory.hpp"
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

// A TNG file is decoded in a child process (contained_call.hpp), never in kmol's own: libgromacs'
// TNG library trusts the file and crashes or loops on a damaged one, and a child that read the
// whole file once does not prove the parent's read of it safe. The child reads frames through
// trxio's sequential reader (frames without coordinates are skipped: GROMACS writes velocities
// and forces at their own intervals) into the spool, and returns each frame's record.
std::string decode_tng(const NameForLibgromacs& name, Spool& spool, std::int64_t spool_cap);

// A full disk is the run's failure, not the file's.
constexpr char spool_write_failure[] = "cannot write its decoded frames to the temporary file";

std::string decode_tng(const NameForLibgromacs& name, Spool& spool, std::int64_t spool_cap) {
  t_trxstatus* status = nullptr;
  t_trxframe frame{};
  std::vector<SpooledFrame> frames;
  std::string error;
  bool more = read_first_frame(quiet_output_environment(), &status, name.c_str(), &frame,
                               TRX_NEED_X | TRX_READ_V);
  while (more) {
    SpooledFrame f;
    f.step = frame.bStep ? std::int64_t(frame.step) : std::int64_t(frames.size());
    f.time = frame.bTime ? double(frame.time) : 0.0;
    f.box = frame.bBox ? box_from(frame.box) : BoxSpec::none();
    f.atoms = frame.natoms;
    f.velocities = frame.bV && frame.v != nullptr;
    // A frame whose atom count differs from the first is refused when read; nothing is stored.
    const bool stored = frames.empty() || f.atoms == frames.front().atoms;
    const std::size_t values = 3 * std::size_t(std::max(frame.natoms, 0));
    if (stored && spool.size() + std::int64_t(values * (f.velocities ? 8 : 4)) > spool_cap) {
      error = "decodes to more than " + std::to_string(spool_cap >> 20) +
              " MB (the atom count or the frame count is damaged)";
      break;
    }
    if (stored && values > 0 &&
        (!spool.append(&frame.x[0][0], values, f.offset, error) ||
         (f.velocities && !spool.append(&frame.v[0][0], values, f.offset, error)))) {
      error = spool_write_failure + (": " + error);
      break;
    }
    if (stored && values > 0 && f.velocities)
      f.offset -= std::int64_t(values);  // the coordinates' offset
    frames.push_back(f);
    more = read_next_frame(quiet_output_environment(), status, &frame);
  }
  // Not closed: libgromacs' close of a damaged file can crash, and the child's end frees it all.
  return pack_frames(frames, error);
}

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
  install_error_handler();
  const NameForLibgromacs name(path, ".tng");
  auto spool = std::make_shared<Spool>(path);
  // Decoded frames take 12 bytes per atom (24 with velocities); TNG compresses them a few times.
  struct stat file {};
  const std::int64_t bytes = stat(path.c_str(), &file) == 0 ? std::int64_t(file.st_size) : 0;
  const std::int64_t spool_cap = (std::int64_t(256) << 20) + 100 * bytes;
  std::string error;
  std::vector<SpooledFrame> frames =
      unpack_frames(contained_call(path, "the TNG trajectory",
                                   [&] { return decode_tng(name, *spool, spool_cap); }),
                    error);
  if (error.rfind(spool_write_failure, 0) == 0) throw RunFailure(path + ": " + error);
  if (!error.empty()) throw InputError({path, "", -1}, error);
  return spooled_trajectory(path, "GROMACS TNG", std::move(spool), std::move(frames),
                            angstrom_per_nm);
}

std::string library_version() {
  return std::string("libgromacs ") + gmx_version() + " (single precision)";
}

}  // namespace kmol::io::gromacs
