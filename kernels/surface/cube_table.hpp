#pragma once
// The marching-cubes case table, generated from the cube's geometry (cube_table.cpp) rather than
// typed in. Corner c of a cell sits at offset (c & 1, c >> 1 & 1, c >> 2 & 1); a corner is
// "inside" when its value exceeds the iso value, and bit c of the case index says so.
// Edge e runs along axis a = e / 4 from the corner with bits (e & 1, e >> 1 & 1) on the two other
// axes (a + 1) % 3 and (a + 2) % 3 and 0 on axis a.
#include <array>
#include <cstdint>

namespace kmol::surface {

inline constexpr int max_cube_triangles = 6;

struct CubeTable {
  std::array<std::uint8_t, 256> triangles{};  // per case
  std::array<std::array<std::int8_t, 3 * max_cube_triangles>, 256>
      edges{};  // per case, 3 edges a triangle
};

// Lower corner (as offsets) and axis of cube edge e.
struct CubeEdge {
  int di, dj, dk, axis;
};
CubeEdge cube_edge(int e);

// Built so that two cells sharing a face agree on the segments the surface cuts into it (an
// ambiguous face, two diagonal corners inside, always keeps its inside corners apart), which
// makes meshes watertight; triangles wind counter-clockwise seen from the outside (low values).
const CubeTable& cube_table();

}  // namespace kmol::surface
