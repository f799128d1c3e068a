#include "kmol/core/io/opendx.hpp"

#include <cstdio>
#include <memory>

#include "kmol/core/errors.hpp"
#include "kmol/core/version.hpp"

namespace kmol::io {

template <class T>
void write_opendx(const std::string& path, const RegularGrid& grid, const T* values, const std::string& title) {
  const std::string temporary = path + ".tmp";
  std::unique_ptr<FILE, int (*)(FILE*)> f(std::fopen(temporary.c_str(), "w"), &std::fclose);
  if (!f) throw InputError({path, "", -1}, "cannot open the output file for writing");
  FILE* out = f.get();
  const auto [nx, ny, nz] = grid.counts;
  std::fprintf(out, "# Data from kmol %s\n# \n# %s\n# \n", KMOL_VERSION, title.c_str());
  std::fprintf(out, "object 1 class gridpositions counts %lld %lld %lld\n", (long long)nx, (long long)ny, (long long)nz);
  std::fprintf(out, "origin %12.6e %12.6e %12.6e\n", grid.origin.x, grid.origin.y, grid.origin.z);
  std::fprintf(out, "delta %12.6e %12.6e %12.6e\n", grid.spacing[0], 0.0, 0.0);
  std::fprintf(out, "delta %12.6e %12.6e %12.6e\n", 0.0, grid.spacing[1], 0.0);
  std::fprintf(out, "delta %12.6e %12.6e %12.6e\n", 0.0, 0.0, grid.spacing[2]);
  std::fprintf(out, "object 2 class gridconnections counts %lld %lld %lld\n", (long long)nx, (long long)ny, (long long)nz);
  std::fprintf(out, "object 3 class array type double rank 0 items %lld data follows\n", (long long)(nx * ny * nz));
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
  const bool written = std::ferror(out) == 0;
  if (std::fclose(f.release()) != 0 || !written) {
    std::remove(temporary.c_str());
    throw InputError({path, "", -1}, "writing the map failed (disk full?)");
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) throw InputError({path, "", -1}, "cannot rename the output file into place");
}

template void write_opendx(const std::string&, const RegularGrid&, const float*, const std::string&);
template void write_opendx(const std::string&, const RegularGrid&, const double*, const std::string&);

}  // namespace kmol::io
