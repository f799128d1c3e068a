#include "kmol/core/io/h5md_writer.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>

#include "kmol/core/errors.hpp"
#include "kmol/core/io/hdf5_handle.hpp"
#include "kmol/core/runtime.hpp"
#include "kmol/core/stop.hpp"

namespace kmol::io {
namespace {

// A dataset that grows by one frame per append: shape [T][inner...], chunked over frames.
class FrameSeries {
 public:
  FrameSeries() = default;
  FrameSeries(hid_t parent, const std::string& name, hid_t file_type, std::vector<hsize_t> inner,
              int compression) {
    std::vector<hsize_t> dims{0}, max{H5S_UNLIMITED}, chunk{1};
    hsize_t per_frame = 1;
    for (hsize_t d : inner) {
      dims.push_back(d);
      max.push_back(d);
      chunk.push_back(std::max<hsize_t>(d, 1));
      per_frame *= d;
    }
    // About 64 KiB or one frame per chunk, whichever is larger: reading one frame touches one
    // chunk.
    chunk[0] = std::clamp<hsize_t>(16384 / std::max<hsize_t>(per_frame, 1), 1, 1024);
    Hid space(H5Screate_simple(int(dims.size()), dims.data(), max.data()));
    Hid properties(H5Pcreate(H5P_DATASET_CREATE));
    H5Pset_chunk(properties.get(), int(chunk.size()), chunk.data());
    if (compression > 0) {
      H5Pset_shuffle(properties.get());
      H5Pset_deflate(properties.get(), unsigned(compression));
    }
    dataset_ = Hid(H5Dcreate2(parent, name.c_str(), file_type, space.get(), H5P_DEFAULT,
                              properties.get(), H5P_DEFAULT));
    if (!dataset_.valid()) throw std::runtime_error("H5MD writer: cannot create dataset " + name);
    inner_ = std::move(inner);
  }

  hid_t id() const { return dataset_.get(); }

  // Writes frame t (which must be the next one) from memory of type memory_type.
  void write(hsize_t t, hid_t memory_type, const void* data) {
    std::vector<hsize_t> dims{t + 1}, start{t}, count{1};
    for (hsize_t d : inner_) {
      dims.push_back(d);
      start.push_back(0);
      count.push_back(d);
    }
    H5Dset_extent(dataset_.get(), dims.data());
    Hid file_space(H5Dget_space(dataset_.get()));
    H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, start.data(), nullptr, count.data(),
                        nullptr);
    Hid memory_space(H5Screate_simple(int(count.size()), count.data(), nullptr));
    if (H5Dwrite(dataset_.get(), memory_type, memory_space.get(), file_space.get(), H5P_DEFAULT,
                 data) < 0)
      throw std::runtime_error("H5MD writer: cannot write frame " + std::to_string(t) + " (" +
                               last_hdf5_message() + ")");
  }

 private:
  Hid dataset_;
  std::vector<hsize_t> inner_;
};

// A time-dependent H5MD element: a group with value, step and time.
struct TimeSeries {
  Hid group;
  FrameSeries value, step, time;

  TimeSeries() = default;
  TimeSeries(hid_t parent, const std::string& name, hid_t value_type, std::vector<hsize_t> inner,
             int compression, const std::string& unit, const std::string& time_unit) {
    group = Hid(H5Gcreate2(parent, name.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
    value = FrameSeries(group.get(), "value", value_type, std::move(inner), compression);
    if (!unit.empty()) write_string_attribute(value.id(), "unit", unit);
    step = FrameSeries(group.get(), "step", H5T_STD_I64LE, {}, 0);
    time = FrameSeries(group.get(), "time", H5T_IEEE_F64LE, {}, 0);
    write_string_attribute(time.id(), "unit", time_unit);
  }

  void write(hsize_t t, hid_t memory_type, const void* data, std::int64_t step_number,
             double time_value) {
    value.write(t, memory_type, data);
    step.write(t, H5T_NATIVE_INT64, &step_number);
    time.write(t, H5T_NATIVE_DOUBLE, &time_value);
  }
};

Hid make_group(hid_t parent, const std::string& name) {
  return Hid(H5Gcreate2(parent, name.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
}

}  // namespace

struct H5mdWriter::State {
  std::optional<TemporaryFile> output;  // first, so the file closes before it is removed
  std::string path, temporary;
  std::int64_t n_atoms = 0;
  H5mdWriterOptions options;
  Hid file;
  TimeSeries position, velocity, force, box;
  std::vector<TimeSeries> observables;
  bool box_known = false;
  BoxKind box_kind = BoxKind::none;
  hsize_t frames = 0;
  bool closed = false;

  hid_t vector_type() const { return options.double_precision ? H5T_IEEE_F64LE : H5T_IEEE_F32LE; }

  void create_box(BoxKind kind) {
    Hid particles(
        H5Gopen2(file.get(), ("particles/" + options.particle_group).c_str(), H5P_DEFAULT));
    Hid group = make_group(particles.get(), "box");
    write_int_attribute(group.get(), "dimension", {3});
    const std::string boundary = kind == BoxKind::none ? "none" : "periodic";
    write_string_array_attribute(group.get(), "boundary", {boundary, boundary, boundary});
    if (kind != BoxKind::none)
      box = TimeSeries(group.get(), "edges", H5T_IEEE_F64LE, {3, 3}, 0, "Angstrom",
                       options.time_unit);
    box_known = true;
    box_kind = kind;
  }

  template <class T>
  void append(const H5mdFrameView<T>& frame, const std::vector<double>& values) {
    if (closed) throw std::logic_error("H5MD writer: append after close");
    QuietHdf5 quiet;
    const ErrorContext where{path, "particles/" + options.particle_group + "/position",
                             long(frames)};
    if (!std::isfinite(frame.time))
      throw InputError(where, "time " + std::to_string(frame.time) + " is not a finite number");
    if (frame.positions == nullptr && n_atoms > 0) throw InputError(where, "no positions given");
    for (std::int64_t i = 0; i < n_atoms; ++i) {
      const auto& p = frame.positions[i];
      if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z))
        throw InputError(where, "atom " + std::to_string(i) + " has a non-finite coordinate");
    }
    if ((options.velocities && frame.velocities == nullptr) ||
        (options.forces && frame.forces == nullptr))
      throw InputError(where,
                       "the writer was opened with velocities or forces, but the frame has none");
    if (values.size() != options.observables.size())
      throw InputError(where, "expected " + std::to_string(options.observables.size()) +
                                  " observables, got " + std::to_string(values.size()));
    if (!box_known) create_box(frame.box.kind);
    if (frame.box.kind != box_kind)
      throw InputError(where, "box kind " + to_string(frame.box.kind) +
                                  " differs from the first frame's " + to_string(box_kind));
    const hid_t memory = std::is_same_v<T, double> ? H5T_NATIVE_DOUBLE : H5T_NATIVE_FLOAT;
    static_assert(sizeof(Vec3<T>) == 3 * sizeof(T), "Vec3 must be three packed numbers");
    position.write(frames, memory, frame.positions, frame.step, frame.time);
    if (options.velocities)
      velocity.write(frames, memory, frame.velocities, frame.step, frame.time);
    if (options.forces) force.write(frames, memory, frame.forces, frame.step, frame.time);
    if (box_kind != BoxKind::none) {
      double edges[9];
      for (int r = 0; r < 3; ++r) {
        edges[3 * r] = frame.box.edges[r].x;
        edges[3 * r + 1] = frame.box.edges[r].y;
        edges[3 * r + 2] = frame.box.edges[r].z;
      }
      box.write(frames, H5T_NATIVE_DOUBLE, edges, frame.step, frame.time);
    }
    for (std::size_t k = 0; k < values.size(); ++k)
      observables[k].write(frames, H5T_NATIVE_DOUBLE, &values[k], frame.step, frame.time);
    ++frames;
  }
};

H5mdWriter::H5mdWriter(const std::string& path, std::int64_t n_atoms,
                       const std::vector<std::int32_t>& species, const H5mdWriterOptions& options)
    : state_(std::make_unique<State>()) {
  State& s = *state_;
  s.path = path;
  s.output.emplace(path);
  s.temporary = s.output->temporary();
  s.n_atoms = n_atoms;
  s.options = options;
  if (!species.empty() && std::int64_t(species.size()) != n_atoms)
    throw InputError({path, "species", -1}, "expected one species per atom (" +
                                                std::to_string(n_atoms) + "), got " +
                                                std::to_string(species.size()));
  QuietHdf5 quiet;
  s.file = Hid(H5Fcreate(s.temporary.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT));
  if (!s.file.valid())
    throw InputError({path, "", -1}, "cannot create the file (" + last_hdf5_message() + ")");

  Hid h5md = make_group(s.file.get(), "h5md");
  write_int_attribute(h5md.get(), "version", {1, 1});
  Hid author = make_group(h5md.get(), "author");
  write_string_attribute(author.get(), "name", options.author);
  Hid creator = make_group(h5md.get(), "creator");
  write_string_attribute(creator.get(), "name", options.creator);
  write_string_attribute(creator.get(), "version", kmol_version());

  Hid particles = make_group(s.file.get(), "particles");
  Hid group = make_group(particles.get(), options.particle_group);
  const hsize_t n = hsize_t(n_atoms);
  const int level = std::clamp(options.compression_level, 0, 9);
  s.position = TimeSeries(group.get(), "position", s.vector_type(), {n, 3}, level, "Angstrom",
                          options.time_unit);
  if (options.velocities)
    s.velocity = TimeSeries(group.get(), "velocity", s.vector_type(), {n, 3}, level,
                            options.velocity_unit, options.time_unit);
  if (options.forces)
    s.force = TimeSeries(group.get(), "force", s.vector_type(), {n, 3}, level, options.force_unit,
                         options.time_unit);
  if (!species.empty()) {
    Hid space(H5Screate_simple(1, &n, nullptr));
    Hid dataset(H5Dcreate2(group.get(), "species", H5T_STD_I32LE, space.get(), H5P_DEFAULT,
                           H5P_DEFAULT, H5P_DEFAULT));
    H5Dwrite(dataset.get(), H5T_NATIVE_INT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, species.data());
    if (!options.species_names.empty())
      write_string_array_attribute(dataset.get(), "names", options.species_names);
  }
  if (!options.observables.empty()) {
    Hid observables = make_group(s.file.get(), "observables");
    for (const auto& name : options.observables)
      s.observables.emplace_back(observables.get(), name, H5T_IEEE_F64LE, std::vector<hsize_t>{}, 0,
                                 "", options.time_unit);
  }
}

H5mdWriter::~H5mdWriter() {
  if (!state_->closed) state_->file.reset();  // before the output removes the temporary
}

void H5mdWriter::append(const H5mdFrameView<float>& frame, const std::vector<double>& observables) {
  state_->append(frame, observables);
}

void H5mdWriter::append(const H5mdFrameView<double>& frame,
                        const std::vector<double>& observables) {
  state_->append(frame, observables);
}

std::int64_t H5mdWriter::frames_written() const { return std::int64_t(state_->frames); }

void H5mdWriter::close() {
  State& s = *state_;
  if (s.closed) return;
  QuietHdf5 quiet;
  // A file with no frames still needs its box group for readers.
  if (!s.box_known) s.create_box(BoxKind::none);
  s.position = {};
  s.velocity = {};
  s.force = {};
  s.box = {};
  s.observables.clear();
  const bool flushed = H5Fflush(s.file.get(), H5F_SCOPE_GLOBAL) >= 0;
  s.file.reset();
  if (!flushed) throw InputError({s.path, "", -1}, "cannot finish writing the file");
  s.output->commit();
  s.closed = true;
}

}  // namespace kmol::io
