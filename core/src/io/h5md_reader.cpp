#include "kmol/core/io/h5md_reader.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <mutex>

#include "h5md_direct.hpp"
#include "kmol/core/errors.hpp"
#include "kmol/core/io/contained_call.hpp"
#include "kmol/core/io/hdf5_handle.hpp"
#include "kmol/core/io/trajectory_reader.hpp"
#include "kmol/core/io/units.hpp"

namespace kmol::io {
namespace {

std::string shape_text(const std::vector<hsize_t>& shape) {
  std::string text;
  for (hsize_t d : shape) text += "[" + std::to_string(d) + "]";
  return text.empty() ? "a scalar" : text;
}

// Per-frame step or time: a [T] dataset, or a scalar interval with an optional offset. A [T]
// dataset is read a block of frames at a time, so that frame_info over a whole trajectory costs
// a few reads, and at most a block is held whatever length the file claims.
struct Clock {
  static constexpr hsize_t block_size = 4096;
  Hid dataset;
  bool per_frame = false;
  hsize_t length = 0;
  double interval = 0, offset = 0;
  hsize_t block_start = 0;
  std::vector<double> block;

  bool present() const { return dataset.valid(); }
  bool holds(hsize_t t) const { return t >= block_start && t - block_start < block.size(); }
};

}  // namespace

struct H5mdReader::State {
  std::string path, group_name, group_path;
  QuietHdf5 quiet;  // kmol reports HDF5 errors itself
  Hid file, position, velocity, box_edges;
  // Positions and velocities read without HDF5 where their storage allows (h5md_direct.hpp);
  // null: H5Dread reads them. Files opened from an image in memory are read through HDF5.
  std::unique_ptr<DirectRows> direct_position, direct_velocity;
  bool opened_by_path = false, direct_reads = true;
  double convert_seconds = 0;  // units and checks of the frames read (convert_seconds())
  Clock step, time;
  std::int64_t frames = 0, atoms = 0;
  double length_factor = 1, velocity_factor = 1, box_factor = 1;
  BoxKind box_kind = BoxKind::none;
  bool box_time_dependent = false;
  hsize_t box_frames = 0;
  BoxSpec fixed_box;
  std::vector<std::int32_t> species;
  std::vector<std::string> species_names, warnings;
  std::vector<double> charges, masses;
  std::vector<std::int64_t> ids;
  std::vector<double> buffer;  // staging for box reads
  std::string velocity_unit_error;

  ErrorContext at(const std::string& field, long index = -1) const {
    return {path, group_path + "/" + field, index};
  }

  // The dataset, or none when there is no such link; InputError when it is there but unreadable.
  Hid open_dataset(const std::string& name) const {
    if (!link_exists(file.get(), group_path + "/" + name)) return {};
    Hid dataset(H5Dopen2(file.get(), (group_path + "/" + name).c_str(), H5P_DEFAULT));
    if (!dataset.valid())
      throw InputError(
          at(name), "unreadable dataset (" + last_hdf5_message() + "; truncated or damaged file?)");
    return dataset;
  }

  // A string attribute of a dataset or group, errors naming the file and the object.
  std::vector<std::string> strings(hid_t object, const std::string& field,
                                   const std::string& attribute) const {
    try {
      return read_string_attribute(object, attribute);
    } catch (const InputError& e) {
      throw InputError(at(field), e.what());
    }
  }

  // The Angstrom factor of a length dataset's unit attribute (warning when absent).
  double length_unit(hid_t dataset, const std::string& field) {
    const auto unit = strings(dataset, field, "unit");
    if (unit.empty()) {
      warnings.push_back(path + ": " + group_path + "/" + field +
                         " has no unit attribute; assuming Angstrom");
      return 1;
    }
    // Velocities carry "<length> <time>-1": only the length part is converted.
    const std::string length = unit[0].substr(0, unit[0].find(' '));
    const auto factor = angstrom_per_unit(length);
    if (!factor)
      throw InputError(at(field), "unknown length unit '" + unit[0] + "' (expected " +
                                      accepted_length_units() + ")");
    return *factor;
  }

  void open_file() {
    struct stat info;
    if (stat(path.c_str(), &info) != 0) throw InputError({path, "", -1}, "no such file");
    if (H5Fis_hdf5(path.c_str()) <= 0)
      throw InputError({path, "", -1}, "not an HDF5 file (expected H5MD)");
    file = Hid(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
    check_opened();
    opened_by_path = true;
  }

  // HDF5's core driver reads a copy of the image; nothing touches the disk.
  void open_image(const void* image, std::size_t size) {
    Hid access(H5Pcreate(H5P_FILE_ACCESS));
    if (H5Pset_fapl_core(access.get(), 1 << 16, 0) < 0 ||
        H5Pset_file_image(access.get(), const_cast<void*>(image), size) < 0)
      throw InputError({path, "", -1}, "cannot hold the HDF5 image (" + last_hdf5_message() + ")");
    file = Hid(H5Fopen(path.c_str(), H5F_ACC_RDONLY, access.get()));
    check_opened();
  }

  void check_opened() {
    if (!file.valid())
      throw InputError({path, "", -1}, "cannot open the HDF5 file (" + last_hdf5_message() +
                                           "; truncated or damaged?)");
  }

  // The names under particles/, bounded by the count the group states and by a cap: a damaged
  // group can state any count or fail any lookup.
  std::vector<std::string> particle_groups() {
    constexpr hsize_t most_groups = 10000;
    Hid particles(H5Gopen2(file.get(), "particles", H5P_DEFAULT));
    H5G_info_t info{};
    if (!particles.valid() || H5Gget_info(particles.get(), &info) < 0)
      throw InputError({path, "particles", -1}, "unreadable group (" + last_hdf5_message() +
                                                    "; truncated or damaged file?)");
    if (info.nlinks > most_groups)
      throw InputError({path, "particles", -1},
                       "states " + std::to_string(info.nlinks) + " particle groups (at most " +
                           std::to_string(most_groups) + " expected: a damaged file?)");
    std::vector<std::string> names;
    for (hsize_t i = 0; i < info.nlinks; ++i) {
      char name[256] = {};
      const ssize_t length = H5Lget_name_by_idx(particles.get(), ".", H5_INDEX_NAME, H5_ITER_INC, i,
                                                name, sizeof(name), H5P_DEFAULT);
      if (length <= 0 || length >= ssize_t(sizeof(name)))
        throw InputError({path, "particles", long(i)},
                         "unreadable particle group name (" + last_hdf5_message() +
                             "; names up to 255 characters expected)");
      names.emplace_back(name, std::size_t(length));
    }
    return names;
  }

  void choose_group(const std::string& requested) {
    if (!link_exists(file.get(), "particles"))
      throw InputError({path, "particles", -1}, "no 'particles' group: not an H5MD trajectory");
    const std::vector<std::string> names = particle_groups();
    std::string list;
    for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
    if (!requested.empty()) {
      if (std::find(names.begin(), names.end(), requested) == names.end())
        throw InputError({path, "particles/" + requested, -1},
                         "no such particle group (the file has: " + list + ")");
      group_name = requested;
    } else if (names.size() == 1) {
      group_name = names[0];
    } else if (std::find(names.begin(), names.end(), "all") != names.end()) {
      group_name = "all";
    } else {
      throw InputError({path, "particles", -1},
                       names.empty() ? "no particle group"
                                     : "several particle groups (" + list + "): choose one");
    }
    group_path = "particles/" + group_name;
  }

  void open_positions() {
    position = open_dataset("position/value");
    if (!position.valid())
      throw InputError(at("position/value"), "missing (every H5MD trajectory needs positions)");
    const auto shape = dataset_shape(position.get());
    if (shape.size() != 3 || shape[2] != 3)
      throw InputError(at("position/value"),
                       "shape is " + shape_text(shape) + ", expected [frames][atoms][3]");
    frames = std::int64_t(shape[0]);
    atoms = std::int64_t(shape[1]);
    length_factor = length_unit(position.get(), "position/value");
    step = open_clock("position/step");
    time = open_clock("position/time");
    velocity = open_dataset("velocity/value");
    if (velocity.valid()) {
      if (dataset_shape(velocity.get()) != shape)
        throw InputError(at("velocity/value"),
                         "shape is " + shape_text(dataset_shape(velocity.get())) +
                             ", expected that of position/value, " + shape_text(shape));
      // Only an error once velocities are asked for: analyses of positions do not need them.
      try {
        velocity_factor = length_unit(velocity.get(), "velocity/value");
      } catch (const InputError& e) {
        velocity_unit_error = e.what();
      }
    }
    if (opened_by_path) {
      direct_position = DirectRows::open(file.get(), position.get(), path);
      if (velocity.valid()) direct_velocity = DirectRows::open(file.get(), velocity.get(), path);
    }
  }

  Clock open_clock(const std::string& name) {
    Clock clock;
    clock.dataset = open_dataset(name);
    if (!clock.dataset.valid()) return clock;
    const auto shape = dataset_shape(clock.dataset.get());
    if (shape.empty()) {
      if (H5Dread(clock.dataset.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT,
                  &clock.interval) < 0)
        throw InputError(at(name), "cannot read (" + last_hdf5_message() + ")");
      if (attribute_exists(clock.dataset.get(), "offset")) {
        Hid offset(H5Aopen(clock.dataset.get(), "offset", H5P_DEFAULT));
        if (H5Aread(offset.get(), H5T_NATIVE_DOUBLE, &clock.offset) < 0)
          throw InputError(at(name), "unreadable offset attribute (" + last_hdf5_message() + ")");
      }
      if (!std::isfinite(clock.interval) || !std::isfinite(clock.offset))
        throw InputError(at(name), "interval " + std::to_string(clock.interval) + " and offset " +
                                       std::to_string(clock.offset) + ": expected finite numbers");
    } else if (shape.size() == 1) {
      clock.per_frame = true;
      clock.length = shape[0];
    } else {
      throw InputError(at(name),
                       "shape is " + shape_text(shape) + ", expected [frames] or a scalar");
    }
    return clock;
  }

  // Frame t's value, which must be finite: a NaN or infinite time or step is a damaged file.
  double clock_value(Clock& clock, const std::string& name, std::int64_t t) {
    if (!clock.present()) return double(t);
    double value = 0;
    if (!clock.per_frame) {
      value = clock.offset + clock.interval * double(t);
    } else {
      if (hsize_t(t) >= clock.length)
        throw InputError(at(name, t), "has only " + std::to_string(clock.length) + " entries for " +
                                          std::to_string(frames) + " frames (truncated file?)");
      if (!clock.holds(hsize_t(t))) read_block(clock, name, hsize_t(t));
      value = clock.block[hsize_t(t) - clock.block_start];
    }
    if (!std::isfinite(value))
      throw InputError(at(name, t), "is " + std::to_string(value) + ": expected a finite number");
    return value;
  }

  void read_block(Clock& clock, const std::string& name, hsize_t t) {
    const hsize_t start = t - t % Clock::block_size;
    const hsize_t count = std::min(Clock::block_size, clock.length - start);
    clock.block.assign(count, 0.0);
    clock.block_start = start;
    Hid file_space(H5Dget_space(clock.dataset.get()));
    Hid memory_space(H5Screate_simple(1, &count, nullptr));
    if (H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, &start, nullptr, &count, nullptr) <
            0 ||
        H5Dread(clock.dataset.get(), H5T_NATIVE_DOUBLE, memory_space.get(), file_space.get(),
                H5P_DEFAULT, clock.block.data()) < 0) {
      clock.block.clear();
      throw InputError(at(name, long(t)),
                       "cannot read (" + last_hdf5_message() + "; truncated or damaged file?)");
    }
  }

  // The step of frame t: an integer within +-2^53, so that a run continued from it cannot
  // overflow and a double holds it exactly.
  std::int64_t step_of(std::int64_t t) {
    const double value = clock_value(step, "position/step", t);
    if (std::abs(value) > double(max_exact_step))
      throw InputError(at("position/step", t),
                       std::to_string(value) + " is beyond +-2^53 (a damaged step?)");
    return std::int64_t(std::llround(value));
  }

  // Reads row t (row_size values) of a dataset whose first dimension counts frames. The memory
  // space has the row's own shape: with a flat one HDF5 walks the selection element by element,
  // which made reading 15x slower than the copy itself.
  void read_rows(hid_t dataset, std::int64_t t, hsize_t row_size, hid_t memory_type, void* out,
                 const std::string& name) {
    Hid file_space(H5Dget_space(dataset));
    const int rank = H5Sget_simple_extent_ndims(file_space.get());
    std::vector<hsize_t> dims(rank), start(rank, 0), count(rank);
    H5Sget_simple_extent_dims(file_space.get(), dims.data(), nullptr);
    start[0] = hsize_t(t);
    count = dims;
    count[0] = 1;
    H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, start.data(), nullptr, count.data(),
                        nullptr);
    hsize_t values_in_row = 1;
    for (const hsize_t c : count) values_in_row *= c;
    if (values_in_row != row_size)
      throw InputError(at(name, t), "a row holds " + std::to_string(values_in_row) +
                                        " values, expected " + std::to_string(row_size));
    Hid memory_space(H5Screate_simple(rank, count.data(), nullptr));
    if (H5Dread(dataset, memory_type, memory_space.get(), file_space.get(), H5P_DEFAULT, out) < 0)
      throw InputError(at(name, t), "cannot read this frame (" + last_hdf5_message() +
                                        "; truncated or damaged file?)");
  }

  // Row t of positions or velocities: directly where the storage allows, else through H5Dread
  // (also for a chunk never written, whose fill values HDF5 gives).
  template <class T>
  void read_coordinates(hid_t dataset, DirectRows* direct, std::int64_t t, hsize_t values,
                        Vec3<T>* out, const std::string& name) {
    if (direct_reads && direct != nullptr && direct->read(t, &out[0].x, at(name, t))) return;
    const hid_t memory = std::is_same_v<T, double> ? H5T_NATIVE_DOUBLE : H5T_NATIVE_FLOAT;
    read_rows(dataset, t, values, memory, out, name);
  }

  void open_box() {
    if (!link_exists(file.get(), group_path + "/box")) {
      warnings.push_back(path + ": " + group_path +
                         "/box is missing; treating the system as non-periodic");
      return;
    }
    Hid box(H5Gopen2(file.get(), (group_path + "/box").c_str(), H5P_DEFAULT));
    if (!box.valid())
      throw InputError(
          at("box"), "unreadable group (" + last_hdf5_message() + "; truncated or damaged file?)");
    const auto boundary = strings(box.get(), "box", "boundary");
    int periodic = 0;
    for (const auto& b : boundary) periodic += b == "periodic";
    if (!boundary.empty() && periodic == 0) return;
    if (!boundary.empty() && (periodic != 3 || boundary.size() != 3))
      throw InputError(at("box"), "boundary must be periodic in all three dimensions or in none");
    const std::string edges_path = group_path + "/box/edges";
    if (!link_exists(file.get(), edges_path))
      throw InputError(at("box/edges"), "missing for a periodic box");
    H5O_info_t info{};
    if (H5Oget_info_by_name(file.get(), edges_path.c_str(), &info, H5P_DEFAULT) < 0)
      throw InputError(at("box/edges"),
                       "unreadable (" + last_hdf5_message() + "; truncated or damaged file?)");
    std::vector<hsize_t> shape;
    if (info.type == H5O_TYPE_GROUP) {
      box_time_dependent = true;
      box_edges = open_dataset("box/edges/value");
      if (!box_edges.valid()) throw InputError(at("box/edges/value"), "missing");
      shape = dataset_shape(box_edges.get());
      const bool ok = (shape.size() == 2 && shape[1] == 3) ||
                      (shape.size() == 3 && shape[1] == 3 && shape[2] == 3);
      if (!ok)
        throw InputError(at("box/edges/value"), "shape is " + shape_text(shape) +
                                                    ", expected [frames][3] or [frames][3][3]");
      box_frames = shape[0];
      box_factor = length_unit(box_edges.get(), "box/edges/value");
      shape.erase(shape.begin());
    } else {
      box_edges = open_dataset("box/edges");
      shape = dataset_shape(box_edges.get());
      if (shape != std::vector<hsize_t>{3} && shape != std::vector<hsize_t>{3, 3})
        throw InputError(at("box/edges"),
                         "shape is " + shape_text(shape) + ", expected [3] or [3][3]");
      box_factor = length_unit(box_edges.get(), "box/edges");
    }
    box_kind = shape.size() == 1 ? BoxKind::orthorhombic : BoxKind::triclinic;
    if (!box_time_dependent) {
      buffer.assign(9, 0.0);
      if (H5Dread(box_edges.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT,
                  buffer.data()) < 0)
        throw InputError(at("box/edges"),
                         "cannot read (" + last_hdf5_message() + "; truncated or damaged file?)");
      fixed_box = box_from(buffer.data(), -1);
    }
  }

  BoxSpec box_from(const double* e, std::int64_t t) {
    const double f = box_factor;
    BoxSpec box;
    if (box_kind == BoxKind::orthorhombic) {
      box = BoxSpec::orthorhombic(f * e[0], f * e[1], f * e[2]);
    } else if (e[1] == 0 && e[2] == 0 && e[3] == 0 && e[5] == 0 && e[6] == 0 && e[7] == 0) {
      // A diagonal [3][3] matrix is a rectangular box (MDAnalysis writes every box as a matrix).
      box = BoxSpec::orthorhombic(f * e[0], f * e[4], f * e[8]);
    } else {
      box = BoxSpec::triclinic({f * e[0], f * e[1], f * e[2]}, {f * e[3], f * e[4], f * e[5]},
                               {f * e[6], f * e[7], f * e[8]});
    }
    try {
      validated(box);
    } catch (const InputError& e) {
      throw InputError(at(box_time_dependent ? "box/edges/value" : "box/edges", t), e.what());
    }
    return box;
  }

  BoxSpec box_at(std::int64_t t) {
    if (box_kind == BoxKind::none || !box_time_dependent)
      return box_kind == BoxKind::none ? BoxSpec::none() : fixed_box;
    if (hsize_t(t) >= box_frames)
      throw InputError(at("box/edges/value", t), "has only " + std::to_string(box_frames) +
                                                     " frames for " + std::to_string(frames) +
                                                     " (truncated file?)");
    buffer.assign(9, 0.0);
    read_rows(box_edges.get(), t, box_kind == BoxKind::orthorhombic ? 3 : 9, H5T_NATIVE_DOUBLE,
              buffer.data(), "box/edges/value");
    return box_from(buffer.data(), t);
  }

  // A per-atom property: dataset [N], or a time-dependent group whose value [T][N] gives frame 0.
  template <class V>
  std::vector<V> per_atom(const std::string& name, hid_t memory_type) {
    std::string dataset_name = name;
    if (link_exists(file.get(), group_path + "/" + name + "/value")) dataset_name = name + "/value";
    Hid dataset = open_dataset(dataset_name);
    if (!dataset.valid()) return {};
    const auto shape = dataset_shape(dataset.get());
    const bool fixed = shape.size() == 1 && std::int64_t(shape[0]) == atoms;
    const bool varying = shape.size() == 2 && std::int64_t(shape[1]) == atoms;
    if (!fixed && !varying)
      throw InputError(at(dataset_name), "shape is " + shape_text(shape) + ", expected [" +
                                             std::to_string(atoms) + "] or [frames][" +
                                             std::to_string(atoms) + "]");
    std::vector<V> values(atoms);
    if (atoms == 0) return values;
    if (fixed) {
      if (H5Dread(dataset.get(), memory_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()) < 0)
        throw InputError(at(dataset_name), "cannot read (" + last_hdf5_message() + ")");
    } else {
      read_rows(dataset.get(), 0, hsize_t(atoms), memory_type, values.data(), dataset_name);
    }
    if (name == "species") species_names = strings(dataset.get(), dataset_name, "names");
    return values;
  }

  template <class T>
  void check_finite(const Vec3<T>* p, std::int64_t t, const std::string& field) const {
    for (std::int64_t i = 0; i < atoms; ++i)
      if (!std::isfinite(p[i].x) || !std::isfinite(p[i].y) || !std::isfinite(p[i].z))
        throw InputError(at(field, t),
                         "atom " + std::to_string(i) + " has a non-finite coordinate");
  }
};

H5mdReader::H5mdReader(const std::string& path, const std::string& particle_group)
    : state_(std::make_unique<State>()) {
  check_structure(path, particle_group);
  state_->path = path;
  state_->open_file();
  open(particle_group);
}

H5mdReader::H5mdReader(Unprobed, const std::string& path, const std::string& particle_group)
    : state_(std::make_unique<State>()) {
  state_->path = path;
  state_->open_file();
  open(particle_group);
}

namespace {

// A file as it is now: a changed file is walked again.
struct FileIdentity {
  dev_t device = 0;
  ino_t inode = 0;
  off_t size = 0;
  std::int64_t modified_ns = 0;
  bool operator==(const FileIdentity& o) const {
    return device == o.device && inode == o.inode && size == o.size && modified_ns == o.modified_ns;
  }
};

std::mutex probed_mutex;
std::vector<FileIdentity> probed_files;

}  // namespace

void H5mdReader::check_structure(const std::string& path, const std::string& particle_group) {
  struct stat info {};
  if (stat(path.c_str(), &info) != 0) return;  // open_file() names the error
  const FileIdentity file{info.st_dev, info.st_ino, info.st_size,
                          std::int64_t(info.st_mtim.tv_sec) * 1000000000 + info.st_mtim.tv_nsec};
  std::lock_guard<std::mutex> lock(probed_mutex);
  if (std::find(probed_files.begin(), probed_files.end(), file) != probed_files.end()) return;
  // The walk reads metadata, per-atom data and two frames: 10 s and 1 GiB, plus reading and
  // holding the whole file once over.
  const double size = double(info.st_size);
  ChildLimits limits;
  limits.seconds = 10 + size / 100e6;
  limits.extra_bytes = (std::int64_t(1) << 30) + std::int64_t(size);
  const ChildOutcome outcome = run_in_child(
      [&] {
        walk(path, particle_group);
        return std::string();
      },
      limits);
  if (outcome.kind == ChildOutcome::could_not_start)
    throw RunFailure(path + ": cannot check the HDF5 file in a separate process: the process " +
                     outcome.description());
  if (outcome.kind != ChildOutcome::finished)
    throw InputError({path, "", -1}, "reading its HDF5 structure in a separate process " +
                                         outcome.description() +
                                         ": the file is damaged (refused, not read)");
  // A few recent files suffice: a run reopens the same ones.
  constexpr std::size_t remembered = 64;
  if (probed_files.size() == remembered) probed_files.erase(probed_files.begin());
  probed_files.push_back(file);
}

// What a run reads, each part on its own: an InputError ends only its part, since the parent
// meets it again and reports it, and may never read that part (frames outside --frames).
void H5mdReader::walk(const std::string& path, const std::string& particle_group) {
  std::unique_ptr<H5mdReader> reader;
  try {
    reader.reset(new H5mdReader(Unprobed{}, path, particle_group));
  } catch (const InputError&) {
    return;
  }
  State& s = *reader->state_;
  auto part = [](auto&& read) {
    try {
      read();
    } catch (const InputError&) {
    }
  };
  part([&] {
    for (std::int64_t t = 0; t < s.frames; ++t) s.step_of(t);
  });
  part([&] {
    for (std::int64_t t = 0; t < s.frames; ++t) s.clock_value(s.time, "position/time", t);
  });
  std::vector<Vec3<float>> positions(std::size_t(s.atoms)), velocities(std::size_t(s.atoms));
  for (const std::int64_t t : {std::int64_t(0), s.frames - 1})
    part([&] {
      reader->read_frame(t, positions.data(), s.velocity.valid() ? velocities.data() : nullptr);
    });
}

H5mdReader::H5mdReader(const void* image, std::size_t size, const std::string& name,
                       const std::string& particle_group)
    : state_(std::make_unique<State>()) {
  state_->path = name;
  state_->open_image(image, size);
  open(particle_group);
}

void H5mdReader::open(const std::string& particle_group) {
  State& s = *state_;
  s.choose_group(particle_group);
  s.open_positions();
  s.open_box();
  s.species = s.per_atom<std::int32_t>("species", H5T_NATIVE_INT32);
  s.charges = s.per_atom<double>("charge", H5T_NATIVE_DOUBLE);
  s.masses = s.per_atom<double>("mass", H5T_NATIVE_DOUBLE);
  s.ids = s.per_atom<std::int64_t>("id", H5T_NATIVE_INT64);
  for (std::size_t i = 0; i < s.species.size(); ++i)
    if (s.species[i] < 0) throw InputError(s.at("species", long(i)), "negative species index");
}

H5mdReader::~H5mdReader() = default;

const std::string& H5mdReader::path() const { return state_->path; }
const std::string& H5mdReader::particle_group() const { return state_->group_name; }
std::int64_t H5mdReader::n_frames() const { return state_->frames; }
std::int64_t H5mdReader::n_atoms() const { return state_->atoms; }
BoxKind H5mdReader::box_kind() const { return state_->box_kind; }
bool H5mdReader::box_time_dependent() const { return state_->box_time_dependent; }
bool H5mdReader::has_velocities() const { return state_->velocity.valid(); }
const std::vector<std::int32_t>& H5mdReader::species() const { return state_->species; }
const std::vector<std::string>& H5mdReader::species_names() const { return state_->species_names; }
const std::vector<double>& H5mdReader::charges() const { return state_->charges; }
const std::vector<double>& H5mdReader::masses() const { return state_->masses; }
const std::vector<std::int64_t>& H5mdReader::ids() const { return state_->ids; }
const std::vector<std::string>& H5mdReader::warnings() const { return state_->warnings; }

std::unique_ptr<H5mdReader> H5mdReader::another() const {
  const State& s = *state_;
  // HDF5's calls from several threads (the box, step and time of each frame, chunk addresses)
  // need a library built thread-safe; Debian's is.
  hbool_t thread_safe = false;
  if (!s.opened_by_path || H5is_library_threadsafe(&thread_safe) < 0 || !thread_safe)
    return nullptr;
  std::unique_ptr<H5mdReader> reader(new H5mdReader(Unprobed{}, s.path, s.group_name));
  State& other = *reader->state_;
  other.direct_reads = s.direct_reads;
  // The same storage map, each reader with its own descriptor.
  other.direct_position = s.direct_position ? s.direct_position->another() : nullptr;
  other.direct_velocity = s.direct_velocity ? s.direct_velocity->another() : nullptr;
  return reader;
}

void H5mdReader::set_direct_reads(bool on) { state_->direct_reads = on; }

double H5mdReader::convert_seconds() const {
  const State& s = *state_;
  return s.convert_seconds + (s.direct_position ? s.direct_position->convert_seconds() : 0) +
         (s.direct_velocity ? s.direct_velocity->convert_seconds() : 0);
}

std::string H5mdReader::position_storage() const {
  const State& s = *state_;
  return s.direct_reads && s.direct_position ? s.direct_position->storage() : "";
}

H5mdFrameInfo H5mdReader::frame_info(std::int64_t t) {
  State& s = *state_;
  QuietHdf5 quiet;  // HDF5's error printing is per thread: this may be another one
  if (t < 0 || t >= s.frames)
    throw InputError(s.at("position/value", t),
                     "no such frame (the file has " + std::to_string(s.frames) + ")");
  H5mdFrameInfo info;
  info.index = t;
  info.step = s.step_of(t);
  info.time = s.time.present() ? s.clock_value(s.time, "position/time", t) : double(info.step);
  info.box = s.box_at(t);
  return info;
}

template <class T>
H5mdFrameInfo H5mdReader::read_frame(std::int64_t t, Vec3<T>* positions, Vec3<T>* velocities) {
  State& s = *state_;
  QuietHdf5 quiet;
  const H5mdFrameInfo info = frame_info(t);
  const hsize_t values = hsize_t(s.atoms) * 3;
  auto scale = [&](Vec3<T>* p, double factor) {
    if (factor == 1) return;
    const T f = T(factor);
    for (std::int64_t i = 0; i < s.atoms; ++i) p[i] = f * p[i];
  };
  if (s.atoms > 0) {
    s.read_coordinates(s.position.get(), s.direct_position.get(), t, values, positions,
                       "position/value");
    const auto begin = std::chrono::steady_clock::now();
    scale(positions, s.length_factor);
    s.check_finite(positions, t, "position/value");
    s.convert_seconds +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    if (velocities != nullptr) {
      if (!s.velocity.valid()) throw InputError(s.at("velocity/value"), "missing");
      if (!s.velocity_unit_error.empty()) throw InputError({}, s.velocity_unit_error);
      s.read_coordinates(s.velocity.get(), s.direct_velocity.get(), t, values, velocities,
                         "velocity/value");
      scale(velocities, s.velocity_factor);
    }
  }
  return info;
}

template H5mdFrameInfo H5mdReader::read_frame(std::int64_t, Vec3<float>*, Vec3<float>*);
template H5mdFrameInfo H5mdReader::read_frame(std::int64_t, Vec3<double>*, Vec3<double>*);

}  // namespace kmol::io
