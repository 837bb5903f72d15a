#include "pliant/models/fem/cut/tet_cut.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace pliant::fem {

namespace {

// The local faces of a tet (corner indices, cyclic).
constexpr int kFace[4][3] = {{1, 2, 3}, {0, 3, 2}, {0, 1, 3}, {0, 2, 1}};
constexpr int kEdge[6][2] = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};

// The cut plane and its outline in the plane's own 2D frame.
struct Plane {
  Vec3 c = Vec3::Zero(), n = Vec3::UnitZ(), e1 = Vec3::UnitX(), e2 = Vec3::UnitY();
  std::array<Eigen::Vector2d, 4> q;  // a0, b0, b1, a1 in the plane frame
  Eigen::Vector2d uv(const Vec3& p) const { return {(p - c).dot(e1), (p - c).dot(e2)}; }
  double phi(const Vec3& p) const { return (p - c).dot(n); }
  bool inside(const Vec3& p) const {
    const Eigen::Vector2d s = uv(p);
    return in_triangle(s, q[0], q[1], q[2]) || in_triangle(s, q[0], q[2], q[3]);
  }
  static double cross2(const Eigen::Vector2d& a, const Eigen::Vector2d& b) {
    return a.x() * b.y() - a.y() * b.x();
  }
  static bool in_triangle(const Eigen::Vector2d& p, const Eigen::Vector2d& a, const Eigen::Vector2d& b,
                          const Eigen::Vector2d& c) {
    const double area = cross2(b - a, c - a);
    if (area == 0.0) return false;
    const double tol = -1e-12 * std::abs(area);
    const double w0 = cross2(b - p, c - p) * (area > 0 ? 1 : -1);
    const double w1 = cross2(c - p, a - p) * (area > 0 ? 1 : -1);
    const double w2 = cross2(a - p, b - p) * (area > 0 ? 1 : -1);
    return w0 >= tol && w1 >= tol && w2 >= tol;
  }
};

// A crossed edge (u < w): edge parameter from u, whether the crossing is inside the outline, and the
// nodes used on the positive and negative sides once created.
struct EdgeCross {
  Index u = -1, w = -1;
  double t = 0.0;
  bool inside = false;
  Index plus = -1, minus = -1;
};

bool edge_less(const EdgeCross& e, Index u, Index w) { return e.u < u || (e.u == u && e.w < w); }

// A vertex of a piece: its node and its weights over the tet's four corners.
struct PieceVertex {
  Index node = -1;
  std::array<double, 4> w = {0, 0, 0, 0};
  bool on_cut = false;
  Index key = -1;    // the node on the positive side: the same for both sides' copies
  bool dup = false;  // whether the two sides use different copies
};

double signed_volume(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
  return (b - a).dot((c - a).cross(d - a)) / 6.0;
}

bool finite(const Vec3& p) { return p.allFinite(); }

std::string str(Index i) { return std::to_string(i); }

}  // namespace

Result<TetCutResult> cut_tets(const TetMesh& rest, std::span<const Vec3> x,
                              std::span<const std::uint8_t> cuttable, std::span<const std::uint8_t> frozen,
                              const TetCutBlade& blade, const TetCutDef& def) {
  const Index N = static_cast<Index>(rest.positions.size());
  const Index T = static_cast<Index>(rest.tets.size());
  if (static_cast<Index>(x.size()) != N)
    return Error{"tet cut: " + std::to_string(x.size()) + " current positions for " + str(N) + " nodes"};
  if (!cuttable.empty() && static_cast<Index>(cuttable.size()) != T)
    return Error{"tet cut: cuttable mask has " + std::to_string(cuttable.size()) + " entries for " + str(T) +
                 " tets"};
  if (!frozen.empty() && static_cast<Index>(frozen.size()) != N)
    return Error{"tet cut: frozen mask has " + std::to_string(frozen.size()) + " entries for " + str(N) +
                 " nodes"};
  if (!(def.snap >= 0.0 && def.snap <= 0.2))
    return Error{"tet cut: snap " + std::to_string(def.snap) + " is outside [0, 0.2]"};
  for (Index t = 0; t < T; ++t) {
    const Tet& tet = rest.tets[t];
    for (int k = 0; k < 4; ++k) {
      if (tet[k] < 0 || tet[k] >= N)
        return Error{"tet cut: tet " + str(t) + " references node " + str(tet[k]) + ", but there are " +
                     str(N) + " nodes"};
      for (int j = 0; j < k; ++j)
        if (tet[j] == tet[k]) return Error{"tet cut: tet " + str(t) + " repeats node " + str(tet[k])};
    }
  }
  for (Index i = 0; i < N; ++i)
    if (!finite(x[i]) || !finite(rest.positions[i]))
      return Error{"tet cut: node " + str(i) + " has a non-finite position"};
  if (!finite(blade.a0) || !finite(blade.b0) || !finite(blade.a1) || !finite(blade.b1))
    return Error{"tet cut: the blade has a non-finite point"};

  Plane plane;
  plane.c = 0.25 * (blade.a0 + blade.b0 + blade.a1 + blade.b1);
  const Vec3 normal = (blade.b1 - blade.a0).cross(blade.a1 - blade.b0);
  double extent = 0.0;
  for (const Vec3* p : {&blade.a0, &blade.b0, &blade.a1, &blade.b1})
    extent = std::max(extent, (*p - plane.c).norm());
  if (!(0.5 * normal.norm() > 1e-12 * extent * extent) || extent == 0.0)
    return Error{"tet cut: the blade's sweep has zero area"};
  plane.n = normal.normalized();
  plane.e1 = (std::abs(plane.n.x()) < 0.9 ? Vec3::UnitX() : Vec3::UnitY()).cross(plane.n).normalized();
  plane.e2 = plane.n.cross(plane.e1);
  plane.q = {plane.uv(blade.a0), plane.uv(blade.b0), plane.uv(blade.b1), plane.uv(blade.a1)};

  TetCutResult out;
  out.first_new_node = N;
  const auto is_cuttable = [&](Index t) { return cuttable.empty() || cuttable[t] != 0; };
  const auto is_frozen = [&](Index v) { return !frozen.empty() && frozen[v] != 0; };

  std::vector<double> phi(N);
  for (Index i = 0; i < N; ++i) phi[i] = plane.phi(x[i]);
  const auto neg = [&](Index v) { return phi[v] < 0.0; };

  // Candidate tets: cuttable, with nodes on both sides of the plane.
  std::vector<Index> candidates;
  std::vector<EdgeCross> edges;
  for (Index t = 0; t < T; ++t) {
    if (!is_cuttable(t)) continue;
    const Tet& tet = rest.tets[t];
    const int n_neg = neg(tet[0]) + neg(tet[1]) + neg(tet[2]) + neg(tet[3]);
    if (n_neg == 0 || n_neg == 4) continue;
    candidates.push_back(t);
    for (const auto& e : kEdge) {
      Index u = tet[e[0]], w = tet[e[1]];
      if (neg(u) == neg(w)) continue;
      if (u > w) std::swap(u, w);
      edges.push_back({u, w});
    }
  }
  if (candidates.empty()) return out;
  std::sort(edges.begin(), edges.end(),
            [](const EdgeCross& a, const EdgeCross& b) { return edge_less(a, b.u, b.w); });
  edges.erase(std::unique(edges.begin(), edges.end(),
                          [](const EdgeCross& a, const EdgeCross& b) { return a.u == b.u && a.w == b.w; }),
              edges.end());
  for (EdgeCross& e : edges) {
    e.t = phi[e.u] / (phi[e.u] - phi[e.w]);
    e.inside = plane.inside(x[e.u] + e.t * (x[e.w] - x[e.u]));
  }
  const auto find_edge = [&](Index u, Index w) -> EdgeCross* {
    if (u > w) std::swap(u, w);
    auto it = std::lower_bound(edges.begin(), edges.end(), 0,
                               [&](const EdgeCross& e, int) { return edge_less(e, u, w); });
    return (it != edges.end() && it->u == u && it->w == w) ? &*it : nullptr;
  };
  const auto crossed = [&](Index u, Index w) {
    const EdgeCross* e = find_edge(u, w);
    return e != nullptr && e->inside;
  };

  if (def.mode == TetCutMode::remove) {
    for (Index t : candidates) {
      const Tet& tet = rest.tets[t];
      bool hit = false;
      for (const auto& e : kEdge) hit = hit || crossed(tet[e[0]], tet[e[1]]);
      if (hit) out.removed_tets.push_back(t);
    }
    out.tets_removed = static_cast<Index>(out.removed_tets.size());
    return out;
  }

  // Node -> tets (all tets, for the "every tet around" rules).
  std::vector<Index> nt_offset(N + 1, 0), nt_tets(4 * static_cast<std::size_t>(T));
  for (const Tet& tet : rest.tets)
    for (Index v : tet) ++nt_offset[v + 1];
  for (Index i = 0; i < N; ++i) nt_offset[i + 1] += nt_offset[i];
  {
    std::vector<Index> fill(nt_offset.begin(), nt_offset.end() - 1);
    for (Index t = 0; t < T; ++t)
      for (Index v : rest.tets[t]) nt_tets[fill[v]++] = t;
  }
  const auto tets_of = [&](Index v) {
    return std::span<const Index>(nt_tets.data() + nt_offset[v], nt_tets.data() + nt_offset[v + 1]);
  };
  const auto has_node = [&](Index t, Index v) {
    const Tet& tet = rest.tets[t];
    return tet[0] == v || tet[1] == v || tet[2] == v || tet[3] == v;
  };

  // Snapping: nodes that may go onto the cut are unfrozen with every tet around them cuttable.
  std::vector<std::uint8_t> zero(N, 0);
  const auto snappable = [&](Index v) {
    if (is_frozen(v)) return false;
    for (Index t : tets_of(v))
      if (!is_cuttable(t)) return false;
    return true;
  };
  const double snap = def.snap;
  const auto label = [&](Index v) { return zero[v] ? 0 : (phi[v] < 0.0 ? -1 : 1); };
  const auto mixed = [&](Index t) {
    bool p = false, m = false;
    for (Index v : rest.tets[t]) {
      p = p || label(v) > 0;
      m = m || label(v) < 0;
    }
    return p && m;
  };
  std::vector<std::uint8_t> state(T, 0);  // 1 split, 2 refined, 3 relinked
  const auto around_edge_all = [&](Index u, Index w, auto&& pred) {
    for (Index t : tets_of(u))
      if (has_node(t, w) && !pred(t)) return false;
    return true;
  };
  // Snap, then split: mixed tets with every sign-changing edge crossed inside the outline and every
  // tet around those edges cuttable, unless demoted below (the demoted set only grows, so this ends).
  std::vector<std::uint8_t> demoted(T, 0), no_dup(N, 0);
  // Whether a node on the cut is duplicated: every tet around it split or on one side, both sides
  // present, and not kept whole by the rule at the end of the loop below.
  // 0: duplicated, 1: tets of one side only (left as is), 2: kept whole between the two sides.
  const auto zero_status = [&](Index v) {
    bool ok = true, plus_side = false, minus_side = false;
    for (Index t : tets_of(v)) {
      ok = ok && (state[t] == 1 || !mixed(t));
      for (Index u : rest.tets[t]) {
        plus_side = plus_side || state[t] == 1 || label(u) > 0;
        minus_side = minus_side || state[t] == 1 || label(u) < 0;
      }
    }
    if (!plus_side || !minus_side) return 1;
    return ok && !no_dup[v] ? 0 : 2;
  };
  const auto zero_splits = [&](Index v) { return zero_status(v) == 0; };
  for (bool again = true; again;) {
    std::fill(zero.begin(), zero.end(), 0);
    if (snap > 0.0) {
      for (const EdgeCross& e : edges) {
        if (!e.inside) continue;
        if (e.t < snap && snappable(e.u))
          zero[e.u] = 1;
        else if (e.t > 1.0 - snap && snappable(e.w))
          zero[e.w] = 1;
      }
    }
    for (Index t : candidates) {
      state[t] = 0;
      if (!mixed(t)) continue;
      const Tet& tet = rest.tets[t];
      bool ok = true;
      for (const auto& e : kEdge) {
        const Index u = tet[e[0]], w = tet[e[1]];
        if (label(u) * label(w) != -1) continue;
        ok = ok && crossed(u, w) && around_edge_all(u, w, is_cuttable);
      }
      if (ok && !demoted[t]) state[t] = 1;
    }
    again = false;
    // A split tet's face whose cut edge joins two points that stay shared (crossing points with a tet
    // around their edge that is not split, nodes on the cut that are not duplicated), with a split
    // tet or the body's surface across it, would leave the sides touching along that edge (a
    // non-manifold boundary): the split tet with the larger index is left unsplit and the
    // classification repeated.
    const auto all_split = [&](Index t) { return state[t] == 1; };
    for (Index t : candidates) {
      if (state[t] != 1) continue;
      const Tet& tet = rest.tets[t];
      // The same for a tet edge on the cut (both ends on it, neither duplicated) with the cut
      // opening on two sides of it: one split tet around it at most.
      for (const auto& e : kEdge) {
        const Index u = tet[e[0]], w = tet[e[1]];
        if (label(u) != 0 || label(w) != 0 || zero_splits(u) || zero_splits(w)) continue;
        for (Index o : tets_of(u))
          if (o != t && state[o] == 1 && has_node(o, w)) {
            demoted[std::max(o, t)] = 1;
            again = true;
          }
        // On the body's surface the cut would open the surface along the edge the same way.
        bool surface = false;
        for (Index o : tets_of(u)) {
          if (!has_node(o, w)) continue;
          for (Index y : rest.tets[o]) {
            if (y == u || y == w) continue;
            int sharing = 0;  // tets with the face (u, w, y)
            for (Index q : tets_of(u)) sharing += has_node(q, w) && has_node(q, y);
            surface = surface || sharing == 1;
          }
        }
        if (surface) {
          demoted[t] = 1;
          again = true;
        }
      }
      for (const auto& f : kFace) {
        int on_cut = 0, pinned = 0;
        for (int i = 0; i < 3; ++i) {
          const Index u = tet[f[i]], w = tet[f[(i + 1) % 3]];
          if (label(u) == 0) {
            ++on_cut;
            pinned += !zero_splits(u);
          }
          if (label(u) * label(w) != -1) continue;
          ++on_cut;
          pinned += !around_edge_all(u, w, all_split);
        }
        if (on_cut != 2 || pinned != 2) continue;
        Index other = -1;
        for (Index o : tets_of(tet[f[0]]))
          if (o != t && has_node(o, tet[f[1]]) && has_node(o, tet[f[2]])) other = o;
        if (other >= 0 && state[other] != 1) continue;  // the cut ends at this face: a front edge
        demoted[std::max(other, t)] = 1;                // a split neighbour, or the body's surface
        again = true;
      }
    }
    if (again) continue;
    // A face lying on the cut (three nodes on it, between the two sides) with two of its nodes kept
    // whole would open around the third and leave the sides touching along the edge of the two:
    // the third is kept whole too.
    for (const EdgeCross& e : edges)
      for (Index v : {e.u, e.w}) {
        if (!zero[v] || !zero_splits(v)) continue;
        for (Index t : tets_of(v)) {
          if (mixed(t)) continue;
          const Tet& tet = rest.tets[t];
          int zeros = 0, whole = 0;
          for (Index u : tet)
            if (u != v && label(u) == 0) {
              ++zeros;
              whole += zero_status(u) == 2;
            }
          if (zeros == 2 && whole == 2) {
            no_dup[v] = 1;
            again = true;
            break;
          }
        }
      }
  }

  // New nodes: crossing points of the split tets' sign-changing edges (in edge order), duplicated
  // when every tet around the edge is split.
  std::vector<Vec3> new_rest;
  const auto add_node = [&](const TetCutNode& node) {
    Vec3 p = Vec3::Zero();
    for (int k = 0; k < 4; ++k)
      if (node.parent[k] >= 0) p += node.weight[k] * rest.positions[node.parent[k]];
    out.new_nodes.push_back(node);
    new_rest.push_back(p);
    return N + static_cast<Index>(out.new_nodes.size()) - 1;
  };
  const auto is_split = [&](Index t) { return state[t] == 1; };
  for (EdgeCross& e : edges) {
    if (!e.inside || label(e.u) * label(e.w) != -1) continue;
    bool used = false;
    for (Index t : tets_of(e.u)) used = used || (state[t] == 1 && has_node(t, e.w));
    if (!used) continue;
    TetCutNode node;
    node.parent = {e.u, e.w, -1, -1};
    node.weight = {1.0 - e.t, e.t, 0.0, 0.0};
    e.plus = add_node(node);
    e.minus = around_edge_all(e.u, e.w, is_split) ? add_node(node) : e.plus;
  }
  // Nodes on the cut: duplicated when every tet around is split or on one side, and both sides
  // have tets there (a node already on the boundary of one side, e.g. a copy made by an earlier cut,
  // stays as it is).
  std::vector<Index> minus_copy;  // indexed by node, allocated only when a node is on the cut
  for (Index v = 0; v < N; ++v) {
    if (!zero[v] || !zero_splits(v)) continue;
    if (minus_copy.empty()) minus_copy.assign(N, -1);
    TetCutNode node;
    node.parent = {v, -1, -1, -1};
    node.weight = {1.0, 0.0, 0.0, 0.0};
    minus_copy[v] = add_node(node);
  }
  const auto copy_for = [&](Index v, int side) {
    return (side < 0 && !minus_copy.empty() && minus_copy[v] >= 0) ? minus_copy[v] : v;
  };

  // Refined tets: not split, touching a created crossing point. Relinked: on the negative side with
  // a duplicated node on the cut.
  for (const EdgeCross& e : edges) {
    if (e.plus < 0) continue;
    for (Index t : tets_of(e.u))
      if (state[t] == 0 && has_node(t, e.w)) state[t] = 2;
  }
  if (!minus_copy.empty()) {
    for (Index v = 0; v < N; ++v) {
      if (minus_copy[v] < 0) continue;
      for (Index t : tets_of(v)) {
        if (state[t] != 0) continue;
        bool p = false, m = false;
        for (Index u : rest.tets[t]) {
          p = p || label(u) > 0;
          m = m || label(u) < 0;
        }
        if (m && !p) state[t] = 3;
      }
    }
  }

  // Emission, tet by tet in index order.
  const auto node_rest = [&](Index i) -> const Vec3& { return i < N ? rest.positions[i] : new_rest[i - N]; };
  const auto emit = [&](Tet tet, Index parent) {
    if (signed_volume(node_rest(tet[0]), node_rest(tet[1]), node_rest(tet[2]), node_rest(tet[3])) < 0.0)
      std::swap(tet[2], tet[3]);
    out.new_tets.push_back(tet);
    out.new_tet_parent.push_back(parent);
  };
  const auto centroid_node = [&](const Tet& tet, std::span<const PieceVertex> verts) {
    TetCutNode node;
    for (int k = 0; k < 4; ++k) {
      double w = 0.0;
      for (const PieceVertex& p : verts) w += p.w[k];
      node.parent[k] = tet[k];
      node.weight[k] = w / static_cast<double>(verts.size());
    }
    return add_node(node);
  };
  const auto orient_away = [&](Tri tri, const Vec3& from) {
    const Vec3 &a = node_rest(tri[0]), &b = node_rest(tri[1]), &c = node_rest(tri[2]);
    if ((b - a).cross(c - a).dot(a - from) < 0.0) std::swap(tri[1], tri[2]);
    return tri;
  };

  std::vector<PieceVertex> poly, piece, cut_poly;
  std::vector<Tri> faces, cut_tris;
  std::vector<std::pair<double, Index>> ang;
  // Triangulates a face polygon canonically: a triangle as is; a polygon with corners and edge
  // points fanned from the corner chosen by the rule in the header.
  const auto triangulate_face = [&](std::span<const PieceVertex> p, std::span<const Index> original,
                                    auto& sink) {
    const int n = static_cast<int>(p.size());
    if (n < 3) return;
    int apex = -1;
    if (n == 3)
      apex = 0;
    else if (n == 4) {
      // Two corners: fan from the one with the smaller original index; one corner (a single split
      // edge): fan from it.
      for (int i = 0; i < n; ++i)
        if (original[i] >= 0 && (apex < 0 || original[i] < original[apex])) apex = i;
      int corners = 0;
      for (int i = 0; i < n; ++i) corners += original[i] >= 0;
      if (corners == 3) {  // one split edge: fan from the corner opposite it
        for (int i = 0; i < n; ++i)
          if (original[i] >= 0 && original[(i + 1) % n] >= 0 && original[(i + n - 1) % n] >= 0) apex = i;
      }
    } else {
      // Five: corner z between the two edge points, then the quad (z+1, a, b, z+4) fanned from its
      // corner with the smaller index.
      int z = 0;
      for (int i = 0; i < n; ++i)
        if (original[i] >= 0 && original[(i + 1) % n] < 0 && original[(i + n - 1) % n] < 0) z = i;
      const int q = (z + 1) % n, a = (z + 2) % n, b = (z + 3) % n, r = (z + 4) % n;
      sink(Tri{p[r].node, p[z].node, p[q].node});
      if (original[a] < original[b]) {
        sink(Tri{p[a].node, p[b].node, p[r].node});
        sink(Tri{p[a].node, p[r].node, p[q].node});
      } else {
        sink(Tri{p[b].node, p[r].node, p[q].node});
        sink(Tri{p[b].node, p[q].node, p[a].node});
      }
      return;
    }
    for (int i = 1; i + 1 < n; ++i)
      sink(Tri{p[apex].node, p[(apex + i) % n].node, p[(apex + i + 1) % n].node});
  };

  std::vector<Index> original;
  for (Index t = 0; t < T; ++t) {
    if (state[t] == 0) continue;
    const Tet& tet = rest.tets[t];
    out.removed_tets.push_back(t);
    if (state[t] == 3) {
      const Tet moved{copy_for(tet[0], -1), copy_for(tet[1], -1), copy_for(tet[2], -1), copy_for(tet[3], -1)};
      emit(moved, t);
      ++out.tets_relinked;
      // A face lying wholly on the cut, against a tet of the positive side, opens: both of its
      // sides are new boundary faces.
      for (const auto& f : kFace) {
        const Index f0 = tet[f[0]], f1 = tet[f[1]], f2 = tet[f[2]];
        if (moved[f[0]] == f0 || moved[f[1]] == f1 || moved[f[2]] == f2) continue;
        Index other = -1;
        for (Index o : tets_of(f0))
          if (o != t && has_node(o, f1) && has_node(o, f2)) other = o;
        if (other < 0 || state[other] == 3) continue;
        const auto centre = [&](const Tet& q) {
          return 0.25 * (node_rest(q[0]) + node_rest(q[1]) + node_rest(q[2]) + node_rest(q[3]));
        };
        out.cut_faces.push_back(orient_away(Tri{moved[f[0]], moved[f[1]], moved[f[2]]}, centre(moved)));
        out.cut_faces.push_back(orient_away(Tri{f0, f1, f2}, centre(rest.tets[other])));
      }
      continue;
    }
    int lab[4];
    for (int k = 0; k < 4; ++k) lab[k] = label(tet[k]);
    const auto edge_point = [&](int k0, int k1, int side) -> PieceVertex {
      const EdgeCross* e = find_edge(tet[k0], tet[k1]);
      PieceVertex pv;
      pv.node = side > 0 ? e->plus : e->minus;
      const double tk1 = tet[k0] == e->u ? e->t : 1.0 - e->t;  // parameter from k0 towards k1
      pv.w[k0] = 1.0 - tk1;
      pv.w[k1] = tk1;
      pv.on_cut = true;
      pv.key = e->plus;
      pv.dup = e->minus != e->plus;
      return pv;
    };
    const auto corner = [&](int k, int side) {
      PieceVertex pv;
      pv.node = copy_for(tet[k], side);
      pv.w[k] = 1.0;
      pv.on_cut = lab[k] == 0;
      pv.key = tet[k];
      pv.dup = copy_for(tet[k], -1) != tet[k];
      return pv;
    };
    if (state[t] == 2) {
      // Refined: star from the tet's centroid over the canonically subdivided faces.
      PieceVertex all[4] = {corner(0, 1), corner(1, 1), corner(2, 1), corner(3, 1)};
      const Index c = centroid_node(tet, all);
      for (const auto& f : kFace) {
        poly.clear();
        original.clear();
        for (int i = 0; i < 3; ++i) {
          const int k0 = f[i], k1 = f[(i + 1) % 3];
          poly.push_back(corner(k0, 1));
          original.push_back(tet[k0]);
          const EdgeCross* e = find_edge(tet[k0], tet[k1]);
          if (e != nullptr && e->plus >= 0) {
            poly.push_back(edge_point(k0, k1, 1));
            original.push_back(-1);
          }
        }
        auto sink = [&](const Tri& tri) { emit(Tet{c, tri[0], tri[1], tri[2]}, t); };
        triangulate_face(poly, original, sink);
      }
      ++out.tets_refined;
      continue;
    }
    // Split: one convex piece per side.
    for (int side : {1, -1}) {
      faces.clear();
      piece.clear();
      cut_poly.clear();
      const auto add_piece_vertex = [&](const PieceVertex& pv) {
        for (const PieceVertex& q : piece)
          if (q.node == pv.node) return;
        piece.push_back(pv);
        if (pv.on_cut) cut_poly.push_back(pv);
      };
      for (const auto& f : kFace) {
        poly.clear();
        original.clear();
        for (int i = 0; i < 3; ++i) {
          const int k0 = f[i], k1 = f[(i + 1) % 3];
          if (lab[k0] == side || lab[k0] == 0) {
            poly.push_back(corner(k0, side));
            original.push_back(tet[k0]);
          }
          if (lab[k0] * lab[k1] == -1) {
            poly.push_back(edge_point(k0, k1, side));
            original.push_back(-1);
          }
        }
        for (const PieceVertex& pv : poly) add_piece_vertex(pv);
        auto sink = [&](const Tri& tri) { faces.push_back(tri); };
        triangulate_face(poly, original, sink);
      }
      // The cut polygon, ordered by angle in the plane (current positions).
      Vec3 g = Vec3::Zero();
      const auto current = [&](const PieceVertex& pv) {
        Vec3 p = Vec3::Zero();
        for (int k = 0; k < 4; ++k) p += pv.w[k] * x[tet[k]];
        return p;
      };
      for (const PieceVertex& pv : cut_poly) g += current(pv);
      g /= static_cast<double>(cut_poly.size());
      // Fanned from the vertex with the smallest key, so both sides (and any frame) agree.
      ang.clear();
      for (std::size_t i = 0; i < cut_poly.size(); ++i) {
        const Vec3 d = current(cut_poly[i]) - g;
        ang.emplace_back(std::atan2(d.dot(plane.e2), d.dot(plane.e1)), static_cast<Index>(i));
      }
      std::sort(ang.begin(), ang.end());
      std::size_t first = 0;
      for (std::size_t i = 1; i < ang.size(); ++i)
        if (cut_poly[ang[i].second].key < cut_poly[ang[first].second].key) first = i;
      // A quadrilateral is not split along a diagonal whose ends both stay shared by the two sides
      // while the other diagonal has a duplicated end: the sides would touch along it.
      if (ang.size() == 4 && !cut_poly[ang[first].second].dup && !cut_poly[ang[(first + 2) % 4].second].dup &&
          (cut_poly[ang[(first + 1) % 4].second].dup || cut_poly[ang[(first + 3) % 4].second].dup))
        first = (first + 1) % 4;
      std::rotate(ang.begin(), ang.begin() + static_cast<std::ptrdiff_t>(first), ang.end());
      Vec3 piece_rest = Vec3::Zero();
      for (const PieceVertex& pv : piece) piece_rest += node_rest(pv.node);
      piece_rest /= static_cast<double>(piece.size());
      cut_tris.clear();
      for (std::size_t i = 1; i + 1 < ang.size(); ++i) {
        const PieceVertex &p0 = cut_poly[ang[0].second], &p1 = cut_poly[ang[i].second],
                          &p2 = cut_poly[ang[i + 1].second];
        const Tri tri = orient_away(Tri{p0.node, p1.node, p2.node}, piece_rest);
        cut_tris.push_back(tri);
        // A triangle whose corners are all shared by the two sides is an inner face (the crack is
        // pinned there), not a new boundary face.
        if (p0.dup || p1.dup || p2.dup) out.cut_faces.push_back(tri);
      }
      if (piece.size() == 4) {
        emit(Tet{piece[0].node, piece[1].node, piece[2].node, piece[3].node}, t);
      } else {
        // Coned from its corner off the cut with the smallest index, v: every face of the piece through v
        // is a triangle or a quadrilateral of two such corners, fanned from the smaller (triangulate_face),
        // so the tets (v, each face triangle not through v) fill the convex piece and meet the face
        // triangulations exactly, with no new node (a prism: 3 tets, not a centroid's 8; Dompierre,
        // Labbé, Vallet & Camarero 1999).
        int apex = -1;
        for (int k = 0; k < 4; ++k)
          if (lab[k] == side && (apex < 0 || tet[k] < tet[apex])) apex = k;
        const Index v = corner(apex, side).node;
        for (const std::vector<Tri>* list : {&faces, &cut_tris})
          for (const Tri& tri : *list)
            if (tri[0] != v && tri[1] != v && tri[2] != v) emit(Tet{v, tri[0], tri[1], tri[2]}, t);
      }
    }
    ++out.tets_split;
  }
  out.nodes_added = static_cast<Index>(out.new_nodes.size());
  return out;
}

void interpolate_new_nodes(const TetCutResult& cut, std::vector<Vec3>& values) {
  const std::size_t base = values.size();
  values.reserve(base + cut.new_nodes.size());
  for (std::size_t i = 0; i < cut.new_nodes.size(); ++i) {
    const TetCutNode& node = cut.new_nodes[i];
    Vec3 p = Vec3::Zero();
    for (int k = 0; k < 4; ++k)
      if (node.parent[k] >= 0) p += node.weight[k] * values[node.parent[k]];
    values.push_back(p);
  }
}

std::vector<Index> apply_tet_cut(const TetCutResult& cut, TetMesh& mesh, std::vector<Vec3>& x,
                                 std::vector<Vec3>& v) {
  interpolate_new_nodes(cut, mesh.positions);
  if (!x.empty()) interpolate_new_nodes(cut, x);
  if (!v.empty()) interpolate_new_nodes(cut, v);
  std::vector<Index> map(mesh.tets.size(), -1);
  std::size_t r = 0, kept = 0;
  for (std::size_t t = 0; t < mesh.tets.size(); ++t) {
    if (r < cut.removed_tets.size() && cut.removed_tets[r] == static_cast<Index>(t)) {
      ++r;
      continue;
    }
    map[t] = static_cast<Index>(kept);
    mesh.tets[kept++] = mesh.tets[t];
  }
  mesh.tets.resize(kept);
  mesh.tets.insert(mesh.tets.end(), cut.new_tets.begin(), cut.new_tets.end());
  return map;
}

}  // namespace pliant::fem
