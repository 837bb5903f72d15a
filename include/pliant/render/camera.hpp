// Camera: an orbit camera (yaw, pitch, distance about a target point) with automatic framing of a
// bounding box and the ray through a pixel (the viewer's picking ray).
//
// Conventions: world +Y is up. Pixel coordinates are (px, py) with px to the right and py downwards
// from the top-left corner of the image; pixel (i, j) covers [i, i+1] × [j, j+1], so its centre is
// (i + 0.5, j + 0.5) and the image centre is (width/2, height/2).
#pragma once

#include "pliant/core/aabb.hpp"
#include "pliant/core/ray.hpp"
#include "pliant/core/types.hpp"

#include <Eigen/Core>

namespace pliant::render {

struct Camera {
  Vec3 target = Vec3::Zero();  ///< point orbited and looked at (unit: m)
  double yaw = 0.6;            ///< rotation about +Y; 0 looks along -Z (unit: rad)
  double pitch = 0.35;         ///< elevation above the XZ plane, |pitch| < π/2 (unit: rad)
  double distance = 1.0;       ///< eye to target (unit: m), > 0
  double fov_y = 0.7;          ///< vertical field of view of the perspective projection (unit: rad)
  bool orthographic = false;   ///< parallel projection; its half height is distance·tan(fov_y/2)
  double scene_radius = 1.0;   ///< radius of the drawn content about `target` (unit: m), sets the
                               ///< near and far planes so depth precision follows the content
  int width = 640;             ///< viewport width (unit: pixel)
  int height = 480;            ///< viewport height (unit: pixel)
  /// Where the view's centre (the target's image) lies, relative to the image centre: px to the
  /// right and py down (unit: pixel). Non-zero for a view partly covered by a panel, so the content
  /// is centred in the uncovered part and orbits about that point (an off-axis projection).
  double shift_x = 0.0;
  double shift_y = 0.0;

  double aspect() const { return static_cast<double>(width) / static_cast<double>(height); }
  /// Eye position (unit: m).
  Vec3 eye() const;
  /// Unit vector from the eye towards the target.
  Vec3 forward() const;
  /// Unit right and up vectors of the image plane in world space.
  Vec3 right() const;
  Vec3 up() const;
  /// Near and far clip distances from the eye (unit: m).
  double near_plane() const;
  double far_plane() const;

  /// World-to-camera transform (OpenGL convention: the camera looks along its -Z).
  Eigen::Matrix4d view_matrix() const;
  /// Camera-to-clip transform (OpenGL clip space, depth in [-1, 1]).
  Eigen::Matrix4d projection_matrix() const;
  /// The ray through pixel position (px, py): from the eye (perspective) or from the image plane
  /// (orthographic), with a unit direction, so RayHit::t is a distance (unit: m).
  Ray ray(double px, double py) const;
  /// The pixel position of a world point (px right, py down); z is its eye-space depth (unit: m).
  Vec3 project(const Vec3& world) const;

  /// Points the camera at `box` and sets the distance so its bounding sphere fits the view in both
  /// directions (for the smaller of the vertical and horizontal field of view), with `margin` ≥ 1 of
  /// spare room. Yaw and pitch are kept. An empty box leaves the camera unchanged.
  void frame(const Aabb& box, double margin = 1.1);
  /// Like frame(), but fits the box into the pixel rectangle [x0, x1] × [y0, y1] of the image (px
  /// right, py down; e.g. the part of a window that a panel leaves free) and sets shift_x / shift_y
  /// so the box's centre appears at the rectangle's centre. An empty or inverted rectangle frames the
  /// whole image.
  void frame_region(const Aabb& box, double x0, double y0, double x1, double y1, double margin = 1.1);

  /// Viewer gestures. orbit: change yaw and pitch (unit: rad); pitch is clamped short of the poles.
  void orbit(double d_yaw, double d_pitch);
  /// Moves the target in the image plane by a drag of (dx, dy) pixels, so the point under the
  /// cursor at the target depth follows the cursor.
  void pan(double dx_pixels, double dy_pixels);
  /// Multiplies the distance by `factor` (> 0; < 1 zooms in).
  void zoom(double factor);
};

}  // namespace pliant::render
