#include "pliant/core/mesh_distance.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace pliant {
namespace {

std::uint64_t edge_key(Index a, Index b) {
  if (a > b) std::swap(a, b);
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(a)) << 32) | static_cast<std::uint32_t>(b);
}

}  // namespace

Result<MeshDistance> MeshDistance::build(TriMesh mesh) {
  if (mesh.triangles.empty() || mesh.positions.empty()) return Error{"rigid mesh: no triangles"};
  const auto n = static_cast<Index>(mesh.positions.size());
  for (const Vec3& x : mesh.positions)
    if (!x.allFinite()) return Error{"rigid mesh: a node position is not finite"};
  MeshDistance out;
  out.face_normal_.resize(mesh.triangles.size());
  out.vertex_normal_.assign(mesh.positions.size(), Vec3::Zero());
  std::vector<std::pair<std::uint64_t, Vec3>> edges;
  edges.reserve(3 * mesh.triangles.size());
  for (std::size_t k = 0; k < mesh.triangles.size(); ++k) {
    const Tri& t = mesh.triangles[k];
    for (Index i : t)
      if (i < 0 || i >= n)
        return Error{"rigid mesh: triangle " + std::to_string(k) + " names node " + std::to_string(i) +
                     " of " + std::to_string(n)};
    const Vec3 a = mesh.positions[static_cast<std::size_t>(t[0])];
    const Vec3 b = mesh.positions[static_cast<std::size_t>(t[1])];
    const Vec3 c = mesh.positions[static_cast<std::size_t>(t[2])];
    const Vec3 area = (b - a).cross(c - a);
    const double length = area.norm();
    if (!(length > 1e-300)) return Error{"rigid mesh: triangle " + std::to_string(k) + " has zero area"};
    const Vec3 nf = area / length;
    out.face_normal_[k] = nf;
    const Vec3 corner[3] = {a, b, c};
    for (int j = 0; j < 3; ++j) {
      // The angle at corner j weighs the face normal into the vertex pseudonormal.
      const Vec3 e1 = (corner[(j + 1) % 3] - corner[j]).normalized();
      const Vec3 e2 = (corner[(j + 2) % 3] - corner[j]).normalized();
      const double angle = std::acos(std::clamp(e1.dot(e2), -1.0, 1.0));
      out.vertex_normal_[static_cast<std::size_t>(t[j])] += angle * nf;
      edges.push_back({edge_key(t[j], t[(j + 1) % 3]), nf});
    }
  }
  std::sort(edges.begin(), edges.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  bool closed = true;
  for (std::size_t i = 0; i < edges.size();) {
    std::size_t j = i;
    Vec3 sum = Vec3::Zero();
    for (; j < edges.size() && edges[j].first == edges[i].first; ++j) sum += edges[j].second;
    if (j - i != 2) closed = false;
    out.edge_normal_.push_back({edges[i].first, sum});
    i = j;
  }
  out.closed_ = closed;
  out.bvh_.build(mesh.positions, mesh.triangles);
  out.mesh_ = std::move(mesh);
  return out;
}

Vec3 MeshDistance::edge_normal(Index a, Index b) const {
  const std::uint64_t key = edge_key(a, b);
  const auto it = std::lower_bound(edge_normal_.begin(), edge_normal_.end(), key,
                                   [](const auto& e, std::uint64_t k) { return e.first < k; });
  return it != edge_normal_.end() && it->first == key ? it->second : Vec3::Zero();
}

bool MeshDistance::update_positions(std::span<const Vec3> positions) {
  if (positions.size() != mesh_.positions.size()) return false;
  std::copy(positions.begin(), positions.end(), mesh_.positions.begin());
  for (Vec3& n : vertex_normal_) n.setZero();
  for (auto& e : edge_normal_) e.second.setZero();
  for (std::size_t k = 0; k < mesh_.triangles.size(); ++k) {
    const Tri& t = mesh_.triangles[k];
    const Vec3 corner[3] = {mesh_.positions[static_cast<std::size_t>(t[0])],
                            mesh_.positions[static_cast<std::size_t>(t[1])],
                            mesh_.positions[static_cast<std::size_t>(t[2])]};
    const Vec3 area = (corner[1] - corner[0]).cross(corner[2] - corner[0]);
    const double length = area.norm();
    const Vec3 nf = length > 1e-300 ? Vec3(area / length) : Vec3(Vec3::Zero());
    face_normal_[k] = nf;
    for (int j = 0; j < 3; ++j) {
      const Vec3 e1 = (corner[(j + 1) % 3] - corner[j]).normalized();
      const Vec3 e2 = (corner[(j + 2) % 3] - corner[j]).normalized();
      const double angle = std::acos(std::clamp(e1.dot(e2), -1.0, 1.0));
      if (std::isfinite(angle)) vertex_normal_[static_cast<std::size_t>(t[j])] += angle * nf;
      const std::uint64_t key = edge_key(t[j], t[(j + 1) % 3]);
      const auto it = std::lower_bound(edge_normal_.begin(), edge_normal_.end(), key,
                                       [](const auto& e, std::uint64_t x) { return e.first < x; });
      if (it != edge_normal_.end() && it->first == key) it->second += nf;
    }
  }
  bvh_.refit(mesh_.positions);
  return true;
}

std::optional<SurfaceDistance> MeshDistance::query(const Vec3& p, double max_distance_squared,
                                                   NearestHit* closest) const {
  const std::optional<NearestHit> hit = bvh_.nearest(p, max_distance_squared);
  if (!hit) return std::nullopt;
  if (closest) *closest = *hit;
  const std::size_t k = static_cast<std::size_t>(hit->triangle);
  const Tri& t = mesh_.triangles[k];
  // The closest feature from the barycentric weights: a corner (two weights ~0), an edge (one), else
  // the face.
  const double eps = 1e-9;
  const double w[3] = {1.0 - hit->u - hit->v, hit->u, hit->v};
  const bool zero[3] = {w[0] < eps, w[1] < eps, w[2] < eps};
  Vec3 pseudo = face_normal_[k];
  const int zeros = zero[0] + zero[1] + zero[2];
  if (zeros >= 2) {
    const int j = !zero[0] ? 0 : (!zero[1] ? 1 : 2);
    pseudo = vertex_normal_[static_cast<std::size_t>(t[j])];
  } else if (zeros == 1) {
    const int j = zero[0] ? 0 : (zero[1] ? 1 : 2);
    pseudo = edge_normal(t[(j + 1) % 3], t[(j + 2) % 3]);
  }
  const Vec3 d = p - hit->point;
  const double r = std::sqrt(hit->distance_squared);
  const double sign = d.dot(pseudo) < 0.0 ? -1.0 : 1.0;
  // The outward normal: along p − point when p is off the surface (towards p outside, away inside),
  // the face normal on it.
  const Vec3 normal = r > 1e-12 ? Vec3(sign * d / r) : face_normal_[k];
  return SurfaceDistance{sign * r, hit->point, normal};
}

}  // namespace pliant
