#include "kernels/surface/cube_table.hpp"

#include <stdexcept>
#include <vector>

namespace kmol::surface {
namespace {

int bit(int corner, int axis) { return (corner >> axis) & 1; }

// The cube edge joining two corners that differ on one axis.
int edge_between(int c0, int c1) {
  const int diff = c0 ^ c1;
  const int a = diff == 1 ? 0 : diff == 2 ? 1 : 2;
  const int lower = c0 & c1;
  return 4 * a + bit(lower, (a + 1) % 3) + 2 * bit(lower, (a + 2) % 3);
}

// The four corners of each face, counter-clockwise seen from outside the cube.
std::array<std::array<int, 4>, 6> faces() {
  std::array<std::array<int, 4>, 6> out{};
  for (int a = 0; a < 3; ++a) {
    const int u = (a + 1) % 3, v = (a + 2) % 3;
    for (int side = 0; side < 2; ++side) {
      // (0,0), (1,0), (1,1), (0,1) in (u, v) turns counter-clockwise about +a since u x v = a.
      const int uv[4][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
      std::array<int, 4>& f = out[std::size_t(2 * a + side)];
      for (int k = 0; k < 4; ++k)
        f[std::size_t(k)] = (side << a) | (uv[k][0] << u) | (uv[k][1] << v);
      if (side == 0) std::swap(f[1], f[3]);  // outward normal -a: the other turn
    }
  }
  return out;
}

// Triangulates the loop's vertices [first, last] (loop order) without a diagonal joining two
// vertices on one face of the cell: the neighbouring cell across that face could draw the same
// diagonal, and the edge would then belong to four triangles. Appends to `out`; false if none.
bool triangulate(const std::vector<int>& loop, std::size_t first, std::size_t last,
                 const bool (&same_face)[12][12], std::vector<std::array<int, 3>>& out) {
  if (last - first < 2) return true;
  for (std::size_t m = first + 1; m < last; ++m) {
    const bool left_ok = m == first + 1 || !same_face[loop[first]][loop[m]];
    const bool right_ok = m + 1 == last || !same_face[loop[m]][loop[last]];
    if (!left_ok || !right_ok) continue;
    const std::size_t mark = out.size();
    out.push_back({loop[first], loop[m], loop[last]});
    if (triangulate(loop, first, m, same_face, out) && triangulate(loop, m, last, same_face, out))
      return true;
    out.resize(mark);
  }
  return false;
}

CubeTable build() {
  CubeTable table;
  const auto face_corners = faces();
  bool same_face[12][12] = {};
  for (const auto& f : face_corners)
    for (int k = 0; k < 4; ++k)
      for (int l = 0; l < 4; ++l)
        same_face[edge_between(f[std::size_t(k)], f[std::size_t((k + 1) % 4)])]
                 [edge_between(f[std::size_t(l)], f[std::size_t((l + 1) % 4)])] = true;
  for (int mask = 0; mask < 256; ++mask) {
    auto inside = [mask](int c) { return (mask >> c) & 1; };
    // On each face, walking its corners in order: from each edge where the walk enters the inside
    // to the next edge where it leaves, a segment of the surface. Each crossed cube edge is entered
    // on one of its faces and left on the other, so `next` chains the segments into closed loops.
    int next[12];
    for (int& n : next) n = -1;
    for (const auto& f : face_corners) {
      for (int k = 0; k < 4; ++k) {
        const int a = f[std::size_t(k)], b = f[std::size_t((k + 1) % 4)];
        if (inside(a) || !inside(b)) continue;
        for (int m = 1; m < 4; ++m) {
          const int c = f[std::size_t((k + m) % 4)], d = f[std::size_t((k + m + 1) % 4)];
          if (inside(c) && !inside(d)) {
            next[edge_between(a, b)] = edge_between(c, d);
            break;
          }
        }
      }
    }
    bool used[12] = {};
    int t = 0;
    for (int start = 0; start < 12; ++start) {
      if (next[start] < 0 || used[start]) continue;
      std::vector<int> loop;
      for (int e = start; !used[e]; e = next[e]) {
        used[e] = true;
        loop.push_back(e);
      }
      std::vector<std::array<int, 3>> triangles;
      if (!triangulate(loop, 0, loop.size() - 1, same_face, triangles))
        throw std::logic_error("marching cubes: no triangulation without shared-face diagonals");
      for (const auto& tri : triangles) {
        if (t == max_cube_triangles) throw std::logic_error("marching cubes: case table overflow");
        auto& out = table.edges[std::size_t(mask)];
        for (int c = 0; c < 3; ++c) out[std::size_t(3 * t + c)] = std::int8_t(tri[std::size_t(c)]);
        ++t;
      }
    }
    table.triangles[std::size_t(mask)] = std::uint8_t(t);
  }
  return table;
}

}  // namespace

CubeEdge cube_edge(int e) {
  const int a = e / 4, u = (a + 1) % 3, v = (a + 2) % 3;
  int offset[3] = {0, 0, 0};
  offset[u] = e & 1;
  offset[v] = (e >> 1) & 1;
  return {offset[0], offset[1], offset[2], a};
}

const CubeTable& cube_table() {
  static const CubeTable table = build();
  return table;
}

}  // namespace kmol::surface
