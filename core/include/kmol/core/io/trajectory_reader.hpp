#pragma once
// One interface over every trajectory format kmol reads, so that commands and the frame pipeline
// never ask which file they have:
//   H5MD (HDF5)                    always
//   GROMACS XTC, TRR, TNG          when built with Debian's libgromacs (trajectory_formats() says)
//   AMBER NetCDF (classic or 4)    when built with Debian's libnetcdf
// The format is told by the file's first bytes, never by its name alone; a file that is none of
// these is refused with what it looks like. Positions are in Angstrom whatever the file stores.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "kmol/core/box.hpp"
#include "kmol/core/vec3.hpp"

namespace kmol::io {

// Steps beyond this are refused as damaged: a double (a time, an H5MD step dataset) holds every
// step up to it exactly, and a run continued from one cannot overflow.
inline constexpr std::int64_t max_exact_step = std::int64_t(1) << 53;

struct FrameInfo {
  std::int64_t index = 0;  // position in the file, 0-based
  std::int64_t step = 0;
  double time = 0;  // as the file stores it (ps for GROMACS files)
  BoxSpec box;      // Angstrom; kind none for open boundaries
};

class TrajectoryReader {
 public:
  virtual ~TrajectoryReader() = default;

  virtual const std::string& path() const = 0;
  // The format and what identifies the data in it: "H5MD particles/all", "GROMACS XTC".
  virtual std::string description() const = 0;
  virtual std::int64_t n_frames() const = 0;
  virtual std::int64_t n_atoms() const = 0;
  virtual BoxKind box_kind() const = 0;

  // Per-atom data the file itself carries (H5MD species), else empty.
  virtual const std::vector<std::int32_t>& species() const { return empty_species_; }
  virtual const std::vector<std::string>& species_names() const { return empty_names_; }
  // Per-atom masses the file itself carries (H5MD mass, g/mol), else empty.
  virtual const std::vector<double>& masses() const { return empty_masses_; }
  // Notes for the user (a missing unit attribute, say).
  virtual const std::vector<std::string>& warnings() const { return empty_names_; }

  // Frame t into positions[0..n_atoms) in Angstrom. Throws InputError naming the file and frame
  // for data that cannot be read (a truncated frame, non-finite coordinates).
  virtual FrameInfo read_frame(std::int64_t t, Vec3<float>* positions) = 0;
  virtual FrameInfo read_frame(std::int64_t t, Vec3<double>* positions) = 0;
  // Only the metadata and box of frame t.
  virtual FrameInfo frame_info(std::int64_t t) = 0;

  // Another reader of the same file, whose reads may run on another thread at the same time as
  // this one's (frame-parallel decoding); null where the format cannot: XTC can (each reader has
  // its own file handle and seeks by the shared index), H5MD can (each reader reads the frame's
  // bytes from its own descriptor and decodes them outside HDF5's lock: H5mdReader::another);
  // NetCDF is built without thread safety and TRR and TNG are read sequentially.
  virtual std::unique_ptr<TrajectoryReader> another_reader() const { return nullptr; }

  // Seconds this reader spent converting the frames it read (byte order, precision, units,
  // checks) where it times that apart from reading them (H5MD), else 0: reading includes it.
  virtual double convert_seconds() const { return 0; }

  // Velocities, where the format stores them (H5MD, TRR, TNG; never XTC): whether frame t has
  // them, and frame t's positions with its velocities in Angstrom per the file's time unit. The
  // second throws InputError naming the file and frame when that frame has none.
  virtual bool has_velocities(std::int64_t t);
  virtual FrameInfo read_frame_with_velocities(std::int64_t t, Vec3<double>* positions,
                                               Vec3<double>* velocities);

 private:
  std::vector<std::int32_t> empty_species_;
  std::vector<std::string> empty_names_;
  std::vector<double> empty_masses_;
};

enum class FileKind { h5md_or_hdf5, xtc, trr, tng, tpr, netcdf, text, unknown };

// What the first bytes of `path` say it is; InputError when it cannot be opened.
FileKind sniff_file(const std::string& path);
// A phrase for messages: "a GROMACS XTC trajectory", "text starting with 'ATOM  ...'".
std::string describe_file(const std::string& path);

// Opens any supported trajectory; particle_group applies to H5MD only. The XTC reader indexes
// frame offsets once and caches the index beside the file (xtc_index.hpp).
std::unique_ptr<TrajectoryReader> open_trajectory_file(const std::string& path,
                                                       const std::string& particle_group = "");

// The formats this build reads and through what, for `kmol info`.
std::vector<std::string> trajectory_formats();

}  // namespace kmol::io
