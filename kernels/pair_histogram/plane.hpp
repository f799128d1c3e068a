#pragma once
// Distances within a plane, for 2-D RDFs (gmx rdf -xy): the component along the plane's normal is
// dropped, and the box is periodic along its two edges in the plane only (gmx's XY periodicity:
// the third edge plays no part). The pair histogram runs on coordinates moved to the middle of a
// normal edge 4 r_max + 1 A long, so that no image along it comes within r_max.
#include <string>
#include <vector>

#include "kmol/core/box.hpp"

namespace kmol {

enum class Plane { none, xy, xz, yz };

std::string to_string(Plane plane);
Plane plane_from_string(const std::string& name);  // InputError naming "plane" and the choices

// The axis normal to the plane: 0 (x), 1 (y) or 2 (z).
int normal_axis(Plane plane);

// The box of the projected problem: the given box's two edges in the plane and a normal edge of
// 4 r_max + 1; no box stays none. InputError when the box has not exactly two edges in the plane.
BoxSpec plane_box(const BoxSpec& box, Plane plane, double r_max);

// The area of the box in the plane (|e1 x e2| of its edges in it), what g(r) divides by.
double plane_area(const BoxSpec& box, Plane plane);

// What g(r) divides by: the box's volume, or its area in the plane.
double box_measure(const BoxSpec& box, Plane plane);

// Coordinates with the normal component replaced by `normal_coordinate`.
template <class T>
std::vector<Vec3<T>> projected(const Vec3<T>* xyz, std::int64_t n, Plane plane,
                               double normal_coordinate);

// Where projected coordinates lie along the normal: the middle of plane_box's normal edge.
double plane_normal_coordinate(const BoxSpec& plane_box, Plane plane);

}  // namespace kmol
