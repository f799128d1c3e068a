#pragma once
// Rows of an HDF5 dataset [T][...] of IEEE floats read without HDF5: where the rows lie is
// resolved through the library (the contiguous block's offset, each chunk's address, the filter
// pipeline), then each reader reads a frame's bytes with pread on its own descriptor and decodes
// them (zlib's inflate, HDF5's byte shuffle, byte order, float or double) itself. HDF5 serialises
// every call behind one lock, so reader threads calling H5Dread never overlap; these do.
//
// Read directly: contiguous data, and chunks stored raw or through deflate with an optional
// shuffle, in a file of the default (sec2) driver without a user block. Anything else (another
// filter, external or virtual storage, a file image, partial chunks left unfiltered) is left to
// H5Dread: DirectRows::open returns null. The values are those H5Dread gives, bit for bit.
#include <hdf5.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "kmol/core/errors.hpp"

namespace kmol::io {

class DirectRows {
 public:
  // `dataset` of the file opened at `path`; null when its storage is read through HDF5 only.
  static std::unique_ptr<DirectRows> open(hid_t file, hid_t dataset, const std::string& path);
  ~DirectRows();
  DirectRows(const DirectRows&) = delete;
  DirectRows& operator=(const DirectRows&) = delete;

  // Another reader of the same rows with its own file descriptor, sharing the chunk addresses.
  std::unique_ptr<DirectRows> another() const;

  // Row t (every value of frame t, in the dataset's order) into out. False when a chunk of it
  // was never written (HDF5 gives fill values: read it through H5Dread). InputError naming `at`
  // for bytes that cannot be read or decoded (past the end of the file, a corrupt stream).
  bool read(std::int64_t t, float* out, const ErrorContext& at);
  bool read(std::int64_t t, double* out, const ErrorContext& at);

  // Seconds spent converting rows read so far (byte order, float or double), apart from reading.
  double convert_seconds() const { return convert_seconds_; }

  // "contiguous", "chunked raw", "chunked deflate+shuffle": how the rows are stored.
  std::string storage() const;

  struct Layout;

 private:
  DirectRows(std::shared_ptr<Layout> layout);
  template <class T>
  bool read_row(std::int64_t t, T* out, const ErrorContext& at);
  bool read_stored_row(std::int64_t t, unsigned char* out, const ErrorContext& at);
  const unsigned char* row_bytes(std::int64_t t, const ErrorContext& at, bool& written);
  const unsigned char* chunk_bytes(const std::vector<hsize_t>& origin, const ErrorContext& at);

  std::shared_ptr<Layout> layout_;
  int descriptor_ = -1;
  std::vector<unsigned char> stored_, scratch_, decoded_, row_;  // this reader's buffers
  std::vector<hsize_t> decoded_origin_;                          // the chunk decoded_ holds
  double convert_seconds_ = 0;
};

}  // namespace kmol::io
