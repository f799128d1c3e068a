#include "kmol/core/io/opendx.hpp"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <memory>
#include <sstream>
#include <utility>

#include "kmol/core/errors.hpp"
#include "kmol/core/map_check.hpp"
#include "kmol/core/stop.hpp"
#include "kmol/core/version.hpp"

namespace kmol::io {

template <class T>
void write_opendx(const std::string& path, const Grid& grid, const T* values,
                  const std::string& title) {
  TemporaryFile output(path);
  TemporaryFile::Stream f = output.open("w");
  FILE* out = f.get();
  const auto [nx, ny, nz] = grid.counts;
  std::fprintf(out, "# Data from kmol %s\n# \n# %s\n# \n", KMOL_VERSION, title.c_str());
  std::fprintf(out, "object 1 class gridpositions counts %lld %lld %lld\n", (long long)nx,
               (long long)ny, (long long)nz);
  // The lattice exactly (17 significant digits round-trip a double); values keep APBS' form.
  std::fprintf(out, "origin %.17g %.17g %.17g\n", grid.origin.x, grid.origin.y, grid.origin.z);
  std::fprintf(out, "delta %.17g 0 0\n", grid.spacing[0]);
  std::fprintf(out, "delta 0 %.17g 0\n", grid.spacing[1]);
  std::fprintf(out, "delta 0 0 %.17g\n", grid.spacing[2]);
  std::fprintf(out, "object 2 class gridconnections counts %lld %lld %lld\n", (long long)nx,
               (long long)ny, (long long)nz);
  std::fprintf(out, "object 3 class array type double rank 0 items %lld data follows\n",
               (long long)(nx * ny * nz));
  int column = 0;
  for (std::int64_t i = 0; i < nx; ++i)
    for (std::int64_t j = 0; j < ny; ++j)
      for (std::int64_t k = 0; k < nz; ++k) {
        std::fprintf(out, "%12.6e ", double(values[(k * ny + j) * nx + i]));
        if (++column == 3) {
          column = 0;
          std::fputc('\n', out);
        }
      }
  if (column != 0) std::fputc('\n', out);
  std::fprintf(out, "attribute \"dep\" string \"positions\"\n");
  std::fprintf(out, "object \"regular positions regular connections\" class field\n");
  std::fprintf(out, "component \"positions\" value 1\n");
  std::fprintf(out, "component \"connections\" value 2\n");
  std::fprintf(out, "component \"data\" value 3\n");
  output.commit(std::move(f), "map");
}

template void write_opendx(const std::string&, const Grid&, const float*, const std::string&);
template void write_opendx(const std::string&, const Grid&, const double*, const std::string&);

}  // namespace kmol::io

namespace kmol::io {

ScalarMap read_opendx(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError({path, "", -1}, "cannot open the map");
  ScalarMap map;
  bool have_counts = false, have_origin = false;
  int deltas = 0;
  long line_number = 0;
  std::int64_t items = -1;
  std::string line;
  while (items < 0 && std::getline(in, line)) {
    ++line_number;
    std::istringstream words(line);
    std::string first;
    if (!(words >> first) || first[0] == '#') continue;
    if (first == "object" && line.find("gridpositions") != std::string::npos) {
      const std::size_t at = line.find("counts");
      std::istringstream counts(at == std::string::npos ? "" : line.substr(at + 6));
      auto& c = map.grid.counts;
      if (!(counts >> c[0] >> c[1] >> c[2]) || c[0] < 1 || c[1] < 1 || c[2] < 1)
        throw InputError({path, "counts", line_number}, "expected three positive grid counts");
      have_counts = true;
    } else if (first == "origin") {
      double x, y, z;
      if (!(words >> x >> y >> z))
        throw InputError({path, "origin", line_number}, "expected three numbers");
      map.grid.origin = {x, y, z};
      have_origin = true;
    } else if (first == "delta") {
      double d[3];
      if (deltas >= 3 || !(words >> d[0] >> d[1] >> d[2]))
        throw InputError({path, "delta", line_number},
                         "expected three delta lines of three numbers");
      for (int a = 0; a < 3; ++a)
        if ((a == deltas) != (d[a] != 0))
          throw InputError({path, "delta", line_number},
                           "only orthogonal grids (diagonal deltas, positive spacing) are read");
      if (!(d[deltas] > 0))
        throw InputError({path, "delta", line_number}, "the spacing must be positive");
      map.grid.spacing[std::size_t(deltas)] = d[deltas];
      ++deltas;
    } else if (first == "object" && line.find("class array") != std::string::npos) {
      const std::size_t at = line.find("items");
      std::istringstream count(at == std::string::npos ? "" : line.substr(at + 5));
      if (!(count >> items) || items < 0)
        throw InputError({path, "items", line_number}, "expected the number of items");
    }
  }
  if (!have_counts || !have_origin || deltas != 3 || items < 0)
    throw InputError({path,
                      !have_counts   ? "counts"
                      : !have_origin ? "origin"
                      : deltas != 3  ? "delta"
                                     : "items",
                      line_number},
                     "incomplete OpenDX header (needs gridpositions counts, origin, three deltas "
                     "and a data array)");
  check_map_grid(map.grid, path, "delta", "origin");
  const auto [nx, ny, nz] = map.grid.counts;
  if (items != map.grid.points())
    throw InputError({path, "items", line_number}, "the array holds " + std::to_string(items) +
                                                       " items, the grid " +
                                                       std::to_string(map.grid.points()));
  // Each value takes at least two characters (a digit and a separator): a header claiming more
  // values than the file can hold is refused before the map is allocated.
  const std::streampos data_start = in.tellg();
  in.seekg(0, std::ios::end);
  const std::int64_t data_bytes = std::int64_t(in.tellg() - data_start);
  in.seekg(data_start);
  if (items > data_bytes / 2 + 1)
    throw InputError({path, "data", line_number},
                     "the file ends before its " + std::to_string(items) +
                         " values (the header's items; " + std::to_string(data_bytes) +
                         " bytes follow it)");
  map.values.resize(std::size_t(items));
  for (std::int64_t i = 0; i < nx; ++i)  // OpenDX runs z fastest
    for (std::int64_t j = 0; j < ny; ++j)
      for (std::int64_t k = 0; k < nz; ++k) {
        double v;
        if (!(in >> v) || !(std::abs(v) <= max_map_value))
          throw InputError({path, "data", line_number},
                           "value " + std::to_string((i * ny + j) * nz + k) +
                               " is missing or not a finite number within 1e30");
        map.values[std::size_t((k * ny + j) * nx + i)] = float(v);
      }
  return map;
}

}  // namespace kmol::io
