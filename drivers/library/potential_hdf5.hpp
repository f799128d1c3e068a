#pragma once
// Grid maps in HDF5: one dataset of shape (nx, ny, nz) (z fastest, as in OpenDX and
// GridDataFormats) with attributes origin and delta (Angstrom) and the map's string attributes
// (`kmol potential` writes /potential with units and method). map_output's write_map calls it.
#include <hdf5.h>

#include <string>
#include <utility>
#include <vector>

#include "kmol/core/io/opendx.hpp"

namespace kmol {

// Writes a new file at `temporary` (the caller renames it); errors name `path`. values are in
// lattice order (x fastest); stored and memory are the HDF5 types of the file and of V.
template <class V>
void write_grid_hdf5(const std::string& temporary, const std::string& path, const Grid& grid,
                     const V* values, const std::string& name, hid_t stored, hid_t memory,
                     const std::vector<std::pair<std::string, std::string>>& string_attributes);

}  // namespace kmol
