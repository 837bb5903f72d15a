// Geometric kernels on tetrahedra and triangles.
//
// The face area vectors follow the linear-tetrahedron formulation of Nikitina et al. (2003) (reference note
// green-functions.md, "Linear tetrahedron"): N_k(x) = 1 - S_k·(x - x_k)/(3V), with S_k the outward
// area vector of the face opposite node k.
#include "pliant/core/geometry.hpp"

#include <algorithm>
#include <limits>

namespace pliant {

double signed_volume(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
  return (b - a).dot((c - a).cross(d - a)) / 6.0;
}

Vec3 area_vector(const Vec3& a, const Vec3& b, const Vec3& c) { return 0.5 * (b - a).cross(c - a); }

std::array<Vec3, 4> face_area_vectors(const Vec3& x0, const Vec3& x1, const Vec3& x2, const Vec3& x3) {
  // Faces opposite nodes 0..3, each ordered counter-clockwise seen from outside a positively
  // oriented tet (the same local faces boundary_faces() emits). The last vector is computed as
  // minus the sum of the others: it is the exact identity ΣS_k = 0 (the closed surface of a
  // tetrahedron has zero total area vector), so gradients of constants vanish to the last bit.
  const Vec3 s0 = area_vector(x1, x2, x3);
  const Vec3 s1 = area_vector(x0, x3, x2);
  const Vec3 s2 = area_vector(x0, x1, x3);
  const Vec3 s3 = -(s0 + s1 + s2);
  return {s0, s1, s2, s3};
}

}  // namespace pliant

namespace pliant {

// Closest point by Voronoi regions of the triangle's features (vertices, edges, face), as laid out
// in C. Ericson, "Real-Time Collision Detection", Morgan Kaufmann 2005, §5.1.5: the signs of dot
// products with the edge vectors tell which feature's region holds p, without a square root.
Vec3 closest_point_on_triangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c, double& u,
                               double& v) {
  const Vec3 ab = b - a, ac = c - a, ap = p - a;
  const double d1 = ab.dot(ap), d2 = ac.dot(ap);
  if (d1 <= 0 && d2 <= 0) {  // vertex a
    u = v = 0;
    return a;
  }
  const Vec3 bp = p - b;
  const double d3 = ab.dot(bp), d4 = ac.dot(bp);
  if (d3 >= 0 && d4 <= d3) {  // vertex b
    u = 1, v = 0;
    return b;
  }
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) {  // edge ab
    u = d1 / (d1 - d3), v = 0;
    return a + u * ab;
  }
  const Vec3 cp = p - c;
  const double d5 = ab.dot(cp), d6 = ac.dot(cp);
  if (d6 >= 0 && d5 <= d6) {  // vertex c
    u = 0, v = 1;
    return c;
  }
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) {  // edge ac
    u = 0, v = d2 / (d2 - d6);
    return a + v * ac;
  }
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) {  // edge bc
    const double w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
    u = 1 - w, v = w;
    return b + w * (c - b);
  }
  const double sum = va + vb + vc;
  if (!(sum > 0)) {  // degenerate triangle whose regions all failed: fall back to the nearest edge
    double best = std::numeric_limits<double>::infinity();
    Vec3 result = a;
    const Vec3 ends[3][2] = {{a, b}, {b, c}, {c, a}};
    for (int e = 0; e < 3; ++e) {
      const Vec3 d = ends[e][1] - ends[e][0];
      const double len2 = d.squaredNorm();
      const double s = len2 > 0 ? std::clamp((p - ends[e][0]).dot(d) / len2, 0.0, 1.0) : 0.0;
      const Vec3 q = ends[e][0] + s * d;
      if ((q - p).squaredNorm() < best) {
        best = (q - p).squaredNorm();
        result = q;
        u = e == 0 ? s : e == 1 ? 1 - s : 0;
        v = e == 0 ? 0 : e == 1 ? s : 1 - s;
      }
    }
    return result;
  }
  u = vb / sum, v = vc / sum;
  return a + u * ab + v * ac;
}

}  // namespace pliant
