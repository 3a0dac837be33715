#pragma once
// Boxes, spheres and cylinders: inside tests, bounds, exact volume and area,
// and a triangle tessellation for drawing.
#include <vector>

#include "geometry/geometry.hpp"

namespace ws::geo {

// Closed sets: a node exactly on the surface is inside.
bool inside(const BoxShape& b, Vec3 p);
bool inside(const SphereShape& s, Vec3 p);
bool inside(const CylinderShape& c, Vec3 p);

Aabb bounds(const BoxShape& b);
Aabb bounds(const SphereShape& s);
Aabb bounds(const CylinderShape& c);

double volume_m3(const BoxShape& b);
double volume_m3(const SphereShape& s);
double volume_m3(const CylinderShape& c);
double surface_area_m2(const BoxShape& b);
double surface_area_m2(const SphereShape& s);
double surface_area_m2(const CylinderShape& c);

// Outward-facing triangles. Spheres: `rings` x `segments` latitude-longitude
// grid; cylinders: `segments` around, with both caps.
std::vector<Tri> tessellate(const BoxShape& b);
std::vector<Tri> tessellate(const SphereShape& s, int rings = 16, int segments = 32);
std::vector<Tri> tessellate(const CylinderShape& c, int segments = 32);

}  // namespace ws::geo
