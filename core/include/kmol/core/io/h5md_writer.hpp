#pragma once
// H5MD 1.1 trajectory writer (HDF5 C API). Writes
//   /h5md                      version 1.1, author, creator
//   /particles/<group>/position/{value [T][N][3], step [T], time [T]}   unit Angstrom
//   /particles/<group>/box     dimension 3, boundary periodic|none, edges/{value [T][3][3], step,
//   time} /particles/<group>/species [N] (int32; attribute "names" when species names are given)
//   /particles/<group>/velocity, force   (optional, like position)
//   /observables/<name>/{value [T], step [T], time [T]}   (optional scalars per frame)
// chunked by frames and gzip-compressed, into "<path>.tmp-<pid>", renamed to <path> by close().
// A writer destroyed without close() (an exception, a crash) removes its temporary file, so a
// trajectory appears whole or not at all. MDAnalysis' H5MDReader reads these files.
//
//   kmol::io::H5mdWriterOptions options;  options.observables = {"potential_energy"};
//   kmol::io::H5mdWriter out("run.h5", n_atoms, species, options);
//   for (...) out.append({step, time, box, xyz.data()}, {energy});   // Vec3<float> or Vec3<double>
//   out.close();
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "kmol/core/box.hpp"

namespace kmol::io {

struct H5mdWriterOptions {
  std::string particle_group = "all";
  std::vector<std::string> species_names;  // optional: name of species 0, 1, ...
  bool velocities = false;                 // append() then requires FrameView::velocities
  bool forces = false;                     // append() then requires FrameView::forces
  std::vector<std::string> observables;    // names of scalar observables, one value per frame each
  bool double_precision = false;           // float64 vectors (default float32, as MD codes write)
  int compression_level = 4;               // gzip 1..9; 0 stores uncompressed (fastest to read)
  std::string creator = "kmol";
  std::string author = "kmol";
  std::string time_unit = "ps";
  std::string velocity_unit = "Angstrom ps-1";
  std::string force_unit = "kJ mol-1 Angstrom-1";
};

// One frame as append() takes it: pointers to n_atoms vectors in Angstrom (kept by the caller).
template <class T>
struct H5mdFrameView {
  std::int64_t step = 0;
  double time = 0;
  BoxSpec box;  // every frame must have the kind of the first (none: an open system)
  const Vec3<T>* positions = nullptr;
  const Vec3<T>* velocities = nullptr;
  const Vec3<T>* forces = nullptr;
};

class H5mdWriter {
 public:
  // species: one int32 per atom (empty: no species dataset).
  H5mdWriter(const std::string& path, std::int64_t n_atoms,
             const std::vector<std::int32_t>& species, const H5mdWriterOptions& options = {});
  ~H5mdWriter();
  H5mdWriter(const H5mdWriter&) = delete;
  H5mdWriter& operator=(const H5mdWriter&) = delete;

  // Appends a frame; observables in the order of options.observables. Throws InputError for
  // non-finite positions or a box of another kind than the first frame's.
  void append(const H5mdFrameView<float>& frame, const std::vector<double>& observables = {});
  void append(const H5mdFrameView<double>& frame, const std::vector<double>& observables = {});

  std::int64_t frames_written() const;
  // Flushes, closes and renames the temporary file to the final path.
  void close();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace kmol::io
