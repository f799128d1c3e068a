#include "kmol/core/io/mrc.hpp"

#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <vector>

#include "kmol/core/errors.hpp"
#include "kmol/core/map_check.hpp"
#include "kmol/core/stop.hpp"

namespace kmol::io {
namespace {

// The header as 256 four-byte words; word w is field w + 1 of the MRC2014 description.
struct Header {
  std::array<unsigned char, 1024> bytes{};
  std::int32_t word(int w) const {
    std::int32_t v;
    std::memcpy(&v, bytes.data() + 4 * w, 4);
    return v;
  }
  float real(int w) const {
    float v;
    std::memcpy(&v, bytes.data() + 4 * w, 4);
    return v;
  }
};

std::string whole_number(double n) {
  char text[32];
  std::snprintf(text, sizeof text, "%.0f", n);
  return text;
}

int bytes_per_value(int mode) {
  switch (mode) {
    case 0:
      return 1;
    case 1:
      return 2;
    case 2:
      return 4;
    case 6:
      return 2;
    default:
      return 0;
  }
}

double value_at(const unsigned char* p, int mode) {
  switch (mode) {
    case 0:
      return double(*reinterpret_cast<const std::int8_t*>(p));
    case 1: {
      std::int16_t v;
      std::memcpy(&v, p, 2);
      return v;
    }
    case 6: {
      std::uint16_t v;
      std::memcpy(&v, p, 2);
      return v;
    }
    default: {
      float v;
      std::memcpy(&v, p, 4);
      return v;
    }
  }
}

}  // namespace

ScalarMap read_mrc(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError({path, "", -1}, "cannot open the map");
  Header h;
  in.read(reinterpret_cast<char*>(h.bytes.data()), 1024);
  if (in.gcount() != 1024)
    throw InputError({path, "header", -1}, "shorter than the 1024-byte MRC header");
  auto fail = [&](const char* field, const std::string& what) {
    throw InputError({path, field, -1}, what);
  };
  const unsigned char* stamp = h.bytes.data() + 212;
  if (stamp[0] == 0x11 && stamp[1] == 0x11)
    fail("machst", "big-endian maps are not read (convert to little-endian)");
  if (!(stamp[0] == 0x44 && (stamp[1] == 0x44 || stamp[1] == 0x41)))
    fail("machst", "expected the little-endian machine stamp 0x44 0x44 or 0x44 0x41 at byte 213");
  if (std::memcmp(h.bytes.data() + 208, "MAP ", 4) != 0)
    fail("map", "expected 'MAP ' at byte 209 (not an MRC/CCP4 map?)");
  const std::int64_t n[3] = {h.word(0), h.word(1), h.word(2)};
  const char* n_names[3] = {"nx", "ny", "nz"};
  for (int a = 0; a < 3; ++a)
    if (n[a] < 1)
      fail(n_names[a], "must be a positive number of columns, rows or sections (got " +
                           std::to_string(n[a]) + ")");
  const int mode = h.word(3);
  if (bytes_per_value(mode) == 0)
    fail("mode", "mode " + std::to_string(mode) +
                     " is not read (expected 0 int8, 1 int16, 2 float32 or 6 uint16)");
  const std::int64_t start[3] = {h.word(4), h.word(5), h.word(6)},
                     m[3] = {h.word(7), h.word(8), h.word(9)};
  const char* m_names[3] = {"mx", "my", "mz"};
  for (int a = 0; a < 3; ++a)
    if (m[a] < 1)
      fail(m_names[a], "the sampling must be positive (got " + std::to_string(m[a]) + ")");
  const double cell[3] = {h.real(10), h.real(11), h.real(12)},
               angles[3] = {h.real(13), h.real(14), h.real(15)};
  for (int a = 0; a < 3; ++a)
    if (!(cell[a] > 0) || !std::isfinite(cell[a]))
      fail("cella", "the cell lengths must be positive (Angstrom)");
  for (int a = 0; a < 3; ++a)
    if (std::abs(angles[a] - 90) > 1e-3 && angles[a] != 0)
      fail("cellb", "only orthogonal cells (90 degree angles) are read");
  const int order[3] = {h.word(16), h.word(17),
                        h.word(18)};  // axis (1 x, 2 y, 3 z) of columns, rows, sections
  if (!((order[0] | order[1] | order[2]) == 0 ||
        (order[0] >= 1 && order[0] <= 3 && order[1] >= 1 && order[1] <= 3 && order[2] >= 1 &&
         order[2] <= 3 && order[0] != order[1] && order[1] != order[2] && order[0] != order[2])))
    fail("mapc", "mapc, mapr, maps must be a permutation of 1, 2, 3");
  const int axis_of[3] = {order[0] ? order[0] - 1 : 0, order[1] ? order[1] - 1 : 1,
                          order[2] ? order[2] - 1 : 2};
  const std::int64_t nsymbt = h.word(23);
  if (nsymbt < 0) fail("nsymbt", "the extended header length must not be negative");

  ScalarMap map;
  double spacing[3], origin[3] = {h.real(49), h.real(50), h.real(51)};
  for (int a = 0; a < 3; ++a) spacing[a] = cell[a] / double(m[a]);
  std::int64_t counts[3], first[3];
  for (int f = 0; f < 3; ++f) {  // file axis f (columns, rows, sections) is space axis axis_of[f]
    counts[axis_of[f]] = n[f];
    first[axis_of[f]] = start[f];
  }
  const bool has_origin = origin[0] != 0 || origin[1] != 0 || origin[2] != 0;
  for (int a = 0; a < 3; ++a) {
    if (!std::isfinite(origin[a])) fail("origin", "the origin must be finite");
    if (!has_origin) origin[a] = double(first[a]) * spacing[a];
    map.grid.spacing[std::size_t(a)] = spacing[a];
    map.grid.counts[std::size_t(a)] = counts[a];
  }
  map.grid.origin = {origin[0], origin[1], origin[2]};

  const int width = bytes_per_value(mode);
  // The file's size first: a damaged header must not make us allocate what is not there (nor
  // overflow counting it).
  const double values = double(n[0]) * double(n[1]) * double(n[2]);
  in.seekg(0, std::ios::end);
  const std::int64_t file_bytes = std::int64_t(in.tellg());
  if (values * width > double(file_bytes - 1024 - nsymbt))
    fail("data", "the file ends before its " + whole_number(values) +
                     " values (header nx*ny*nz, mode " + std::to_string(mode) + ", nsymbt " +
                     std::to_string(nsymbt) + "; the file has " + std::to_string(file_bytes) +
                     " bytes)");
  check_map_grid(map.grid, path, "cella", "origin");
  const std::int64_t total = n[0] * n[1] * n[2];
  in.seekg(1024 + nsymbt);
  std::vector<unsigned char> data(std::size_t(total * width));
  in.read(reinterpret_cast<char*>(data.data()), std::streamsize(data.size()));
  if (!in || in.gcount() != std::streamsize(data.size()))
    fail("data", "the file ends before its " + std::to_string(total) +
                     " values (header nx*ny*nz, mode " + std::to_string(mode) + ", nsymbt " +
                     std::to_string(nsymbt) + ")");
  map.values.resize(std::size_t(total));
  const std::int64_t nx = counts[0], ny = counts[1];
  std::int64_t v = 0;
  for (std::int64_t s = 0; s < n[2]; ++s)
    for (std::int64_t r = 0; r < n[1]; ++r)
      for (std::int64_t c = 0; c < n[0]; ++c, ++v) {
        std::int64_t ijk[3];
        ijk[axis_of[0]] = c;
        ijk[axis_of[1]] = r;
        ijk[axis_of[2]] = s;
        const double value = value_at(data.data() + v * width, mode);
        if (!(std::abs(value) <= max_map_value))
          fail("data", "value " + std::to_string(v) + " is not a finite number within 1e30");
        map.values[std::size_t((ijk[2] * ny + ijk[1]) * nx + ijk[0])] = float(value);
      }
  return map;
}

void write_mrc(const std::string& path, const ScalarMap& map) {
  Header h;
  auto set_word = [&](int w, std::int32_t v) { std::memcpy(h.bytes.data() + 4 * w, &v, 4); };
  auto set_real = [&](int w, float v) { std::memcpy(h.bytes.data() + 4 * w, &v, 4); };
  float lo = 0, hi = 0;
  double sum = 0;
  for (std::size_t i = 0; i < map.values.size(); ++i) {
    lo = i ? std::min(lo, map.values[i]) : map.values[i];
    hi = i ? std::max(hi, map.values[i]) : map.values[i];
    sum += map.values[i];
  }
  const double mean = map.values.empty() ? 0 : sum / double(map.values.size());
  double squares = 0;  // about the mean, in a second pass: no cancellation
  for (float v : map.values) squares += (v - mean) * (v - mean);
  const double rms = map.values.empty() ? 0 : std::sqrt(squares / double(map.values.size()));
  for (int a = 0; a < 3; ++a) {
    set_word(a, std::int32_t(map.grid.counts[std::size_t(a)]));
    set_word(7 + a, std::int32_t(map.grid.counts[std::size_t(a)]));
    set_real(10 + a,
             float(map.grid.spacing[std::size_t(a)] * double(map.grid.counts[std::size_t(a)])));
    set_real(13 + a, 90.0f);
    set_word(16 + a, a + 1);
    // Readers older than MRC2014 place the map by nstart alone (in voxels): the nearest voxel
    // to the origin. MRC2014 readers take the exact origin below, which wins where non-zero.
    const double origin[3] = {map.grid.origin.x, map.grid.origin.y, map.grid.origin.z};
    set_word(4 + a, std::int32_t(std::lround(origin[a] / map.grid.spacing[std::size_t(a)])));
  }
  set_word(3, 2);
  set_real(19, lo);
  set_real(20, hi);
  set_real(21, float(mean));
  set_real(54, float(rms));
  set_word(22, 1);
  set_word(27, 20140);  // EXTTYP 0, NVERSION 20140
  set_real(49, float(map.grid.origin.x));
  set_real(50, float(map.grid.origin.y));
  set_real(51, float(map.grid.origin.z));
  std::memcpy(h.bytes.data() + 208, "MAP ", 4);
  h.bytes[212] = 0x44;
  h.bytes[213] = 0x44;
  TemporaryFile output(path);
  {
    std::ofstream out(output.temporary(), std::ios::binary);
    if (!out) throw InputError({path, "", -1}, "cannot open the output file for writing");
    out.write(reinterpret_cast<const char*>(h.bytes.data()), 1024);
    out.write(reinterpret_cast<const char*>(map.values.data()),
              std::streamsize(map.values.size() * sizeof(float)));
    if (!out) throw InputError({path, "", -1}, "writing the map failed (disk full?)");
  }
  output.commit();
}

}  // namespace kmol::io
