#include "drivers/library/potential_hdf5.hpp"

#include <hdf5.h>

#include <cstdint>
#include <cstdio>
#include <vector>

#include "kmol/core/errors.hpp"
#include "kmol/core/io/hdf5_handle.hpp"

namespace kmol {
namespace {

void check(bool ok, const std::string& path, const std::string& what) {
  if (!ok)
    throw InputError({path, "", -1}, "HDF5: cannot " + what + " (" + io::last_hdf5_message() + ")");
}

void vector_attribute(hid_t target, const char* name, const double (&value)[3],
                      const std::string& path) {
  const hsize_t three = 3;
  io::Hid space(H5Screate_simple(1, &three, nullptr));
  io::Hid attr(H5Acreate2(target, name, H5T_IEEE_F64LE, space.get(), H5P_DEFAULT, H5P_DEFAULT));
  check(attr.valid() && H5Awrite(attr.get(), H5T_NATIVE_DOUBLE, value) >= 0, path,
        std::string("write attribute ") + name);
}

}  // namespace

template <class V>
void write_grid_hdf5(const std::string& temporary, const std::string& path, const Grid& grid,
                     const V* values, const std::string& name, hid_t stored, hid_t memory,
                     const std::vector<std::pair<std::string, std::string>>& string_attributes) {
  const auto [nx, ny, nz] = grid.counts;
  std::vector<V> xyz(std::size_t(nx * ny * nz));  // (i, j, k) with k fastest
  for (std::int64_t k = 0; k < nz; ++k)
    for (std::int64_t j = 0; j < ny; ++j)
      for (std::int64_t i = 0; i < nx; ++i)
        xyz[std::size_t((i * ny + j) * nz + k)] = values[(k * ny + j) * nx + i];
  io::QuietHdf5 quiet;
  io::Hid file(H5Fcreate(temporary.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT));
  check(file.valid(), path, "create the file");
  const hsize_t dims[3] = {hsize_t(nx), hsize_t(ny), hsize_t(nz)};
  io::Hid space(H5Screate_simple(3, dims, nullptr));
  io::Hid data(H5Dcreate2(file.get(), name.c_str(), stored, space.get(), H5P_DEFAULT, H5P_DEFAULT,
                          H5P_DEFAULT));
  check(
      data.valid() && H5Dwrite(data.get(), memory, H5S_ALL, H5S_ALL, H5P_DEFAULT, xyz.data()) >= 0,
      path, "write /" + name);
  const double origin[3] = {grid.origin.x, grid.origin.y, grid.origin.z};
  const double delta[3] = {grid.spacing[0], grid.spacing[1], grid.spacing[2]};
  vector_attribute(data.get(), "origin", origin, path);
  vector_attribute(data.get(), "delta", delta, path);
  for (const auto& [key, value] : string_attributes)
    io::write_string_attribute(data.get(), key, value);
}

template void write_grid_hdf5(const std::string&, const std::string&, const Grid&, const float*,
                              const std::string&, hid_t, hid_t,
                              const std::vector<std::pair<std::string, std::string>>&);
template void write_grid_hdf5(const std::string&, const std::string&, const Grid&, const double*,
                              const std::string&, hid_t, hid_t,
                              const std::vector<std::pair<std::string, std::string>>&);
template void write_grid_hdf5(const std::string&, const std::string&, const Grid&,
                              const std::uint16_t*, const std::string&, hid_t, hid_t,
                              const std::vector<std::pair<std::string, std::string>>&);

}  // namespace kmol
