#include "trr_reader.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <climits>
#include <cmath>
#include <cstring>
#include <vector>

#include "kmol/core/errors.hpp"

namespace kmol::io {
namespace {

constexpr std::int32_t trr_magic = 1993;
constexpr double angstrom_per_nm = 10.0;

// Big-endian XDR fields of a byte buffer.
class Fields {
 public:
  Fields(const unsigned char* data, std::int64_t size) : data_(data), size_(size) {}
  std::int64_t position() const { return at_; }
  bool has(std::int64_t bytes) const { return at_ + bytes <= size_; }
  void skip(std::int64_t bytes) { at_ += bytes; }
  std::int32_t int32() {
    const unsigned char* p = data_ + at_;
    at_ += 4;
    return std::int32_t(std::uint32_t(p[0]) << 24 | std::uint32_t(p[1]) << 16 |
                        std::uint32_t(p[2]) << 8 | std::uint32_t(p[3]));
  }
  double real(int size) {
    if (size == 4) {
      const std::uint32_t bits = std::uint32_t(int32());
      float f;
      std::memcpy(&f, &bits, sizeof f);
      return f;
    }
    const std::uint64_t high = std::uint32_t(int32()), low = std::uint32_t(int32());
    const std::uint64_t bits = high << 32 | low;
    double d;
    std::memcpy(&d, &bits, sizeof d);
    return d;
  }

 private:
  const unsigned char* data_;
  std::int64_t size_, at_ = 0;
};

// What a frame header says, with where its sections start.
struct TrrFrame {
  std::int64_t offset = 0, data = 0, bytes = 0;  // header start, data start, whole frame
  std::int32_t natoms = 0, real = 4;             // atoms, bytes per real (4 or 8)
  std::int32_t box = 0, vir = 0, pres = 0, x = 0, v = 0, f = 0;  // section sizes
  std::int64_t step = 0;
  double time = 0;
};

// The longest header: magic, version string (length, length, up to 256 characters), 13 sizes,
// step, nre, time and lambda in double precision.
constexpr std::int64_t longest_header = 4 + 8 + 256 + 13 * 4 + 8 + 16;

// The section sizes must all be 0 or the size of their reals in one precision.
std::string precision_of(TrrFrame& h) {
  const std::int64_t per_atom = 3 * std::int64_t(h.natoms);
  for (int real : {4, 8}) {
    auto fits = [&](std::int32_t size, std::int64_t count) {
      return size == 0 || std::int64_t(size) == count * real;
    };
    if ((h.box | h.vir | h.pres | h.x | h.v | h.f) != 0 && fits(h.box, 9) && fits(h.vir, 9) &&
        fits(h.pres, 9) && fits(h.x, per_atom) && fits(h.v, per_atom) && fits(h.f, per_atom)) {
      h.real = real;
      return "";
    }
  }
  return "section sizes (box " + std::to_string(h.box) + ", coordinates " + std::to_string(h.x) +
         ", velocities " + std::to_string(h.v) + ", forces " + std::to_string(h.f) +
         " bytes) do not fit " + std::to_string(h.natoms) + " atoms in single or double precision";
}

// Reads and checks the header in `in` (at the frame's start). Returns what is wrong, or "".
std::string read_header(Fields& in, TrrFrame& h) {
  if (!in.has(12)) return "the frame's header is cut short";
  const std::int32_t magic = in.int32();
  if (magic != trr_magic) return "no TRR frame header (magic " + std::to_string(magic) + ")";
  const std::int32_t with_end = in.int32(), length = in.int32();
  if (length < 0 || length > 255 || with_end != length + 1)
    return "its version string has length " + std::to_string(length);
  in.skip((std::int64_t(length) + 3) / 4 * 4);
  if (!in.has(13 * 4)) return "the frame's header is cut short";
  std::int32_t size[11];
  for (auto& s : size) s = in.int32();
  const char* kept[] = {"an input record", "energies",   nullptr,         nullptr,
                        nullptr,           "a topology", "a symbol table"};
  for (int i = 0; i < 11; ++i)
    if (size[i] < 0) return "a section size is negative (" + std::to_string(size[i]) + ")";
  for (int i = 0; i < 7; ++i)
    if (kept[i] != nullptr && size[i] != 0)
      return std::string("it claims to hold ") + kept[i] + ", which trajectories do not";
  h.box = size[2];
  h.vir = size[3];
  h.pres = size[4];
  h.x = size[7];
  h.v = size[8];
  h.f = size[9];
  h.natoms = size[10];
  if (h.natoms <= 0 || h.natoms > INT32_MAX / 24)
    return "the header gives " + std::to_string(h.natoms) + " atoms";
  const std::string precision = precision_of(h);
  if (!precision.empty()) return precision;
  h.step = in.int32();
  in.skip(4);  // nre, unused
  if (!in.has(2 * h.real)) return "the frame's header is cut short";
  h.time = in.real(h.real);
  in.skip(h.real);  // lambda
  if (!std::isfinite(h.time)) return "its time is not a finite number";
  h.data = h.offset + in.position();
  h.bytes = in.position() + std::int64_t(h.box) + h.vir + h.pres + h.x + h.v + h.f;
  return "";
}

class TrrReader final : public TrajectoryReader {
 public:
  explicit TrrReader(const std::string& path) : path_(path) {
    file_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (file_ < 0) throw InputError({path, "", -1}, "cannot open the TRR file");
    try {
      index();
      if (frames_.empty()) {
        if (!damage_.empty()) throw InputError({path_, "frame", 0}, "damaged: " + damage_);
        throw InputError({path_, "frame", 0}, "no frame with coordinates in this TRR file");
      }
      first_box_ = frame_info(0).box;
    } catch (...) {
      ::close(file_);  // the destructor does not run for a constructor that throws
      throw;
    }
  }
  ~TrrReader() override { ::close(file_); }
  TrrReader(const TrrReader&) = delete;
  TrrReader& operator=(const TrrReader&) = delete;

  const std::string& path() const override { return path_; }
  std::string description() const override { return "GROMACS TRR"; }
  std::int64_t n_frames() const override {
    return std::int64_t(frames_.size()) + (damage_.empty() ? 0 : 1);
  }
  std::int64_t n_atoms() const override { return frames_.front().natoms; }
  BoxKind box_kind() const override { return first_box_.kind; }

  FrameInfo read_frame(std::int64_t t, Vec3<float>* p) override { return read(t, p, nullptr); }
  FrameInfo read_frame(std::int64_t t, Vec3<double>* p) override { return read(t, p, nullptr); }
  FrameInfo frame_info(std::int64_t t) override { return read<double>(t, nullptr, nullptr); }
  bool has_velocities(std::int64_t t) override {
    return t >= 0 && t < std::int64_t(frames_.size()) && frames_[std::size_t(t)].v != 0;
  }
  FrameInfo read_frame_with_velocities(std::int64_t t, Vec3<double>* p, Vec3<double>* v) override {
    if (!has_velocities(t)) return TrajectoryReader::read_frame_with_velocities(t, p, v);
    return read(t, p, v);
  }

 private:
  // Finds every frame with coordinates; the first damaged frame ends the list.
  void index() {
    const std::int64_t size = std::int64_t(lseek(file_, 0, SEEK_END));
    std::vector<unsigned char> header;
    for (std::int64_t offset = 0; offset < size;) {
      header.resize(std::size_t(std::min(longest_header, size - offset)));
      pread_all(offset, header, long(frames_.size()));
      Fields in(header.data(), std::int64_t(header.size()));
      TrrFrame h;
      h.offset = offset;
      std::string wrong = read_header(in, h);
      if (offset == 0 && header.size() >= 4 && in.position() == 4 && wrong.rfind("no TRR", 0) == 0)
        throw InputError({path_, "frame", 0}, "does not start with the TRR magic number 1993");
      if (wrong.empty() && !frames_.empty() && h.natoms != frames_.front().natoms)
        wrong = "the header gives " + std::to_string(h.natoms) + " atoms, the first frame " +
                std::to_string(frames_.front().natoms);
      if (wrong.empty() && offset + h.bytes > size)
        wrong = "the file ends at byte " + std::to_string(size) + ", inside this frame (it needs " +
                std::to_string(h.bytes) + " bytes from byte " + std::to_string(offset) + ")";
      if (!wrong.empty()) {
        damage_ = wrong + " at byte " + std::to_string(offset);
        return;
      }
      if (h.x != 0) frames_.push_back(h);
      offset += h.bytes;
    }
  }

  void pread_all(std::int64_t offset, std::vector<unsigned char>& bytes, long frame) const {
    std::size_t done = 0;
    while (done < bytes.size()) {
      const ssize_t n = pread(file_, bytes.data() + done, bytes.size() - done,
                              off_t(offset + std::int64_t(done)));
      if (n <= 0)
        throw InputError({path_, "frame", frame}, "cannot read the frame (the file changed?)");
      done += std::size_t(n);
    }
  }

  [[noreturn]] void damaged(std::int64_t t, const std::string& why) const {
    throw InputError({path_, "frame", long(t)},
                     "damaged: " + why + "; frames 0 to " + std::to_string(t - 1) +
                         " are whole (--frames :" + std::to_string(t) + " reads them)");
  }

  // Frame t: its box always, its coordinates into `positions` and velocities into `velocities`
  // where given, in Angstrom (per ps).
  template <class T>
  FrameInfo read(std::int64_t t, Vec3<T>* positions, Vec3<double>* velocities) {
    if (t == std::int64_t(frames_.size()) && !damage_.empty()) damaged(t, damage_);
    if (t < 0 || t >= std::int64_t(frames_.size()))
      throw InputError({path_, "frame", long(t)},
                       "the file has " + std::to_string(n_frames()) + " frames");
    const TrrFrame& h = frames_[std::size_t(t)];
    const std::int64_t wanted =
        positions || velocities ? h.bytes - (h.data - h.offset) : std::int64_t(h.box);
    bytes_.resize(std::size_t(wanted));
    pread_all(h.data, bytes_, long(t));
    Fields in(bytes_.data(), wanted);
    FrameInfo info{t, h.step, h.time, BoxSpec::none()};
    if (h.box != 0) info.box = box_of(in, h, t);
    if (!positions && !velocities) return info;
    in.skip(std::int64_t(h.vir) + h.pres);
    convert(in, h, t, "coordinates", positions);
    if (h.v != 0) convert(in, h, t, "velocities", velocities);
    return info;
  }

  BoxSpec box_of(Fields& in, const TrrFrame& h, std::int64_t t) const {
    double b[9];
    for (auto& e : b) {
      e = angstrom_per_nm * in.real(h.real);
      if (!std::isfinite(e)) throw InputError({path_, "frame", long(t)}, "its box is not finite");
    }
    const bool off_diagonal =
        b[1] != 0 || b[2] != 0 || b[3] != 0 || b[5] != 0 || b[6] != 0 || b[7] != 0;
    if (!off_diagonal && b[0] == 0 && b[4] == 0 && b[8] == 0) return BoxSpec::none();
    if (!off_diagonal) return BoxSpec::orthorhombic(b[0], b[4], b[8]);
    return BoxSpec::triclinic({b[0], b[1], b[2]}, {b[3], b[4], b[5]}, {b[6], b[7], b[8]});
  }

  // One per-atom section into `out` (nm to Angstrom), or skipped when `out` is null.
  template <class T>
  void convert(Fields& in, const TrrFrame& h, std::int64_t t, const char* what, Vec3<T>* out) {
    if (out == nullptr) {
      in.skip(3 * std::int64_t(h.natoms) * h.real);
      return;
    }
    for (std::int32_t i = 0; i < h.natoms; ++i) {
      double r[3];
      for (auto& c : r) c = in.real(h.real);
      if (!std::isfinite(r[0]) || !std::isfinite(r[1]) || !std::isfinite(r[2]))
        throw InputError({path_, "frame", long(t)},
                         "atom " + std::to_string(i) + " has non-finite " + what);
      out[i] = {T(angstrom_per_nm * r[0]), T(angstrom_per_nm * r[1]), T(angstrom_per_nm * r[2])};
    }
  }

  std::string path_;
  int file_ = -1;
  std::vector<TrrFrame> frames_;  // those with coordinates
  std::string damage_;            // what ends the frames early, or empty
  std::vector<unsigned char> bytes_;
  BoxSpec first_box_;
};

}  // namespace

std::unique_ptr<TrajectoryReader> open_trr(const std::string& path) {
  return std::make_unique<TrrReader>(path);
}

}  // namespace kmol::io
