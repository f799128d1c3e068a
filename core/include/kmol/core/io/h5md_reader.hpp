#pragma once
// H5MD 1.1 trajectory reader (HDF5 C API), frame by frame: each read_frame() reads one hyperslab
// of position/value, never the whole trajectory. Understands
//   particles/<group>/position/{value [T][N][3], step, time}  (step/time as [T] or scalar + offset)
//   particles/<group>/box: dimension, boundary, edges fixed ([3] or [3][3]) or time-dependent
//                          (edges/value [T][3] or [T][3][3])
//   optional species, charge, mass, id ([N], or time-dependent: first frame), velocity
//   the "unit" attribute of lengths: Angstrom, Ang, A, nm, pm (converted to Angstrom; absent:
//   Angstrom, with a warning).
// Errors are InputError naming the file, the dataset and the frame or atom.
//
// libhdf5 can crash or loop on a damaged file's internals (its global heap, a group's symbol
// table), so a file opened by path is first walked in a child process (contained_call.hpp): its
// groups, attributes, per-atom data, step and time of every frame, and the first and last
// frames. A file whose walk dies or runs past its limits is refused; one that passes is not
// walked again by this process while it is unchanged.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "kmol/core/box.hpp"

namespace kmol::io {

struct H5mdFrameInfo {
  std::int64_t index = 0;  // position in the file, 0-based
  std::int64_t step = 0;
  double time = 0;
  BoxSpec box;  // Angstrom; kind none for open boundaries
};

class H5mdReader {
 public:
  // particle_group empty: the file's only group, or "all" when there are several.
  explicit H5mdReader(const std::string& path, const std::string& particle_group = "");
  // An HDF5 file image in memory (copied); `name` stands for the file in messages.
  H5mdReader(const void* image, std::size_t size, const std::string& name,
             const std::string& particle_group = "");
  ~H5mdReader();
  H5mdReader(const H5mdReader&) = delete;
  H5mdReader& operator=(const H5mdReader&) = delete;

  const std::string& path() const;
  const std::string& particle_group() const;
  std::int64_t n_frames() const;
  std::int64_t n_atoms() const;
  BoxKind box_kind() const;
  bool box_time_dependent() const;
  bool has_velocities() const;

  // Per-atom data when the file has it (empty otherwise).
  const std::vector<std::int32_t>& species() const;
  const std::vector<std::string>& species_names() const;  // attribute "names" of species, if any
  const std::vector<double>& charges() const;
  const std::vector<double>& masses() const;
  const std::vector<std::int64_t>& ids() const;

  // Notes for the user (a missing unit attribute, say).
  const std::vector<std::string>& warnings() const;

  // Reads frame t into positions[0..n_atoms) (Angstrom), and velocities when not null. Throws
  // InputError for unreadable data (naming the frame) or non-finite coordinates (frame and atom).
  template <class T>
  H5mdFrameInfo read_frame(std::int64_t t, Vec3<T>* positions, Vec3<T>* velocities = nullptr);

  // Only the metadata and box of frame t.
  H5mdFrameInfo frame_info(std::int64_t t);

  // Another reader of the same file (opened by path; null for an image), whose reads may run on
  // another thread beside this one's: positions and velocities stored contiguously, raw or
  // through deflate and shuffle are read with pread and decoded outside HDF5's global lock
  // (core/src/io/h5md_direct.hpp); other storage through H5Dread, one call at a time.
  std::unique_ptr<H5mdReader> another() const;
  // Seconds spent converting the frames read so far (byte order and precision where read
  // directly, units, the finite check), apart from reading them.
  double convert_seconds() const;
  // Direct reads (the default) or every frame through H5Dread: both give the same values.
  void set_direct_reads(bool on);
  // How positions are read directly ("contiguous", "chunked deflate+shuffle", ...); empty when
  // H5Dread reads them.
  std::string position_storage() const;

  // The child-process walk the path constructor makes first (once per unchanged file): returns
  // when it passed or met only InputErrors (the reader meets and reports them again); throws
  // InputError naming the file when the walk died or ran past its limits.
  static void check_structure(const std::string& path, const std::string& particle_group = "");

 private:
  struct Unprobed {};
  H5mdReader(Unprobed, const std::string& path, const std::string& particle_group);
  static void walk(const std::string& path, const std::string& particle_group);
  void open(const std::string& particle_group);  // after the file is open
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace kmol::io
