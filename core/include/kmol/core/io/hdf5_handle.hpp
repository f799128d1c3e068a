#pragma once
// Owning wrappers for HDF5 identifiers and the few helpers the H5MD reader and writer share.
#include <hdf5.h>

#include <string>
#include <utility>
#include <vector>

namespace kmol::io {

// Closes an HDF5 identifier (file, group, dataset, dataspace, type, attribute, property list).
class Hid {
 public:
  Hid() = default;
  explicit Hid(hid_t id) : id_(id) {}
  Hid(Hid&& other) noexcept : id_(std::exchange(other.id_, -1)) {}
  Hid& operator=(Hid&& other) noexcept {
    if (this != &other) {
      reset();
      id_ = std::exchange(other.id_, -1);
    }
    return *this;
  }
  Hid(const Hid&) = delete;
  Hid& operator=(const Hid&) = delete;
  ~Hid() { reset(); }

  hid_t get() const { return id_; }
  bool valid() const { return id_ >= 0; }
  void reset();

 private:
  hid_t id_ = -1;
};

// Silences HDF5's own error printing for the lifetime of the object; kmol reports errors itself.
class QuietHdf5 {
 public:
  QuietHdf5();
  ~QuietHdf5();

 private:
  H5E_auto2_t function_ = nullptr;
  void* data_ = nullptr;
};

bool link_exists(hid_t location, const std::string& path);
bool attribute_exists(hid_t object, const std::string& name);
// The innermost message of HDF5's error stack (for reports such as "file is truncated").
std::string last_hdf5_message();

// Dimensions of a dataset's dataspace (empty for a scalar).
std::vector<hsize_t> dataset_shape(hid_t dataset);

// String attributes, fixed-length or variable-length, one string or an array of them: empty
// when absent or not strings; InputError (field: the attribute) when present but unreadable or
// beyond 4096 strings of 64 KiB.
std::vector<std::string> read_string_attribute(hid_t object, const std::string& name);
void write_string_attribute(hid_t object, const std::string& name, const std::string& value);
void write_string_array_attribute(hid_t object, const std::string& name,
                                  const std::vector<std::string>& values);
void write_int_attribute(hid_t object, const std::string& name, const std::vector<int>& values);

// Dataset creation properties without timestamps: equal runs write equal bytes.
Hid untimed_dataset_properties();

// A new file at `temporary` holding one untimed group; InputError naming `path` (the file the
// user asked for) when the file cannot be created.
struct FileGroup {
  Hid file;
  Hid group;
};
FileGroup create_file_group(const std::string& temporary, const std::string& path,
                            const std::string& group);

// Each "key: value" line of a report header as a string attribute of `object`; other lines are
// skipped.
void write_header_attributes(hid_t object, const std::vector<std::string>& lines);

}  // namespace kmol::io
