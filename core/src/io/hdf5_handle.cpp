#include "kmol/core/io/hdf5_handle.hpp"

#include <cstring>

#include "kmol/core/errors.hpp"

namespace kmol::io {

void Hid::reset() {
  if (id_ < 0) return;
  QuietHdf5 quiet;
  switch (H5Iget_type(id_)) {
    case H5I_FILE:
      H5Fclose(id_);
      break;
    case H5I_GROUP:
      H5Gclose(id_);
      break;
    case H5I_DATASET:
      H5Dclose(id_);
      break;
    case H5I_DATASPACE:
      H5Sclose(id_);
      break;
    case H5I_DATATYPE:
      H5Tclose(id_);
      break;
    case H5I_ATTR:
      H5Aclose(id_);
      break;
    case H5I_GENPROP_LST:
      H5Pclose(id_);
      break;
    default:
      break;
  }
  id_ = -1;
}

QuietHdf5::QuietHdf5() {
  H5Eget_auto2(H5E_DEFAULT, &function_, &data_);
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
}

QuietHdf5::~QuietHdf5() { H5Eset_auto2(H5E_DEFAULT, function_, data_); }

namespace {

herr_t keep_innermost(unsigned n, const H5E_error2_t* error, void* out) {
  if (n == 0 && error->desc != nullptr) *static_cast<std::string*>(out) = error->desc;
  return 0;
}

}  // namespace

std::string last_hdf5_message() {
  std::string message;
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_DOWNWARD, keep_innermost, &message);
  return message;
}

bool link_exists(hid_t location, const std::string& path) {
  QuietHdf5 quiet;
  // Each component must exist before the next can be asked about.
  std::size_t start = 0;
  while (start <= path.size()) {
    const std::size_t slash = path.find('/', start);
    const std::string prefix = path.substr(0, slash);
    if (H5Lexists(location, prefix.c_str(), H5P_DEFAULT) <= 0) return false;
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  return true;
}

bool attribute_exists(hid_t object, const std::string& name) {
  QuietHdf5 quiet;
  return H5Aexists(object, name.c_str()) > 0;
}

std::vector<hsize_t> dataset_shape(hid_t dataset) {
  Hid space(H5Dget_space(dataset));
  const int rank = H5Sget_simple_extent_ndims(space.get());
  std::vector<hsize_t> dims(rank > 0 ? rank : 0);
  if (rank > 0) H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr);
  return dims;
}

namespace {

// Bounds on what kmol's string attributes hold (units, boundaries, species names): a damaged
// dataspace or type can claim any count or size.
constexpr hssize_t most_strings = 4096;
constexpr std::size_t longest_string = 1 << 16;

[[noreturn]] void unreadable(const std::string& name, const std::string& why) {
  throw InputError({"", name, -1}, "unreadable string attribute (" + why + ")");
}

}  // namespace

std::vector<std::string> read_string_attribute(hid_t object, const std::string& name) {
  QuietHdf5 quiet;
  if (H5Aexists(object, name.c_str()) <= 0) return {};
  Hid attribute(H5Aopen(object, name.c_str(), H5P_DEFAULT));
  if (!attribute.valid()) unreadable(name, last_hdf5_message());
  Hid type(H5Aget_type(attribute.get()));
  if (!type.valid()) unreadable(name, last_hdf5_message());
  if (H5Tget_class(type.get()) != H5T_STRING) return {};
  Hid space(H5Aget_space(attribute.get()));
  const hssize_t n = H5Sget_simple_extent_npoints(space.get());
  if (n < 0 || n > most_strings)
    unreadable(name, std::to_string(n) + " strings; at most " + std::to_string(most_strings));
  std::vector<std::string> values;
  if (n == 0) return values;
  if (H5Tis_variable_str(type.get()) > 0) {
    std::vector<char*> raw(std::size_t(n), nullptr);
    Hid memtype(H5Tcopy(H5T_C_S1));
    H5Tset_size(memtype.get(), H5T_VARIABLE);
    H5Tset_cset(memtype.get(), H5Tget_cset(type.get()));
    if (H5Aread(attribute.get(), memtype.get(), raw.data()) < 0)
      unreadable(name, last_hdf5_message());
    for (char* s : raw) values.emplace_back(s ? s : "", s ? strnlen(s, longest_string) : 0);
    H5Dvlen_reclaim(memtype.get(), space.get(), H5P_DEFAULT, raw.data());
  } else {
    const std::size_t size = H5Tget_size(type.get());
    if (size == 0 || size > longest_string)
      unreadable(name, "strings of " + std::to_string(size) + " bytes");
    std::vector<char> raw(size * std::size_t(n) + 1, '\0');
    if (H5Aread(attribute.get(), type.get(), raw.data()) < 0) unreadable(name, last_hdf5_message());
    for (hssize_t i = 0; i < n; ++i) {
      const char* s = raw.data() + std::size_t(i) * size;
      values.emplace_back(s, strnlen(s, size));
    }
  }
  return values;
}

namespace {

// Variable-length UTF-8 strings: h5py (and so MDAnalysis) reads these as str, fixed-length ones as
// bytes.
void write_strings(hid_t object, const std::string& name, const std::vector<std::string>& values,
                   bool scalar) {
  Hid type(H5Tcopy(H5T_C_S1));
  H5Tset_size(type.get(), H5T_VARIABLE);
  H5Tset_cset(type.get(), H5T_CSET_UTF8);
  const hsize_t n = values.size();
  Hid space(scalar ? H5Screate(H5S_SCALAR) : H5Screate_simple(1, &n, nullptr));
  std::vector<const char*> pointers;
  for (const auto& v : values) pointers.push_back(v.c_str());
  Hid attribute(
      H5Acreate2(object, name.c_str(), type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT));
  H5Awrite(attribute.get(), type.get(), pointers.data());
}

}  // namespace

void write_string_attribute(hid_t object, const std::string& name, const std::string& value) {
  write_strings(object, name, {value}, true);
}

void write_string_array_attribute(hid_t object, const std::string& name,
                                  const std::vector<std::string>& values) {
  write_strings(object, name, values, false);
}

void write_int_attribute(hid_t object, const std::string& name, const std::vector<int>& values) {
  const hsize_t n = values.size();
  Hid space(n == 1 ? H5Screate(H5S_SCALAR) : H5Screate_simple(1, &n, nullptr));
  Hid attribute(
      H5Acreate2(object, name.c_str(), H5T_STD_I32LE, space.get(), H5P_DEFAULT, H5P_DEFAULT));
  H5Awrite(attribute.get(), H5T_NATIVE_INT, values.data());
}

Hid untimed_dataset_properties() {
  Hid properties(H5Pcreate(H5P_DATASET_CREATE));
  H5Pset_obj_track_times(properties.get(), false);
  return properties;
}

FileGroup create_file_group(const std::string& temporary, const std::string& path,
                            const std::string& group) {
  FileGroup out;
  out.file = Hid(H5Fcreate(temporary.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT));
  if (!out.file.valid()) throw InputError({path, "", -1}, "cannot create the file");
  Hid properties(H5Pcreate(H5P_GROUP_CREATE));
  H5Pset_obj_track_times(properties.get(), false);
  out.group =
      Hid(H5Gcreate2(out.file.get(), group.c_str(), H5P_DEFAULT, properties.get(), H5P_DEFAULT));
  if (!out.group.valid()) throw InputError({path, group, -1}, "cannot create the group");
  return out;
}

void write_header_attributes(hid_t object, const std::vector<std::string>& lines) {
  for (const auto& line : lines) {
    const auto colon = line.find(": ");
    if (colon != std::string::npos)
      write_string_attribute(object, line.substr(0, colon), line.substr(colon + 2));
  }
}

}  // namespace kmol::io
