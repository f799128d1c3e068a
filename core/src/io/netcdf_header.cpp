// The header of a classic NetCDF file (CDF-1, CDF-2 and CDF-5), checked against the format's
// grammar before libnetcdf reads it: libnetcdf trusts the header's types and counts, and on some
// damaged ones it allocates without end. Every tag, type, count and name length is checked
// against the format and against the bytes left in the file.
#include <algorithm>
#include <cstdint>
#include <fstream>

#include "kmol/core/errors.hpp"
#include "netcdf_readers.hpp"

namespace kmol::io::netcdf {
namespace {

constexpr std::uint64_t dimension_tag = 0x0A, variable_tag = 0x0B, attribute_tag = 0x0C;
constexpr std::uint64_t longest_name = 256;    // NC_MAX_NAME
constexpr std::uint64_t most_var_dims = 1024;  // NC_MAX_VAR_DIMS

class Header {
 public:
  Header(const std::string& path, int version)
      : path_(path),
        in_(path, std::ios::binary),
        count_width_(version == 5 ? 8 : 4),
        offset_width_(version == 1 ? 4 : 8),
        last_type_(version == 5 ? 11 : 6) {
    in_.seekg(0, std::ios::end);
    size_ = std::uint64_t(std::max<std::streamoff>(in_.tellg(), 0));
    in_.seekg(4);
    at_ = 4;
  }

  void check() {
    number(count_width_, "numrecs");  // all ones is a streaming file's: any value is readable
    dimensions_ = list(dimension_tag, "dimensions");
    std::uint64_t unlimited = 0;
    for (std::uint64_t i = 0; i < dimensions_; ++i) {
      name("dimension name");
      if (number(count_width_, "dimension length") == 0) ++unlimited;
    }
    if (unlimited > 1) refuse("dimensions", "more than one unlimited dimension");
    attributes("global attributes");
    const std::uint64_t variables = list(variable_tag, "variables");
    for (std::uint64_t i = 0; i < variables; ++i) variable();
  }

 private:
  std::uint64_t number(int width, const char* field) {
    if (left() < std::uint64_t(width)) refuse(field, "the file ends inside the header");
    unsigned char bytes[8];
    in_.read(reinterpret_cast<char*>(bytes), width);
    if (!in_) refuse(field, "unreadable");
    at_ += std::uint64_t(width);
    std::uint64_t value = 0;
    for (int i = 0; i < width; ++i) value = value << 8 | bytes[i];
    return value;
  }

  void skip(std::uint64_t bytes, const char* field) {
    if (bytes > left()) refuse(field, "runs past the end of the file");
    in_.seekg(std::streamoff(bytes), std::ios::cur);
    at_ += bytes;
  }

  // ABSENT (two zeros) or the tag and a count of at most one element per 4 bytes left.
  std::uint64_t list(std::uint64_t tag, const char* field) {
    const std::uint64_t found = number(4, field);
    const std::uint64_t count = number(count_width_, field);
    if (found == 0 && count == 0) return 0;
    if (found != tag)
      refuse(field, "list tag " + std::to_string(found) + " (expected " + std::to_string(tag) +
                        " or an absent list)");
    if (count > left() / 4)
      refuse(field, "count " + std::to_string(count) + " exceeds what the file holds");
    return count;
  }

  void name(const char* field) {
    const std::uint64_t length = number(count_width_, field);
    if (length == 0 || length > longest_name)
      refuse(field, "length " + std::to_string(length) + " (expected 1 to 256)");
    skip((length + 3) / 4 * 4, field);
  }

  std::uint64_t type(const char* field) {
    const std::uint64_t t = number(4, field);
    if (t < 1 || t > last_type_)
      refuse(field,
             "type " + std::to_string(t) + " (expected 1 to " + std::to_string(last_type_) + ")");
    return t;
  }

  static std::uint64_t type_size(std::uint64_t t) {
    constexpr std::uint64_t sizes[] = {0, 1, 1, 2, 4, 4, 8, 1, 2, 4, 8, 8};  // NC_BYTE .. NC_UINT64
    return sizes[t];
  }

  void attributes(const char* field) {
    const std::uint64_t count = list(attribute_tag, field);
    for (std::uint64_t i = 0; i < count; ++i) {
      name("attribute name");
      const std::uint64_t size = type_size(type("attribute type"));
      const std::uint64_t values = number(count_width_, "attribute length");
      if (values > left() / size) refuse("attribute length", "runs past the end of the file");
      skip((values * size + 3) / 4 * 4, "attribute values");
    }
  }

  void variable() {
    name("variable name");
    const std::uint64_t dims = number(count_width_, "variable dimensions");
    if (dims > most_var_dims)
      refuse("variable dimensions", std::to_string(dims) + " dimensions (at most 1024)");
    for (std::uint64_t d = 0; d < dims; ++d)
      if (number(count_width_, "variable dimension id") >= dimensions_)
        refuse("variable dimension id",
               "not one of the " + std::to_string(dimensions_) + " dimensions");
    attributes("variable attributes");
    type("variable type");
    number(count_width_, "variable size");
    number(offset_width_, "variable offset");
  }

  std::uint64_t left() const { return at_ <= size_ ? size_ - at_ : 0; }

  [[noreturn]] void refuse(const char* field, const std::string& what) const {
    throw InputError({path_, field, -1},
                     "damaged NetCDF header at byte " + std::to_string(at_) + ": " + what);
  }

  std::string path_;
  std::ifstream in_;
  int count_width_, offset_width_;
  std::uint64_t last_type_, size_ = 0, at_ = 0, dimensions_ = 0;
};

}  // namespace

void check_classic_header(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  char magic[4] = {};
  if (!in.read(magic, 4) || magic[0] != 'C' || magic[1] != 'D' || magic[2] != 'F') return;
  const int version = magic[3];
  if (version != 1 && version != 2 && version != 5)
    throw InputError({path, "format", -1},
                     "CDF version " + std::to_string(version) + " (expected 1, 2 or 5)");
  Header(path, version).check();
}

}  // namespace kmol::io::netcdf
