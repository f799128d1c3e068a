#include "spooled_trajectory.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "kmol/core/errors.hpp"

namespace kmol::io {

Spool::Spool(const std::string& for_path) {
  const char* directory = std::getenv("TMPDIR");
  std::string name = std::string(directory && *directory ? directory : "/tmp") + "/kmol-XXXXXX";
  fd_ = mkostemp(name.data(), O_CLOEXEC);
  if (fd_ < 0)
    throw RunFailure(for_path + ": cannot make a temporary file for its decoded frames in " +
                     name.substr(0, name.size() - 12) + ": " + std::strerror(errno));
  unlink(name.c_str());  // nameless: nothing to remove, whatever ends the process
}

Spool::~Spool() { close(fd_); }

bool Spool::append(const float* values, std::size_t count, std::int64_t& offset,
                   std::string& error) {
  offset = size_ / std::int64_t(sizeof(float));
  const char* data = reinterpret_cast<const char*>(values);
  std::size_t left = count * sizeof(float);
  while (left > 0) {
    const ssize_t n = pwrite(fd_, data, left, off_t(size_));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      error = std::strerror(n < 0 ? errno : ENOSPC);
      return false;
    }
    data += n;
    left -= std::size_t(n);
    size_ += n;
  }
  return true;
}

std::string pack_frames(const std::vector<SpooledFrame>& frames, const std::string& error) {
  const std::uint64_t n = frames.size();
  std::string bytes(reinterpret_cast<const char*>(&n), sizeof n);
  bytes.append(reinterpret_cast<const char*>(frames.data()), frames.size() * sizeof(SpooledFrame));
  return bytes + error;
}

std::vector<SpooledFrame> unpack_frames(const std::string& bytes, std::string& error) {
  std::uint64_t n = 0;
  if (bytes.size() < sizeof n) return {};
  std::memcpy(&n, bytes.data(), sizeof n);
  const std::size_t size = std::size_t(n) * sizeof(SpooledFrame);
  if (n > bytes.size() || bytes.size() - sizeof n < size) return {};
  std::vector<SpooledFrame> frames(static_cast<std::size_t>(n));
  // An empty vector's data() may be null, which memcpy must not be given even for 0 bytes.
  if (size > 0) std::memcpy(static_cast<void*>(frames.data()), bytes.data() + sizeof n, size);
  error = bytes.substr(sizeof n + size);
  return frames;
}

namespace {

// Frames are read by offset (pread): readers on other threads share the spool.
class SpooledReader final : public TrajectoryReader {
 public:
  SpooledReader(const std::string& path, const std::string& description,
                std::shared_ptr<Spool> spool,
                std::shared_ptr<const std::vector<SpooledFrame>> frames, double scale)
      : path_(path),
        description_(description),
        spool_(std::move(spool)),
        frames_(std::move(frames)),
        scale_(scale) {}

  std::unique_ptr<TrajectoryReader> another_reader() const override {
    return std::make_unique<SpooledReader>(path_, description_, spool_, frames_, scale_);
  }
  const std::string& path() const override { return path_; }
  std::string description() const override { return description_; }
  std::int64_t n_frames() const override { return std::int64_t(frames_->size()); }
  std::int64_t n_atoms() const override { return frames_->front().atoms; }
  BoxKind box_kind() const override { return frames_->front().box.kind; }

  FrameInfo read_frame(std::int64_t t, Vec3<float>* p) override { return read(t, p); }
  FrameInfo read_frame(std::int64_t t, Vec3<double>* p) override { return read(t, p); }
  FrameInfo frame_info(std::int64_t t) override {
    const SpooledFrame& f = frame(t);
    return {t, f.step, f.time, f.box};
  }
  bool has_velocities(std::int64_t t) override {
    return t >= 0 && t < n_frames() && (*frames_)[std::size_t(t)].velocities;
  }
  FrameInfo read_frame_with_velocities(std::int64_t t, Vec3<double>* p, Vec3<double>* v) override {
    if (!has_velocities(t)) return TrajectoryReader::read_frame_with_velocities(t, p, v);
    const FrameInfo info = read(t, p);
    load(t, frame(t).offset + 3 * n_atoms(), "velocities", v);
    return info;
  }

 private:
  const SpooledFrame& frame(std::int64_t t) const {
    if (t < 0 || t >= n_frames())
      throw InputError({path_, "frame", long(t)},
                       "the file has " + std::to_string(n_frames()) + " frames");
    const SpooledFrame& f = (*frames_)[std::size_t(t)];
    if (f.atoms != n_atoms())
      throw InputError(
          {path_, "frame", long(t)},
          "has " + std::to_string(f.atoms) + " atoms, frame 0 " + std::to_string(n_atoms()));
    return f;
  }

  template <class T>
  FrameInfo read(std::int64_t t, Vec3<T>* positions) {
    const FrameInfo info = frame_info(t);
    load(t, frame(t).offset, "coordinates", positions);
    return info;
  }

  // Floats from float offset `at`, scaled to Angstrom, refusing values that are not finite as
  // stored or once scaled in T.
  template <class T>
  void load(std::int64_t t, std::int64_t at, const char* what, Vec3<T>* out) {
    values_.resize(3 * std::size_t(n_atoms()));
    char* data = reinterpret_cast<char*>(values_.data());
    const std::size_t bytes = values_.size() * sizeof(float);
    for (std::size_t done = 0; done < bytes;) {
      const ssize_t n = pread(spool_->descriptor(), data + done, bytes - done,
                              off_t(at * std::int64_t(sizeof(float)) + std::int64_t(done)));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0)
        throw RunFailure(path_ + ": cannot read its decoded frame " + std::to_string(t) +
                         " back from the temporary file");
      done += std::size_t(n);
    }
    for (std::int64_t i = 0; i < n_atoms(); ++i) {
      const float* r = values_.data() + 3 * i;
      const Vec3<T> scaled{T(scale_ * r[0]), T(scale_ * r[1]), T(scale_ * r[2])};
      if (!std::isfinite(scaled.x) || !std::isfinite(scaled.y) || !std::isfinite(scaled.z))
        throw InputError({path_, "frame", long(t)},
                         "atom " + std::to_string(i) + " has non-finite " + what);
      out[i] = scaled;
    }
  }

  std::string path_, description_;
  std::shared_ptr<Spool> spool_;
  std::shared_ptr<const std::vector<SpooledFrame>> frames_;
  double scale_;
  std::vector<float> values_;
};

}  // namespace

std::unique_ptr<TrajectoryReader> spooled_trajectory(const std::string& path,
                                                     const std::string& description,
                                                     std::shared_ptr<Spool> spool,
                                                     std::vector<SpooledFrame> frames,
                                                     double scale) {
  if (frames.empty()) throw InputError({path, "frame", 0}, "no frame with coordinates in the file");
  if (frames.front().atoms <= 0)
    throw InputError({path, "frame", 0}, "has " + std::to_string(frames.front().atoms) + " atoms");
  return std::make_unique<SpooledReader>(
      path, description, std::move(spool),
      std::make_shared<const std::vector<SpooledFrame>>(std::move(frames)), scale);
}

}  // namespace kmol::io
