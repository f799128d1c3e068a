#pragma once
// HDF5 potential maps: dataset /potential of shape (nx, ny, nz) (z fastest, as in OpenDX and
// GridDataFormats), with attributes origin and delta (Angstrom), units and method.
#include <string>

#include "kmol/core/io/opendx.hpp"

namespace kmol::cli {

template <class T>
void write_potential_hdf5(const std::string& path, const io::RegularGrid& grid, const T* values,
                          const std::string& units, const std::string& method);

}  // namespace kmol::cli
