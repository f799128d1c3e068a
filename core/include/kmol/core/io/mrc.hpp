#pragma once
// MRC/CCP4 maps (MRC2014, the cryo-EM standard): a 1024-byte header, an optional extended header
// (nsymbt bytes), then nx * ny * nz values of `mode`, columns fastest.
// Read: modes 0 (int8), 1 (int16), 2 (float32), 6 (uint16); little-endian files (machine stamp
// 0x44 0x44 or 0x44 0x41); orthogonal cells (angles 90 degrees); any axis order mapc/mapr/maps.
// The grid's origin is the header's origin where non-zero, otherwise nstart times the spacing.
#include <string>

#include "kmol/core/io/opendx.hpp"

namespace kmol::io {

// Throws InputError naming the file and the header field (mode, nx, mx, cella, cellb, mapc,
// map, machst, nsymbt, data) and what was expected.
ScalarMap read_mrc(const std::string& path);

// Writes mode 2 with a full MRC2014 header (temporary file renamed at the end): min, max, mean
// and rms of the values; the exact origin in the origin field and the nearest voxel in nstart,
// so that readers predating MRC2014, which use nstart only, place the map too.
void write_mrc(const std::string& path, const ScalarMap& map);

}  // namespace kmol::io
