#include "pliant/meshing/sliver_pass.hpp"

#include "pliant/core/geometry.hpp"
#include "pliant/core/quality.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <initializer_list>
#include <limits>
#include <map>
#include <numbers>
#include <set>
#include <vector>

namespace pliant::meshing {

namespace {

using Face = std::array<Index, 3>;

Face sorted_face(Index a, Index b, Index c) {
  Face f{a, b, c};
  std::sort(f.begin(), f.end());
  return f;
}

// The four faces of a tet, each opposite local node k.
Face tet_face(const Tet& t, int k) {
  static constexpr int kFace[4][3] = {{1, 2, 3}, {0, 2, 3}, {0, 1, 3}, {0, 1, 2}};
  return sorted_face(t[kFace[k][0]], t[kFace[k][1]], t[kFace[k][2]]);
}

// Smallest dihedral angle of a tet, or a negative number when it is inverted or flat, so that any
// valid tet ranks above any invalid one.
double quality(const std::vector<Vec3>& x, const Tet& t) {
  if (signed_volume(x[t[0]], x[t[1]], x[t[2]], x[t[3]]) <= 0) return -1.0;
  return tet_quality(x[t[0]], x[t[1]], x[t[2]], x[t[3]]).min_dihedral_deg;
}

struct Topology {
  std::vector<std::vector<Index>> node_tets;       // node -> tets using it
  std::map<Face, int> face_count;                  // sorted face -> tets sharing it (1 = boundary)
  std::map<Face, std::array<Index, 2>> face_tets;  // sorted face -> the (up to two) tets sharing it
  std::vector<char> on_boundary;                   // node lies on a boundary face
};

Topology build_topology(const TetMesh& mesh, const std::vector<char>& alive) {
  Topology topo;
  topo.node_tets.assign(mesh.positions.size(), {});
  topo.on_boundary.assign(mesh.positions.size(), 0);
  for (std::size_t e = 0; e < mesh.tets.size(); ++e) {
    if (!alive[e]) continue;
    for (int k = 0; k < 4; ++k) {
      topo.node_tets[static_cast<std::size_t>(mesh.tets[e][k])].push_back(static_cast<Index>(e));
      const Face face = tet_face(mesh.tets[e], k);
      auto [it, inserted] = topo.face_tets.try_emplace(face, std::array<Index, 2>{static_cast<Index>(e), -1});
      if (!inserted) it->second[1] = static_cast<Index>(e);
      ++topo.face_count[face];
    }
  }
  for (const auto& [face, count] : topo.face_count) {
    if (count != 1) continue;
    for (Index v : face) topo.on_boundary[static_cast<std::size_t>(v)] = 1;
  }
  return topo;
}

double local_quality(const TetMesh& mesh, const std::vector<Index>& tets) {
  double q = std::numeric_limits<double>::infinity();
  for (Index e : tets) q = std::min(q, quality(mesh.positions, mesh.tets[static_cast<std::size_t>(e)]));
  return q;
}

// Hill climbing on one interior node: tries its neighbours' centroid and moves away from the plane of
// the face opposite it in its worst tet; keeps the best candidate that raises the smallest dihedral
// angle around the node. Returns whether the node moved.
bool improve_node(TetMesh& mesh, Index v, const std::vector<Index>& tets) {
  Vec3& p = mesh.positions[static_cast<std::size_t>(v)];
  const Vec3 start = p;
  const double q0 = local_quality(mesh, tets);
  Vec3 centroid = Vec3::Zero();
  int count = 0;
  Index worst = tets.front();
  double worst_q = std::numeric_limits<double>::infinity();
  double edge = 0;
  for (Index e : tets) {
    const Tet& t = mesh.tets[static_cast<std::size_t>(e)];
    for (Index u : t) {
      if (u == v) continue;
      centroid += mesh.positions[static_cast<std::size_t>(u)];
      edge += (mesh.positions[static_cast<std::size_t>(u)] - start).norm();
      ++count;
    }
    const double q = quality(mesh.positions, t);
    if (q < worst_q) worst_q = q, worst = e;
  }
  centroid /= count;
  edge /= count;
  std::vector<Vec3> candidates;
  for (double s : {1.0, 0.5, 0.25}) candidates.push_back(start + s * (centroid - start));
  // The face of the worst tet opposite v: a sliver opens by moving v off that face's plane.
  const Tet& t = mesh.tets[static_cast<std::size_t>(worst)];
  std::array<Vec3, 3> face;
  int n = 0;
  for (Index u : t)
    if (u != v) face[static_cast<std::size_t>(n++)] = mesh.positions[static_cast<std::size_t>(u)];
  Vec3 normal = (face[1] - face[0]).cross(face[2] - face[0]);
  if (normal.norm() > 0) {
    normal.normalize();
    for (double s : {0.02, 0.05, 0.1, 0.2, 0.4}) {
      candidates.push_back(start + s * edge * normal);
      candidates.push_back(start - s * edge * normal);
    }
  }
  // A coarse pattern search as well (the 26 lattice directions, three step lengths): the worst tet's
  // normal is blocked when opening it flattens a neighbour.
  for (int dx = -1; dx <= 1; ++dx) {
    for (int dy = -1; dy <= 1; ++dy) {
      for (int dz = -1; dz <= 1; ++dz) {
        if (dx == 0 && dy == 0 && dz == 0) continue;
        const Vec3 direction = Vec3(dx, dy, dz).normalized();
        for (double s : {0.03, 0.1, 0.3}) candidates.push_back(start + s * edge * direction);
      }
    }
  }
  double best_q = q0;
  Vec3 best = start;
  for (const Vec3& c : candidates) {
    p = c;
    const double q = local_quality(mesh, tets);
    if (q > best_q + 1e-9) best_q = q, best = c;
  }
  p = best;
  return best != start;
}

// Whether u-v is an edge of a boundary face (the surface must keep it).
bool on_surface_edge(const Topology& topo, const TetMesh& mesh, const std::vector<char>& alive, Index u,
                     Index v) {
  for (Index f : topo.node_tets[static_cast<std::size_t>(u)]) {
    if (!alive[static_cast<std::size_t>(f)]) continue;
    const Tet& t = mesh.tets[static_cast<std::size_t>(f)];
    if (std::find(t.begin(), t.end(), v) == t.end()) continue;
    for (int k = 0; k < 4; ++k) {
      if (t[static_cast<std::size_t>(k)] == u || t[static_cast<std::size_t>(k)] == v) continue;
      const auto it = topo.face_count.find(tet_face(t, k));
      if (it != topo.face_count.end() && it->second == 1) return true;
    }
  }
  return false;
}

// Orients a tet positively; false when it is flat.
bool orient(const std::vector<Vec3>& x, Tet& t) {
  const double v = signed_volume(x[static_cast<std::size_t>(t[0])], x[static_cast<std::size_t>(t[1])],
                                 x[static_cast<std::size_t>(t[2])], x[static_cast<std::size_t>(t[3])]);
  if (v < 0) std::swap(t[2], t[3]);
  return v != 0;
}

double volume(const std::vector<Vec3>& x, const Tet& t) {
  return signed_volume(x[static_cast<std::size_t>(t[0])], x[static_cast<std::size_t>(t[1])],
                       x[static_cast<std::size_t>(t[2])], x[static_cast<std::size_t>(t[3])]);
}

// The flips of tetrahedral mesh improvement (Joe 1995; Klingner & Shewchuk 2007): replacing the old
// tets by new ones on the same nodes, kept only when they fill exactly the same region (their volumes
// add up to the old ones' and none is flat) and their worst smallest dihedral angle beats the old worst.
bool better_flip(const std::vector<Vec3>& x, const std::vector<Tet>& old_tets, std::vector<Tet>& new_tets) {
  double old_volume = 0, old_q = std::numeric_limits<double>::infinity();
  for (const Tet& t : old_tets) old_volume += volume(x, t), old_q = std::min(old_q, quality(x, t));
  double new_volume = 0, new_q = std::numeric_limits<double>::infinity();
  for (Tet& t : new_tets) {
    if (!orient(x, t)) return false;
    new_volume += volume(x, t);
    new_q = std::min(new_q, quality(x, t));
  }
  return std::abs(new_volume - old_volume) <= 1e-9 * old_volume && new_q > old_q + 1e-9;
}

// ---- sliding surface nodes ----

// The boundary as it was when the pass began: sliding keeps each surface node on the input triangles
// around its starting position, and measures how far the moved boundary lies from them.
struct InputSurface {
  std::vector<std::array<Vec3, 3>> tris;
  std::vector<std::vector<Index>> fan;  // node -> input triangles around it (empty: not a surface node)
};

// A boundary face around a node, oriented outward (its normal points away from the tet's fourth node).
struct BoundaryFace {
  std::array<Index, 3> nodes;
  Index inner;
};

std::vector<BoundaryFace> boundary_faces_around(const TetMesh& mesh, const Topology& topo,
                                                const std::vector<char>& alive, Index v) {
  std::vector<BoundaryFace> faces;
  for (Index e : topo.node_tets[static_cast<std::size_t>(v)]) {
    if (!alive[static_cast<std::size_t>(e)]) continue;
    const Tet& t = mesh.tets[static_cast<std::size_t>(e)];
    for (int k = 0; k < 4; ++k) {
      if (t[static_cast<std::size_t>(k)] == v) continue;
      const Face f = tet_face(t, k);
      const auto it = topo.face_count.find(f);
      if (it == topo.face_count.end() || it->second != 1) continue;
      faces.push_back({f, t[static_cast<std::size_t>(k)]});
    }
  }
  return faces;
}

Vec3 outward_normal(const std::vector<Vec3>& x, const BoundaryFace& f) {
  const Vec3& a = x[static_cast<std::size_t>(f.nodes[0])];
  Vec3 n = (x[static_cast<std::size_t>(f.nodes[1])] - a).cross(x[static_cast<std::size_t>(f.nodes[2])] - a);
  if (n.dot(x[static_cast<std::size_t>(f.inner)] - a) > 0) n = -n;
  return n;
}

// Distance from p to the input triangles around the given nodes (an upper bound on the distance to
// the whole input surface).
double distance_to_input(const InputSurface& in, const Vec3& p, const std::array<Index, 3>& nodes) {
  double best = std::numeric_limits<double>::infinity();
  for (Index v : nodes) {
    if (static_cast<std::size_t>(v) >= in.fan.size()) continue;
    for (Index i : in.fan[static_cast<std::size_t>(v)]) {
      const auto& t = in.tris[static_cast<std::size_t>(i)];
      double u = 0, w = 0;
      best = std::min(best, (closest_point_on_triangle(p, t[0], t[1], t[2], u, w) - p).norm());
    }
  }
  return best;
}

double distance_to_faces(const std::vector<Vec3>& x, const Vec3& p, const std::vector<BoundaryFace>& faces) {
  double best = std::numeric_limits<double>::infinity();
  for (const BoundaryFace& f : faces) {
    double u = 0, w = 0;
    best = std::min(best, (closest_point_on_triangle(p, x[static_cast<std::size_t>(f.nodes[0])],
                                                     x[static_cast<std::size_t>(f.nodes[1])],
                                                     x[static_cast<std::size_t>(f.nodes[2])], u, w) -
                           p)
                              .norm());
  }
  return best;
}

// A barycentric grid of 4 intervals per edge (15 points, corners included): where a triangle is
// sampled for the distances between the moved boundary and the input surface.
constexpr int kSampleIntervals = 4;
// Slides are kept while the sampled distance is under this share of the bound: the rest covers what
// the samples miss between them (on a ball, a sampling twice as fine found up to 12% more).
constexpr double kSampledShare = 0.8;
std::vector<Vec3> samples(const Vec3& a, const Vec3& b, const Vec3& c) {
  std::vector<Vec3> points;
  for (int i = 0; i <= kSampleIntervals; ++i)
    for (int j = 0; i + j <= kSampleIntervals; ++j)
      points.push_back((static_cast<double>(kSampleIntervals - i - j) * a + static_cast<double>(i) * b +
                        static_cast<double>(j) * c) /
                       kSampleIntervals);
  return points;
}

// Two-sided sampled distance between the boundary around v and the input surface: samples of the
// boundary faces around v to the input triangles around their nodes, and samples of the input
// triangles around v and its boundary neighbours (whose nearest boundary may have been v's faces) to
// the boundary faces within two rings of v.
double local_deviation(const TetMesh& mesh, const Topology& topo, const std::vector<char>& alive,
                       const InputSurface& in, Index v, const std::vector<BoundaryFace>& around) {
  const std::vector<Vec3>& x = mesh.positions;
  double gap = 0;
  for (const BoundaryFace& f : around) {
    for (const Vec3& p :
         samples(x[static_cast<std::size_t>(f.nodes[0])], x[static_cast<std::size_t>(f.nodes[1])],
                 x[static_cast<std::size_t>(f.nodes[2])]))
      gap = std::max(gap, distance_to_input(in, p, f.nodes));
  }
  std::set<Index> ring{v};
  for (const BoundaryFace& f : around) ring.insert(f.nodes.begin(), f.nodes.end());
  std::set<Index> rings = ring;
  std::map<Face, BoundaryFace> faces;
  for (Index u : ring) {
    for (const BoundaryFace& f : boundary_faces_around(mesh, topo, alive, u)) {
      faces.emplace(f.nodes, f);
      rings.insert(f.nodes.begin(), f.nodes.end());
    }
  }
  for (Index u : rings)
    if (!ring.count(u))
      for (const BoundaryFace& f : boundary_faces_around(mesh, topo, alive, u)) faces.emplace(f.nodes, f);
  std::vector<BoundaryFace> near;
  for (const auto& [key, f] : faces) near.push_back(f);
  std::set<Index> input_tris;
  for (Index u : ring)
    if (static_cast<std::size_t>(u) < in.fan.size())
      input_tris.insert(in.fan[static_cast<std::size_t>(u)].begin(),
                        in.fan[static_cast<std::size_t>(u)].end());
  for (Index i : input_tris) {
    const auto& t = in.tris[static_cast<std::size_t>(i)];
    for (const Vec3& p : samples(t[0], t[1], t[2])) gap = std::max(gap, distance_to_faces(x, p, near));
  }
  return gap;
}

// Hill climbing on one surface node, within the plane of its nearly flat surround: candidates in the
// mean tangent plane are projected onto the input triangles around the node's starting position, and
// the best one that raises the smallest dihedral angle around the node, keeps every boundary triangle
// around it facing outward within the flatness cone, and keeps the boundary within `tolerance` of
// the input is taken. Returns whether the node moved; `deviation` gets the accepted move's distance.
bool slide_node(TetMesh& mesh, const Topology& topo, const std::vector<char>& alive, const InputSurface& in,
                Index v, double cos_flat, double tolerance, double& deviation) {
  if (static_cast<std::size_t>(v) >= in.fan.size() || in.fan[static_cast<std::size_t>(v)].empty())
    return false;
  const std::vector<Index>& tets = topo.node_tets[static_cast<std::size_t>(v)];
  const std::vector<BoundaryFace> faces = boundary_faces_around(mesh, topo, alive, v);
  if (faces.size() < 3) return false;
  std::vector<Vec3> normals;
  Vec3 mean = Vec3::Zero();
  for (const BoundaryFace& f : faces) {
    normals.push_back(outward_normal(mesh.positions, f));
    mean += normals.back();
  }
  if (mean.norm() == 0) return false;
  mean.normalize();
  for (const Vec3& n : normals)
    if (n.norm() == 0 || n.normalized().dot(mean) < cos_flat) return false;

  Vec3& p = mesh.positions[static_cast<std::size_t>(v)];
  const Vec3 start = p;
  const double q0 = local_quality(mesh, tets);
  Vec3 centroid = Vec3::Zero();
  double edge = 0;
  int count = 0;
  for (const BoundaryFace& f : faces) {
    for (Index u : f.nodes) {
      if (u == v) continue;
      centroid += mesh.positions[static_cast<std::size_t>(u)];
      edge += (mesh.positions[static_cast<std::size_t>(u)] - start).norm();
      ++count;
    }
  }
  centroid /= count;
  edge /= count;
  const Vec3 t1 = mean.unitOrthogonal();
  const Vec3 t2 = mean.cross(t1);
  std::vector<Vec3> candidates;
  const Vec3 to_centroid = (centroid - start) - (centroid - start).dot(mean) * mean;
  for (double s : {1.0, 0.5, 0.25}) candidates.push_back(start + s * to_centroid);
  for (int k = 0; k < 16; ++k) {
    const double a = 2 * std::numbers::pi * k / 16;
    const Vec3 direction = std::cos(a) * t1 + std::sin(a) * t2;
    for (double s : {0.03, 0.1, 0.3}) candidates.push_back(start + s * edge * direction);
  }
  // Projection onto the input triangles around the starting position: the node stays on the input.
  const auto project = [&](const Vec3& c) {
    Vec3 best = c;
    double best_d = std::numeric_limits<double>::infinity();
    for (Index i : in.fan[static_cast<std::size_t>(v)]) {
      const auto& t = in.tris[static_cast<std::size_t>(i)];
      double u = 0, w = 0;
      const Vec3 q = closest_point_on_triangle(c, t[0], t[1], t[2], u, w);
      if ((q - c).norm() < best_d) best_d = (q - c).norm(), best = q;
    }
    return best;
  };
  const double cos_fold = std::min(cos_flat, std::cos(std::numbers::pi / 6));
  double best_q = q0;
  Vec3 best = start;
  double best_gap = 0;
  for (const Vec3& c : candidates) {
    p = project(c);
    if ((p - start).norm() <= 1e-9 * edge) continue;
    const double q = local_quality(mesh, tets);
    if (!(q > best_q + 1e-9)) continue;
    bool facing = true;
    for (const BoundaryFace& f : faces) {
      const Vec3 n = outward_normal(mesh.positions, f);
      facing = facing && n.norm() > 0 && n.normalized().dot(mean) >= cos_fold;
    }
    if (!facing) continue;
    const double gap = local_deviation(mesh, topo, alive, in, v, faces);
    if (gap > kSampledShare * tolerance) continue;
    best_q = q, best = p, best_gap = gap;
  }
  p = best;
  if (best == start) return false;
  deviation = best_gap;
  return true;
}

}  // namespace

SliverReport remove_slivers(TetMesh& mesh, const SliverOptions& options) {
  SliverReport report;
  const double threshold = options.min_dihedral_deg;
  std::vector<char> alive(mesh.tets.size(), 1);
  const auto count_slivers = [&](double* min_angle) {
    Index slivers = 0;
    double least = std::numeric_limits<double>::infinity();
    for (std::size_t e = 0; e < mesh.tets.size(); ++e) {
      if (!alive[e]) continue;
      const double q = quality(mesh.positions, mesh.tets[e]);
      least = std::min(least, q);
      if (q < threshold) ++slivers;
    }
    if (min_angle) *min_angle = least;
    return slivers;
  };
  report.slivers_before = count_slivers(&report.min_dihedral_before);
  const auto total_volume = [&] {
    double v = 0;
    for (std::size_t e = 0; e < mesh.tets.size(); ++e)
      if (alive[e]) v += volume(mesh.positions, mesh.tets[e]);
    return v;
  };
  report.volume_before = total_volume();
  // Sliding: the input boundary, and the distance bound as a fraction of its mean edge length.
  const bool slide = options.surface_slide_deg > 0;
  InputSurface input;
  double tolerance = 0;
  std::vector<char> slid;
  if (slide) {
    const Topology topo = build_topology(mesh, alive);
    input.fan.assign(mesh.positions.size(), {});
    double edge_sum = 0;
    for (const auto& [face, count] : topo.face_count) {
      if (count != 1) continue;
      const auto i = static_cast<Index>(input.tris.size());
      input.tris.push_back({mesh.positions[static_cast<std::size_t>(face[0])],
                            mesh.positions[static_cast<std::size_t>(face[1])],
                            mesh.positions[static_cast<std::size_t>(face[2])]});
      for (int k = 0; k < 3; ++k) {
        input.fan[static_cast<std::size_t>(face[static_cast<std::size_t>(k)])].push_back(i);
        edge_sum += (input.tris.back()[static_cast<std::size_t>(k)] - input.tris.back()[(k + 1) % 3]).norm();
      }
    }
    if (!input.tris.empty()) tolerance = options.surface_tolerance * edge_sum / (3.0 * input.tris.size());
    report.surface_tolerance = tolerance;
    slid.assign(mesh.positions.size(), 0);
  }
  const double cos_flat = std::cos(options.surface_slide_deg * std::numbers::pi / 180.0);

  for (int round = 0; round < options.max_rounds; ++round) {
    Topology topo = build_topology(mesh, alive);
    bool changed = false;
    // Smoothing: every interior node of a sliver.
    for (std::size_t e = 0; e < mesh.tets.size(); ++e) {
      if (!alive[e] || quality(mesh.positions, mesh.tets[e]) >= threshold) continue;
      for (Index v : mesh.tets[e]) {
        if (topo.on_boundary[static_cast<std::size_t>(v)]) {
          if (!slide) continue;
          for (int step = 0; step < 8; ++step) {
            double gap = 0;
            if (!slide_node(mesh, topo, alive, input, v, cos_flat, tolerance, gap)) break;
            ++report.surface_moves;
            slid[static_cast<std::size_t>(v)] = 1;
            changed = true;
          }
          continue;
        }
        for (int step = 0; step < 8; ++step) {
          if (!improve_node(mesh, v, topo.node_tets[static_cast<std::size_t>(v)])) break;
          ++report.nodes_moved;
          changed = true;
        }
      }
    }
    // Flips: nodes of changed tets are marked, and later flips in the round keep off them, since the
    // topology maps no longer describe the tets around them.
    std::vector<char> touched(mesh.positions.size(), 0);
    const auto any_touched = [&](std::initializer_list<Index> nodes) {
      return std::any_of(nodes.begin(), nodes.end(),
                         [&](Index v) { return touched[static_cast<std::size_t>(v)] != 0; });
    };
    const std::size_t tet_count = mesh.tets.size();
    for (std::size_t e = 0; e < tet_count && options.flip_and_split; ++e) {
      if (!alive[e] || quality(mesh.positions, mesh.tets[e]) >= threshold) continue;
      const Tet t = mesh.tets[e];
      if (any_touched({t[0], t[1], t[2], t[3]})) continue;
      bool flipped = false;
      // 2-3: across each interior face abc to the tet (a, b, c, x): three tets around the edge d-x.
      for (int k = 0; k < 4 && !flipped; ++k) {
        const auto it = topo.face_tets.find(tet_face(t, k));
        if (it == topo.face_tets.end() || it->second[1] < 0) continue;
        const Index f = it->second[0] == static_cast<Index>(e) ? it->second[1] : it->second[0];
        const Tet other = mesh.tets[static_cast<std::size_t>(f)];
        const Face abc = it->first;
        const Index d = t[static_cast<std::size_t>(k)];
        Index x = -1;
        for (Index v : other)
          if (std::find(abc.begin(), abc.end(), v) == abc.end()) x = v;
        if (x < 0 || any_touched({x})) continue;
        std::vector<Tet> news{{abc[0], abc[1], d, x}, {abc[1], abc[2], d, x}, {abc[2], abc[0], d, x}};
        if (!better_flip(mesh.positions, {t, other}, news)) continue;
        mesh.tets[e] = news[0];
        mesh.tets[static_cast<std::size_t>(f)] = news[1];
        mesh.tets.push_back(news[2]);
        alive.push_back(1);
        for (Index v : {abc[0], abc[1], abc[2], d, x}) touched[static_cast<std::size_t>(v)] = 1;
        flipped = true;
      }
      // 3-2: an interior edge u-v with exactly three tets around it becomes the face between two.
      for (int i = 0; i < 4 && !flipped; ++i) {
        for (int j = i + 1; j < 4 && !flipped; ++j) {
          const Index u = t[static_cast<std::size_t>(i)], v = t[static_cast<std::size_t>(j)];
          std::vector<Index> around;
          for (Index f : topo.node_tets[static_cast<std::size_t>(u)]) {
            const Tet& other = mesh.tets[static_cast<std::size_t>(f)];
            if (alive[static_cast<std::size_t>(f)] && std::find(other.begin(), other.end(), v) != other.end())
              around.push_back(f);
          }
          if (around.size() != 3) continue;
          // The ring: each of the three other nodes in exactly two of the tets (else u-v is on the surface).
          std::map<Index, int> ring;
          for (Index f : around)
            for (Index w : mesh.tets[static_cast<std::size_t>(f)])
              if (w != u && w != v) ++ring[w];
          if (ring.size() != 3 ||
              std::any_of(ring.begin(), ring.end(), [](const auto& r) { return r.second != 2; }))
            continue;
          std::vector<Index> c;
          for (const auto& [w, n] : ring) c.push_back(w);
          if (any_touched({u, v, c[0], c[1], c[2]})) continue;
          std::vector<Tet> olds;
          for (Index f : around) olds.push_back(mesh.tets[static_cast<std::size_t>(f)]);
          std::vector<Tet> news{{c[0], c[1], c[2], u}, {c[0], c[1], c[2], v}};
          if (!better_flip(mesh.positions, olds, news)) continue;
          mesh.tets[static_cast<std::size_t>(around[0])] = news[0];
          mesh.tets[static_cast<std::size_t>(around[1])] = news[1];
          alive[static_cast<std::size_t>(around[2])] = 0;
          for (Index w : {u, v, c[0], c[1], c[2]}) touched[static_cast<std::size_t>(w)] = 1;
          flipped = true;
        }
      }
      if (flipped) {
        ++report.flips;
        changed = true;
        continue;
      }
      // Split: a sliver whose nodes are all on the surface has no node to move. Splitting one of its
      // interior edges (longest first) at the middle adds an interior node shared by every tet around
      // that edge, which the hill climbing then moves; a split is undone unless it raises the worst
      // angle there.
      if (std::count_if(t.begin(), t.end(),
                        [&](Index v) { return topo.on_boundary[static_cast<std::size_t>(v)] != 0; }) < 3)
        continue;
      std::vector<std::pair<double, std::pair<Index, Index>>> edges;
      for (int i = 0; i < 4; ++i) {
        for (int j = i + 1; j < 4; ++j) {
          const Index u = t[static_cast<std::size_t>(i)], v = t[static_cast<std::size_t>(j)];
          if (on_surface_edge(topo, mesh, alive, u, v)) continue;
          edges.push_back(
              {(mesh.positions[static_cast<std::size_t>(u)] - mesh.positions[static_cast<std::size_t>(v)])
                   .norm(),
               {u, v}});
        }
      }
      std::sort(edges.begin(), edges.end(), [](const auto& x, const auto& y) { return x.first > y.first; });
      for (const auto& [length, ends] : edges) {
        const auto [best_u, best_v] = ends;
        std::vector<Index> around;
        for (Index f : topo.node_tets[static_cast<std::size_t>(best_u)]) {
          const Tet& other = mesh.tets[static_cast<std::size_t>(f)];
          if (alive[static_cast<std::size_t>(f)] &&
              std::find(other.begin(), other.end(), best_v) != other.end())
            around.push_back(f);
        }
        bool clean = true;
        for (Index f : around)
          for (Index w : mesh.tets[static_cast<std::size_t>(f)])
            clean = clean && !touched[static_cast<std::size_t>(w)];
        if (!clean) continue;
        double old_q = std::numeric_limits<double>::infinity();
        for (Index f : around)
          old_q = std::min(old_q, quality(mesh.positions, mesh.tets[static_cast<std::size_t>(f)]));
        const auto m = static_cast<Index>(mesh.positions.size());
        mesh.positions.push_back(0.5 * (mesh.positions[static_cast<std::size_t>(best_u)] +
                                        mesh.positions[static_cast<std::size_t>(best_v)]));
        std::vector<Index> new_tets;
        const std::size_t first_new = mesh.tets.size();
        for (Index f : around) {
          Tet& a = mesh.tets[static_cast<std::size_t>(f)];
          Tet b = a;
          // m lies on u-v, so putting it in place of one end keeps each half's orientation.
          for (Index& w : a)
            if (w == best_v) w = m;
          for (Index& w : b)
            if (w == best_u) w = m;
          mesh.tets.push_back(b);
          alive.push_back(1);
          new_tets.push_back(f);
          new_tets.push_back(static_cast<Index>(mesh.tets.size() - 1));
        }
        for (int step = 0; step < 8; ++step)
          if (!improve_node(mesh, m, new_tets)) break;
        if (local_quality(mesh, new_tets) > old_q + 1e-9) {
          touched.push_back(1);  // m
          topo.on_boundary.push_back(0);
          for (Index f : new_tets)
            for (Index w : mesh.tets[static_cast<std::size_t>(f)]) touched[static_cast<std::size_t>(w)] = 1;
          ++report.splits;
          changed = true;
          break;
        } else {  // undo: the halves go back into one tet, the new node goes
          for (Index f : around) {
            Tet& a = mesh.tets[static_cast<std::size_t>(f)];
            for (Index& w : a)
              if (w == m) w = best_v;
          }
          mesh.tets.resize(first_new);
          alive.resize(first_new);
          mesh.positions.pop_back();
        }
      }
    }
    // Peeling: slivers whose remaining flatness comes from the surface itself.
    if (options.peel_boundary) {
      for (std::size_t e = 0; e < mesh.tets.size(); ++e) {
        if (!alive[e]) continue;
        const Tet& t = mesh.tets[e];
        if (quality(mesh.positions, t) >= threshold) continue;
        if (std::any_of(t.begin(), t.end(), [&](Index v) {
              return !topo.on_boundary[static_cast<std::size_t>(v)] || touched[static_cast<std::size_t>(v)];
            })) {
          continue;
        }
        int boundary_faces = 0;
        std::array<bool, 4> face_out{};
        for (int k = 0; k < 4; ++k) {
          face_out[static_cast<std::size_t>(k)] = topo.face_count[tet_face(t, k)] == 1;
          boundary_faces += face_out[static_cast<std::size_t>(k)] ? 1 : 0;
        }
        bool ok = false;
        if (boundary_faces == 2) {
          // Boundary faces opposite local nodes i and j share the edge of the other two nodes; the
          // edge (t[i], t[j]) becomes a surface edge and must not be one already, or the surface
          // would turn non-manifold there.
          int i = -1, j = -1;
          for (int k = 0; k < 4; ++k) {
            if (!face_out[static_cast<std::size_t>(k)]) continue;
            (i < 0 ? i : j) = k;
          }
          const Index a = t[static_cast<std::size_t>(i)], b = t[static_cast<std::size_t>(j)];
          ok = true;
          for (Index f : topo.node_tets[static_cast<std::size_t>(a)]) {
            if (!alive[static_cast<std::size_t>(f)] || static_cast<std::size_t>(f) == e) continue;
            const Tet& other = mesh.tets[static_cast<std::size_t>(f)];
            if (std::find(other.begin(), other.end(), b) == other.end()) continue;
            for (int k = 0; k < 4 && ok; ++k) {
              const Face face = tet_face(other, k);
              const bool has_ab = std::find(face.begin(), face.end(), a) != face.end() &&
                                  std::find(face.begin(), face.end(), b) != face.end();
              if (has_ab && topo.face_count[face] == 1) ok = false;
            }
          }
        } else if (boundary_faces == 3) {
          // The node common to the three boundary faces leaves with the tet: allowed only if this
          // tet is its last one, so that it does not stay behind as a non-manifold point.
          int inner = 0;
          for (int k = 0; k < 4; ++k)
            if (!face_out[static_cast<std::size_t>(k)]) inner = k;
          ok = topo.node_tets[static_cast<std::size_t>(t[static_cast<std::size_t>(inner)])].size() == 1;
        }
        if (!ok) continue;
        alive[e] = 0;
        report.tets_peeled += 1;
        report.peeled_volume += std::abs(signed_volume(mesh.positions[t[0]], mesh.positions[t[1]],
                                                       mesh.positions[t[2]], mesh.positions[t[3]]));
        for (Index v : t) touched[static_cast<std::size_t>(v)] = 1;
        changed = true;
      }
    }
    if (!changed) break;
  }

  // The slid boundary measured once more against the input, as it ended (later slides of neighbours
  // and peeling changed triangles that an earlier slide had checked).
  if (slide) {
    const Topology topo = build_topology(mesh, alive);
    for (std::size_t v = 0; v < slid.size(); ++v) {
      if (!slid[v] || !topo.on_boundary[v]) continue;
      ++report.surface_nodes_moved;
      const auto node = static_cast<Index>(v);
      report.surface_deviation = std::max(
          report.surface_deviation,
          local_deviation(mesh, topo, alive, input, node, boundary_faces_around(mesh, topo, alive, node)));
    }
  }
  report.volume_after = total_volume();

  // Compact: drop peeled tets and the nodes they leave unused.
  std::vector<Index> remap(mesh.positions.size(), -1);
  std::vector<Tet> tets;
  tets.reserve(mesh.tets.size());
  for (std::size_t e = 0; e < mesh.tets.size(); ++e) {
    if (!alive[e]) continue;
    tets.push_back(mesh.tets[e]);
    for (Index v : mesh.tets[e]) remap[static_cast<std::size_t>(v)] = 0;
  }
  std::vector<Vec3> positions;
  positions.reserve(mesh.positions.size());
  for (std::size_t v = 0; v < remap.size(); ++v) {
    if (remap[v] < 0) continue;
    remap[v] = static_cast<Index>(positions.size());
    positions.push_back(mesh.positions[v]);
  }
  report.nodes_dropped = static_cast<Index>(mesh.positions.size() - positions.size());
  for (Tet& t : tets)
    for (Index& v : t) v = remap[static_cast<std::size_t>(v)];
  mesh.positions = std::move(positions);
  mesh.tets = std::move(tets);
  alive.assign(mesh.tets.size(), 1);

  report.slivers_after = count_slivers(&report.min_dihedral_after);
  double least = std::numeric_limits<double>::infinity();
  for (std::size_t e = 0; e < mesh.tets.size(); ++e) {
    const double q = quality(mesh.positions, mesh.tets[e]);
    if (q < least) least = q, report.worst_tet = static_cast<Index>(e);
  }
  if (report.worst_tet >= 0) {
    const Tet& t = mesh.tets[static_cast<std::size_t>(report.worst_tet)];
    report.worst_center = Vec3::Zero();
    for (Index v : t) report.worst_center += 0.25 * mesh.positions[static_cast<std::size_t>(v)];
    const Topology topo = build_topology(mesh, alive);
    for (Index v : t) report.worst_boundary_nodes += topo.on_boundary[static_cast<std::size_t>(v)];
  }
  return report;
}

}  // namespace pliant::meshing
