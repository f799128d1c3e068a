#pragma once
// The host Lennard-Jones kernel's cell grid: the box cut into cells of edge >= reach / 2, plus
// layers of image cells holding periodic copies of the atoms near the faces, so the sweeps take
// plain differences (no minimum image per pair). Atoms and their images are sorted into slots in
// cell order; the force sweep (lj_host.cpp) owns what is stored per slot.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

#include "kmol/core/errors.hpp"
#include "kmol/core/vec3.hpp"

namespace kmol::md_host {

template <class T>
struct ImageCells {
  // Image code (sx + 1) + 3 (sy + 1) + 9 (sz + 1) of the atom itself.
  static constexpr int unshifted = 13;

  int n;
  // Cells of edge >= reach / 2, so partners lie within two cells along each axis: 125 small cells
  // cover less volume (3.7 times the sphere of reach) than 27 large ones (6.4 times). A box of
  // 3 reach holds at least 6 along each axis, so no atom meets two images of another.
  int along[3];
  T scale[3];  // cells per unit length along each axis
  // The extended grid: the box's cells plus two layers of image cells below and above in x and y
  // and above in z, all that the upper half of the stencil reaches. Slots: its cells in order,
  // each cell's atoms (or images of atoms) by atom index; a row of five cells along x is one run
  // of slots.
  int extent[3];
  int slots = 0;
  std::vector<int> start;      // per extended cell, its first slot (and one past the last)
  std::vector<int> slot_atom;  // per slot, the atom
  std::vector<int> slot_cell;  // per slot, its extended cell
  std::vector<unsigned char> slot_image;         // per slot, the image code
  std::vector<int> real_slot;                    // the slots of the atoms themselves, in cell order
  std::vector<int> atom_slot_start, atom_slots;  // per atom, its slot and its images' slots
  T image_shift[27][3];

  ImageCells(int atoms, Vec3<double> box_length, double reach) : n(atoms) {
    const double l[3] = {box_length.x, box_length.y, box_length.z};
    if (std::min({l[0], l[1], l[2]}) < 3 * reach)
      throw UnsupportedError("md --impl host: the box must be at least 3 (r_c + skin) across");
    for (int d = 0; d < 3; ++d) {
      along[d] = int(std::floor(l[d] * 2 / reach));
      scale[d] = T(along[d] / l[d]);
    }
    extent[0] = along[0] + 4;
    extent[1] = along[1] + 4;
    extent[2] = along[2] + 2;
    for (int code = 0; code < 27; ++code) {
      const int s[3] = {code % 3 - 1, code / 3 % 3 - 1, code / 9 - 1};
      for (int d = 0; d < 3; ++d) image_shift[code][d] = T(s[d] * l[d]);
    }
    start.assign(std::size_t(extent[0]) * extent[1] * extent[2] + 1, 0);
    real_slot.resize(std::size_t(n));
    atom_slot_start.resize(std::size_t(n) + 1);
  }

  // Extended cell of cell coordinates c (each in the grid's range).
  int extended(const int* c) const {
    return (c[0] + 2) + extent[0] * ((c[1] + 2) + extent[1] * c[2]);
  }

  // Calls visit(image code, extended cell) for the atom at p and each of its images that falls in
  // the extended grid (the atom's cell within two of a face), in a fixed order.
  template <class Visit>
  void images(const T* p, Visit visit) const {
    int c[3], shifts[3][2], count[3];
    for (int d = 0; d < 3; ++d) {
      // Clamped before the conversion: a coordinate far outside the box (one a damaged restart
      // frame gives, which wrapping in single precision leaves far outside), or NaN once a
      // blown-up step made it so (the health check reports that), would overflow int.
      const T scaled = p[d] * scale[d];
      c[d] = !(scaled > T(0)) ? 0 : int(std::min(scaled, T(along[d] - 1)));
      shifts[d][0] = 0;
      count[d] = 1;
      if (c[d] < 2)
        shifts[d][count[d]++] = 1;
      else if (c[d] >= along[d] - 2 && d < 2)
        shifts[d][count[d]++] = -1;  // no images below in z
    }
    for (int z = 0; z < count[2]; ++z)
      for (int y = 0; y < count[1]; ++y)
        for (int x = 0; x < count[0]; ++x) {
          const int s[3] = {shifts[0][x], shifts[1][y], shifts[2][z]};
          const int e[3] = {c[0] + s[0] * along[0], c[1] + s[1] * along[1], c[2] + s[2] * along[2]};
          visit((s[0] + 1) + 3 * (s[1] + 1) + 9 * (s[2] + 1), extended(e));
        }
  }

  // Atoms (rows of 3 in x) and their images into the extended grid's cells (a counting sort,
  // stable).
  void sort(const T* x) {
    std::fill(start.begin(), start.end(), 0);
    for (int a = 0; a < n; ++a)
      images(x + 3 * a, [&](int, int cell) { ++start[std::size_t(cell) + 1]; });
    for (std::size_t c = 1; c < start.size(); ++c) start[c] += start[c - 1];
    slots = start.back();
    slot_atom.resize(std::size_t(slots));
    slot_cell.resize(std::size_t(slots));
    slot_image.resize(std::size_t(slots));
    std::vector<int> cursor(start.begin(), start.end() - 1);
    for (int a = 0; a < n; ++a)
      images(x + 3 * a, [&](int code, int cell) {
        const std::size_t s = std::size_t(cursor[std::size_t(cell)]++);
        slot_atom[s] = a;
        slot_cell[s] = cell;
        slot_image[s] = static_cast<unsigned char>(code);
      });
    std::fill(atom_slot_start.begin(), atom_slot_start.end(), 0);
    for (int s = 0; s < slots; ++s) ++atom_slot_start[std::size_t(slot_atom[std::size_t(s)]) + 1];
    for (int a = 0; a < n; ++a)
      atom_slot_start[std::size_t(a) + 1] += atom_slot_start[std::size_t(a)];
    atom_slots.resize(std::size_t(slots));
    std::vector<int> fill(atom_slot_start.begin(), atom_slot_start.end() - 1);
    for (int s = 0, k = 0; s < slots; ++s) {
      const std::size_t a = std::size_t(slot_atom[std::size_t(s)]);
      atom_slots[std::size_t(fill[a]++)] = s;
      if (slot_image[std::size_t(s)] == unshifted) real_slot[std::size_t(k++)] = s;
    }
  }
};

}  // namespace kmol::md_host
