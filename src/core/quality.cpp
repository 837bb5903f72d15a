// Tetrahedron quality measures (see quality.hpp for their definitions and the reference).
#include "pliant/core/quality.hpp"

#include "pliant/core/geometry.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

namespace pliant {

TetQuality tet_quality(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
  TetQuality q;
  q.volume = signed_volume(a, b, c, d);
  const auto s = face_area_vectors(a, b, c, d);
  // face_area_vectors assumes positive orientation; for an inverted tet every S_k points inward,
  // which changes neither their norms nor the angles between them.
  std::array<double, 4> area;
  double area_sum = 0;
  for (int k = 0; k < 4; ++k) area_sum += (area[k] = s[k].norm());

  // Circumradius from the edge vectors at a: centre = (|u|²(v×w) + |v|²(w×u) + |w|²(u×v)) / (2 u·(v×w)).
  const Vec3 u = b - a, v = c - a, w = d - a;
  const Vec3 numerator =
      u.squaredNorm() * v.cross(w) + v.squaredNorm() * w.cross(u) + w.squaredNorm() * u.cross(v);
  const double six_v = 6.0 * q.volume;
  double longest2 = std::max({u.squaredNorm(), v.squaredNorm(), w.squaredNorm(), (c - b).squaredNorm(),
                              (d - b).squaredNorm(), (d - c).squaredNorm()});
  // ρ = 3 r_in / R with r_in = 3V / ΣA and R = |numerator| / (2·6V):  ρ = 3·(3V/ΣA)·(12V/|numerator|).
  const double num_norm = numerator.norm();
  if (six_v != 0.0 && area_sum > 0 && num_norm > 0) {
    q.radius_ratio = 108.0 * q.volume * std::abs(q.volume) / (area_sum * num_norm);
    const double r_in = 3.0 * std::abs(q.volume) / area_sum;
    q.aspect = std::sqrt(longest2) / (2.0 * std::sqrt(6.0) * r_in);
  } else {
    q.radius_ratio = 0;
    q.aspect = std::numeric_limits<double>::infinity();
  }
  // Dihedral angle at the edge shared by faces k and l: π minus the angle between their outward
  // normals, so cos θ = -n_k·n_l.
  q.min_dihedral_deg = 180.0;
  q.max_dihedral_deg = 0.0;
  for (int k = 0; k < 4; ++k) {
    for (int l = k + 1; l < 4; ++l) {
      double theta = 0;
      if (area[k] > 0 && area[l] > 0) {
        const double cosine = std::clamp(-s[k].dot(s[l]) / (area[k] * area[l]), -1.0, 1.0);
        theta = std::acos(cosine) * 180.0 / std::numbers::pi;
      }
      q.min_dihedral_deg = std::min(q.min_dihedral_deg, theta);
      q.max_dihedral_deg = std::max(q.max_dihedral_deg, theta);
    }
  }
  return q;
}

namespace {

template <std::size_t N>
bool in_range(const std::array<Index, N>& e, std::size_t node_count) {
  for (Index v : e) {
    if (v < 0 || static_cast<std::size_t>(v) >= node_count) return false;
  }
  return true;
}

struct Accumulator {
  double min = std::numeric_limits<double>::infinity();
  double max = -std::numeric_limits<double>::infinity();
  double sum = 0;
  void add(double x) {
    min = std::min(min, x);
    max = std::max(max, x);
    sum += x;
  }
  QualityStats stats(Index n) const { return n == 0 ? QualityStats{} : QualityStats{min, sum / n, max}; }
};

}  // namespace

MeshQuality mesh_quality(const TetMesh& mesh) {
  MeshQuality m;
  Accumulator rr, dmin, dmax, aspect, volume;
  double worst = std::numeric_limits<double>::infinity();
  for (Index i = 0; i < static_cast<Index>(mesh.tets.size()); ++i) {
    const Tet& t = mesh.tets[static_cast<std::size_t>(i)];
    if (!in_range(t, mesh.positions.size())) continue;
    ++m.tet_count;
    const auto& x = mesh.positions;
    const TetQuality q = tet_quality(x[t[0]], x[t[1]], x[t[2]], x[t[3]]);
    rr.add(q.radius_ratio);
    dmin.add(q.min_dihedral_deg);
    dmax.add(q.max_dihedral_deg);
    aspect.add(q.aspect);
    volume.add(q.volume);
    if (q.radius_ratio < worst) worst = q.radius_ratio, m.worst_tet = i;
    m.inverted_count += q.volume < 0;
    const int bin = std::clamp(static_cast<int>(std::floor(q.radius_ratio * 10.0)), 0, 9);
    ++m.radius_ratio_histogram[static_cast<std::size_t>(bin)];
  }
  m.radius_ratio = rr.stats(m.tet_count);
  m.min_dihedral_deg = dmin.stats(m.tet_count);
  m.max_dihedral_deg = dmax.stats(m.tet_count);
  m.aspect = aspect.stats(m.tet_count);
  m.volume = volume.stats(m.tet_count);
  m.total_volume = volume.sum;
  return m;
}

double total_volume(const TetMesh& mesh) {
  double v = 0;
  for (const Tet& t : mesh.tets) {
    if (!in_range(t, mesh.positions.size())) continue;
    v +=
        signed_volume(mesh.positions[t[0]], mesh.positions[t[1]], mesh.positions[t[2]], mesh.positions[t[3]]);
  }
  return v;
}

double surface_area(const TriMesh& mesh) {
  double a = 0;
  for (const Tri& t : mesh.triangles) {
    if (!in_range(t, mesh.positions.size())) continue;
    a += area_vector(mesh.positions[t[0]], mesh.positions[t[1]], mesh.positions[t[2]]).norm();
  }
  return a;
}

double enclosed_volume(const TriMesh& mesh) {
  // Σ over faces of (area vector · a)/3 = ∫ x·n dA / 3 = ∫ div(x)/3 dV = V.
  double v = 0;
  for (const Tri& t : mesh.triangles) {
    if (!in_range(t, mesh.positions.size())) continue;
    const Vec3& a = mesh.positions[t[0]];
    v += area_vector(a, mesh.positions[t[1]], mesh.positions[t[2]]).dot(a) / 3.0;
  }
  return v;
}

}  // namespace pliant
