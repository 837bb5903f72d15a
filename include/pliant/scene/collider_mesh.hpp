// A collider's surface as triangles, for drawing (PNG frames, the viewer) and for checking where it is:
// a plane becomes a finite quad around what it supports, the round shapes are tessellated.
#pragma once

#include "pliant/core/aabb.hpp"
#include "pliant/core/tri_mesh.hpp"
#include "pliant/scene/collider.hpp"

namespace pliant::scene {

/// The surface of `collider` at pose `at`, in the world frame (unit: m), with outward triangles. A plane
/// is a square on the plane centred at the projection of `around`'s centre, its half side 0.6 times
/// `around`'s diagonal (1 m for an empty box), so it reaches past the bodies it carries; a sphere and a
/// capsule use `segments` (≥ 4) steps around and half as many from pole to pole; a mesh is its own
/// triangles. A tessellated sphere lies inside the true sphere (its vertices on it).
TriMesh collider_surface(const Collider& collider, const Pose& at, const Aabb& around, int segments = 24);

}  // namespace pliant::scene
