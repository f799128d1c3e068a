#pragma once
// The libnetcdf-backed reader, built only when CMake finds libnetcdf (KMOL_HAVE_NETCDF).
#include <memory>
#include <string>

#include "kmol/core/io/trajectory_reader.hpp"

namespace kmol::io::netcdf {

// An AMBER-convention NetCDF trajectory (coordinates, cell_lengths, cell_angles).
std::unique_ptr<TrajectoryReader> open_amber(const std::string& path);

// A classic NetCDF file (CDF-1, 2 or 5) whose header breaks the format's grammar is refused,
// naming the file and the field; other files (NetCDF-4) are left to libnetcdf.
void check_classic_header(const std::string& path);

// "libnetcdf 4.9.0 of ...".
std::string library_version();

}  // namespace kmol::io::netcdf
