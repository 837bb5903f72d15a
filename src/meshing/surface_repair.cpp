#include "pliant/meshing/surface_repair.hpp"

#include "pliant/core/self_intersection.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <map>
#include <numeric>
#include <set>
#include <tuple>
#include <unordered_map>
#include <utility>

namespace pliant::meshing {

namespace {

using DirectedEdge = std::pair<Index, Index>;

std::string plural(Index n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

std::string num(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.4g", v);
  return buffer;
}

Index find_root(std::vector<Index>& parent, Index i) {
  while (parent[static_cast<std::size_t>(i)] != i) {
    parent[static_cast<std::size_t>(i)] =
        parent[static_cast<std::size_t>(parent[static_cast<std::size_t>(i)])];
    i = parent[static_cast<std::size_t>(i)];
  }
  return i;
}

// Welds nodes within `tolerance` (m) of an earlier node, by a hash grid of cell `tolerance`: a node's
// match can only be in its own or the 26 surrounding cells. Returns the number merged.
Index weld(TriMesh& mesh, double tolerance) {
  const std::size_t n = mesh.positions.size();
  std::vector<Index> remap(n);
  std::vector<Vec3> kept;
  Index merged = 0;
  if (tolerance <= 0) {
    std::map<std::array<double, 3>, Index> first;
    for (std::size_t i = 0; i < n; ++i) {
      const Vec3& p = mesh.positions[i];
      const auto [it, inserted] =
          first.try_emplace({p.x() == 0 ? 0.0 : p.x(), p.y() == 0 ? 0.0 : p.y(), p.z() == 0 ? 0.0 : p.z()},
                            static_cast<Index>(kept.size()));
      if (inserted)
        kept.push_back(p);
      else
        ++merged;
      remap[i] = it->second;
    }
  } else {
    struct CellHash {
      std::size_t operator()(const std::array<std::int64_t, 3>& c) const {
        return static_cast<std::size_t>(c[0] * 73856093LL ^ c[1] * 19349663LL ^ c[2] * 83492791LL);
      }
    };
    std::unordered_map<std::array<std::int64_t, 3>, std::vector<Index>, CellHash> grid;
    grid.reserve(n);
    const auto cell = [&](const Vec3& p) {
      return std::array<std::int64_t, 3>{static_cast<std::int64_t>(std::floor(p.x() / tolerance)),
                                         static_cast<std::int64_t>(std::floor(p.y() / tolerance)),
                                         static_cast<std::int64_t>(std::floor(p.z() / tolerance))};
    };
    for (std::size_t i = 0; i < n; ++i) {
      const Vec3& p = mesh.positions[i];
      const auto c = cell(p);
      Index match = -1;
      for (int dx = -1; dx <= 1 && match < 0; ++dx) {
        for (int dy = -1; dy <= 1 && match < 0; ++dy) {
          for (int dz = -1; dz <= 1 && match < 0; ++dz) {
            const auto it = grid.find({c[0] + dx, c[1] + dy, c[2] + dz});
            if (it == grid.end()) continue;
            for (Index k : it->second) {
              if ((kept[static_cast<std::size_t>(k)] - p).norm() <= tolerance) {
                match = k;
                break;
              }
            }
          }
        }
      }
      if (match < 0) {
        match = static_cast<Index>(kept.size());
        kept.push_back(p);
        grid[c].push_back(match);
      } else {
        ++merged;
      }
      remap[i] = match;
    }
  }
  for (Tri& t : mesh.triangles)
    for (Index& v : t) v = remap[static_cast<std::size_t>(v)];
  mesh.positions = std::move(kept);
  return merged;
}

bool zero_area(const TriMesh& mesh, const Tri& t) {
  const Vec3 &a = mesh.positions[static_cast<std::size_t>(t[0])],
             &b = mesh.positions[static_cast<std::size_t>(t[1])],
             &c = mesh.positions[static_cast<std::size_t>(t[2])];
  const double longest = std::max({(b - a).squaredNorm(), (c - b).squaredNorm(), (a - c).squaredNorm()});
  // The threshold check_closed_surface uses, so that what it would refuse is what is repaired here.
  return 0.5 * (b - a).cross(c - a).norm() <= 1e-12 * longest;
}

// Removes triangles with a repeated node. A flat triangle with three distinct nodes has one corner on
// its longest edge: it is removed and the neighbour across that edge is split at the corner, which
// keeps the surface closed (a plain removal would leave a three-edge hole that only the same flat
// triangle fills).
Index remove_degenerate(TriMesh& mesh) {
  Index removed = 0;
  std::vector<char> dead(mesh.triangles.size(), 0);
  for (std::size_t t = 0; t < mesh.triangles.size(); ++t) {
    const Tri& tri = mesh.triangles[t];
    if (tri[0] == tri[1] || tri[1] == tri[2] || tri[0] == tri[2]) dead[t] = 1, ++removed;
  }
  // Each pass splits the neighbours of flat triangles whose neighbour is untouched so far in the
  // pass; a flat triangle next to one just changed waits for the next pass's fresh edge map.
  for (int pass = 0; pass < 8; ++pass) {
    std::map<DirectedEdge, std::vector<std::size_t>> owner;
    for (std::size_t t = 0; t < mesh.triangles.size(); ++t) {
      if (dead[t]) continue;
      const Tri& tri = mesh.triangles[t];
      for (int k = 0; k < 3; ++k)
        owner[{tri[static_cast<std::size_t>(k)], tri[static_cast<std::size_t>((k + 1) % 3)]}].push_back(t);
    }
    std::vector<char> changed(mesh.triangles.size(), 0);
    bool waiting = false;
    const std::size_t count = mesh.triangles.size();
    for (std::size_t t = 0; t < count; ++t) {
      if (dead[t] || changed[t] || !zero_area(mesh, mesh.triangles[t])) continue;
      const Tri tri = mesh.triangles[t];
      // Longest edge a->b and the corner c on it.
      int k_best = 0;
      double longest = -1;
      for (int k = 0; k < 3; ++k) {
        const double l =
            (mesh.positions[static_cast<std::size_t>(tri[static_cast<std::size_t>((k + 1) % 3)])] -
             mesh.positions[static_cast<std::size_t>(tri[static_cast<std::size_t>(k)])])
                .squaredNorm();
        if (l > longest) longest = l, k_best = k;
      }
      const Index a = tri[static_cast<std::size_t>(k_best)],
                  b = tri[static_cast<std::size_t>((k_best + 1) % 3)],
                  c = tri[static_cast<std::size_t>((k_best + 2) % 3)];
      const auto it = owner.find({b, a});
      std::size_t n = 0;
      Index x = -1;
      if (it != owner.end() && it->second.size() == 1) {
        n = it->second.front();
        if (n < changed.size() && changed[n]) {
          waiting = true;
          continue;
        }
        for (Index v : mesh.triangles[n])
          if (v != a && v != b) x = v;
      }
      dead[t] = 1;
      ++removed;
      if (x < 0 || x == c || dead[n]) continue;  // no single neighbour to split: a hole for fill_holes
      dead[n] = 1;
      changed[n] = 1;
      mesh.triangles.push_back({b, c, x});
      mesh.triangles.push_back({c, a, x});
      dead.push_back(0);
      dead.push_back(0);
    }
    if (!waiting) break;
  }
  std::vector<Tri> kept;
  kept.reserve(mesh.triangles.size());
  for (std::size_t t = 0; t < mesh.triangles.size(); ++t)
    if (!dead[t]) kept.push_back(mesh.triangles[t]);
  mesh.triangles = std::move(kept);
  return removed;
}

Index remove_duplicates(TriMesh& mesh) {
  std::set<std::array<Index, 3>> seen;
  std::vector<Tri> kept;
  kept.reserve(mesh.triangles.size());
  for (const Tri& t : mesh.triangles) {
    std::array<Index, 3> key{t[0], t[1], t[2]};
    std::sort(key.begin(), key.end());
    if (seen.insert(key).second) kept.push_back(t);
  }
  const auto removed = static_cast<Index>(mesh.triangles.size() - kept.size());
  mesh.triangles = std::move(kept);
  return removed;
}

double signed_volume_of(const TriMesh& mesh, const std::vector<std::size_t>& triangles) {
  double v = 0;
  for (std::size_t t : triangles) {
    const Tri& tri = mesh.triangles[t];
    v += mesh.positions[static_cast<std::size_t>(tri[0])].dot(
             mesh.positions[static_cast<std::size_t>(tri[1])].cross(
                 mesh.positions[static_cast<std::size_t>(tri[2])])) /
         6.0;
  }
  return v;
}

// Edge-connected pieces; keeps the one enclosing the largest volume. Returns the piece count.
Index keep_largest_piece(TriMesh& mesh, Index* dropped, double* dropped_volume) {
  const auto count = static_cast<Index>(mesh.triangles.size());
  std::vector<Index> parent(static_cast<std::size_t>(count));
  std::iota(parent.begin(), parent.end(), 0);
  std::map<std::pair<Index, Index>, Index> first_owner;
  for (Index t = 0; t < count; ++t) {
    const Tri& tri = mesh.triangles[static_cast<std::size_t>(t)];
    for (int k = 0; k < 3; ++k) {
      const Index u = tri[static_cast<std::size_t>(k)], v = tri[static_cast<std::size_t>((k + 1) % 3)];
      const auto [it, inserted] = first_owner.try_emplace({std::min(u, v), std::max(u, v)}, t);
      if (!inserted) parent[static_cast<std::size_t>(find_root(parent, t))] = find_root(parent, it->second);
    }
  }
  std::map<Index, std::vector<std::size_t>> pieces;
  for (Index t = 0; t < count; ++t) pieces[find_root(parent, t)].push_back(static_cast<std::size_t>(t));
  if (pieces.size() <= 1) return static_cast<Index>(pieces.size());
  double best = -1;
  Index best_root = -1;
  double total = 0;
  for (const auto& [root, triangles] : pieces) {
    const double v = std::abs(signed_volume_of(mesh, triangles));
    total += v;
    if (v > best) best = v, best_root = root;
  }
  std::vector<Tri> kept;
  for (std::size_t t : pieces[best_root]) kept.push_back(mesh.triangles[t]);
  mesh.triangles = std::move(kept);
  *dropped = static_cast<Index>(pieces.size() - 1);
  *dropped_volume = total - best;
  return static_cast<Index>(pieces.size());
}

// Traces the boundary loops (edges used once) and fills those with at most `max_edges` edges, or with
// at most `max_marked_edges` when a loop passes through a node in `marked`. Loops of three edges get
// one triangle; longer ones a fan around a new node at the loop's centroid. New triangles traverse each
// boundary edge against its one triangle, so they wind like their neighbours. Returns {loops, triangles}.
std::pair<Index, Index> fill_holes(TriMesh& mesh, Index max_edges, const std::vector<char>& marked,
                                   Index max_marked_edges) {
  std::map<DirectedEdge, int> directed;
  for (const Tri& t : mesh.triangles)
    for (int k = 0; k < 3; ++k)
      ++directed[{t[static_cast<std::size_t>(k)], t[static_cast<std::size_t>((k + 1) % 3)]}];
  // A hole's half-edge u->v is the reverse of a triangle edge v->u that has no partner u->v.
  std::multimap<Index, Index> next;  // from -> to
  for (const auto& [edge, n] : directed) {
    if (directed.count({edge.second, edge.first}) == 0) next.emplace(edge.second, edge.first);
  }
  Index loops = 0, added = 0;
  while (!next.empty()) {
    auto it = next.begin();
    std::vector<Index> loop{it->first};
    Index at = it->second;
    next.erase(it);
    bool closed = false;
    while (loop.size() <= 100000) {
      if (at == loop.front()) {
        closed = true;
        break;
      }
      loop.push_back(at);
      const auto step = next.find(at);
      if (step == next.end()) break;
      at = step->second;
      next.erase(step);
    }
    if (!closed) continue;
    const auto edges = static_cast<Index>(loop.size());
    const bool touches_marked = std::any_of(loop.begin(), loop.end(), [&](Index v) {
      return static_cast<std::size_t>(v) < marked.size() && marked[static_cast<std::size_t>(v)];
    });
    if (edges < 3 || edges > (touches_marked ? max_marked_edges : max_edges)) continue;
    ++loops;
    if (edges == 3) {
      mesh.triangles.push_back({loop[0], loop[1], loop[2]});
      ++added;
      continue;
    }
    Vec3 centroid = Vec3::Zero();
    for (Index v : loop) centroid += mesh.positions[static_cast<std::size_t>(v)];
    centroid /= static_cast<double>(edges);
    const auto c = static_cast<Index>(mesh.positions.size());
    mesh.positions.push_back(centroid);
    for (Index i = 0; i < edges; ++i) {
      mesh.triangles.push_back(
          {loop[static_cast<std::size_t>(i)], loop[static_cast<std::size_t>((i + 1) % edges)], c});
      ++added;
    }
  }
  return {loops, added};
}

// Edges shared by more than two triangles (sheets touching along an edge): every triangle touching
// their nodes is cut out, and those nodes are marked so that the holes left are refilled. Returns
// {edges, triangles removed}.
std::pair<Index, Index> cut_non_manifold(TriMesh& mesh, std::vector<char>& marked) {
  std::map<std::pair<Index, Index>, int> uses;
  for (const Tri& t : mesh.triangles) {
    for (int k = 0; k < 3; ++k) {
      const Index u = t[static_cast<std::size_t>(k)], v = t[static_cast<std::size_t>((k + 1) % 3)];
      ++uses[{std::min(u, v), std::max(u, v)}];
    }
  }
  Index edges = 0;
  for (const auto& [edge, n] : uses) {
    if (n <= 2) continue;
    ++edges;
    marked[static_cast<std::size_t>(edge.first)] = 1;
    marked[static_cast<std::size_t>(edge.second)] = 1;
  }
  if (edges == 0) return {0, 0};
  const std::size_t before = mesh.triangles.size();
  std::erase_if(mesh.triangles, [&](const Tri& t) {
    return std::any_of(t.begin(), t.end(), [&](Index v) { return marked[static_cast<std::size_t>(v)] != 0; });
  });
  return {edges, static_cast<Index>(before - mesh.triangles.size())};
}

void drop_unused_nodes(TriMesh& mesh) {
  std::vector<Index> remap(mesh.positions.size(), -1);
  for (const Tri& t : mesh.triangles)
    for (Index v : t) remap[static_cast<std::size_t>(v)] = 0;
  std::vector<Vec3> kept;
  for (std::size_t v = 0; v < remap.size(); ++v) {
    if (remap[v] < 0) continue;
    remap[v] = static_cast<Index>(kept.size());
    kept.push_back(mesh.positions[v]);
  }
  for (Tri& t : mesh.triangles)
    for (Index& v : t) v = remap[static_cast<std::size_t>(v)];
  mesh.positions = std::move(kept);
}

}  // namespace

std::vector<std::string> RepairReport::notices() const {
  std::vector<std::string> lines;
  if (welded_nodes > 0)
    lines.push_back("welded " + plural(welded_nodes, "node", "nodes") + " onto coincident ones");
  if (degenerate_triangles > 0)
    lines.push_back("removed " + plural(degenerate_triangles, "degenerate (zero-area) triangle",
                                        "degenerate (zero-area) triangles"));
  if (duplicate_triangles > 0)
    lines.push_back("removed " + plural(duplicate_triangles, "duplicate triangle", "duplicate triangles"));
  if (pieces_dropped > 0) {
    lines.push_back("kept the largest of " + std::to_string(pieces) + " pieces, dropping " +
                    plural(pieces_dropped, "piece", "pieces") + " enclosing " + num(dropped_volume) + " m³");
  }
  if (crossing_triangles_removed > 0) {
    lines.push_back(
        "cut out " + plural(crossing_triangles_removed, "triangle", "triangles") + " around " +
        plural(crossings_before, "self-intersection", "self-intersections") + " and refilled the holes" +
        (crossings_after > 0 ? " (" + std::to_string(crossings_after) + " crossings remain)" : ""));
  }
  if (non_manifold_edges > 0) {
    lines.push_back("cut out " + plural(non_manifold_triangles_removed, "triangle", "triangles") +
                    " around " + plural(non_manifold_edges, "edge", "edges") +
                    " shared by more than two triangles");
  }
  if (holes_filled > 0) {
    lines.push_back("filled " + plural(holes_filled, "hole", "holes") + " with " +
                    plural(hole_triangles, "triangle", "triangles"));
  }
  return lines;
}

Result<TriMesh> repair_surface(const TriMesh& surface, const RepairOptions& options, RepairReport* report) {
  RepairReport local;
  RepairReport& r = report ? *report : local;
  r = RepairReport{};
  if (!(std::isfinite(options.weld_tolerance) && options.weld_tolerance >= 0))
    return Error{"weld tolerance must be a finite number ≥ 0 (got " + num(options.weld_tolerance) + ")"};
  if (options.max_hole_edges < 0)
    return Error{"hole size must be ≥ 0 edges (got " + std::to_string(options.max_hole_edges) + ")"};
  const auto n = static_cast<Index>(surface.positions.size());
  for (std::size_t i = 0; i < surface.positions.size(); ++i) {
    if (!surface.positions[i].allFinite())
      return Error{"surface node " + std::to_string(i) + " has a non-finite coordinate"};
  }
  for (std::size_t t = 0; t < surface.triangles.size(); ++t) {
    for (Index v : surface.triangles[t]) {
      if (v < 0 || v >= n) {
        return Error{"surface triangle " + std::to_string(t) + " references node " + std::to_string(v) +
                     ", but there are " + std::to_string(n) + " nodes"};
      }
    }
  }
  TriMesh mesh = surface;
  if (mesh.positions.empty()) return mesh;
  Vec3 lo = mesh.positions.front(), hi = lo;
  for (const Vec3& p : mesh.positions) lo = lo.cwiseMin(p), hi = hi.cwiseMax(p);
  const double diagonal = (hi - lo).norm();

  // Unused nodes (a file's stray vertices) are not welds: drop them first so the count is honest.
  drop_unused_nodes(mesh);
  r.welded_nodes = weld(mesh, options.weld_tolerance * diagonal);
  r.degenerate_triangles = remove_degenerate(mesh);
  r.duplicate_triangles = remove_duplicates(mesh);
  std::vector<char> marked(mesh.positions.size(), 0);
  std::tie(r.non_manifold_edges, r.non_manifold_triangles_removed) = cut_non_manifold(mesh, marked);
  if (!options.keep_all_pieces) r.pieces = keep_largest_piece(mesh, &r.pieces_dropped, &r.dropped_volume);

  auto [loops, added] =
      fill_holes(mesh, options.max_hole_edges, marked,
                 std::max<Index>(options.max_hole_edges, 4 * r.non_manifold_triangles_removed));
  r.holes_filled += loops;
  r.hole_triangles += added;
  if (r.non_manifold_edges > 0 && !options.keep_all_pieces) {
    // Cutting at a pinch can split the surface in two: keep the larger again.
    Index dropped = 0;
    double volume = 0;
    const Index pieces = keep_largest_piece(mesh, &dropped, &volume);
    r.pieces = std::max(r.pieces, pieces);
    r.pieces_dropped += dropped;
    r.dropped_volume += volume;
  }
  drop_unused_nodes(mesh);

  if (options.fix_self_intersections) {
    SelfIntersectionOptions find{.max_pairs = 1 << 20};
    SelfIntersections crossings = find_self_intersections(mesh, find);
    r.crossings_before = crossings.total;
    // Each round cuts out the crossing triangles and `ring` rings of neighbours around them, then
    // refills; a crossing that survives (the fan met another sheet) is cut out wider next round.
    for (int ring = 1; ring <= 3 && !crossings.none(); ++ring) {
      if (crossings.total > static_cast<Index>(crossings.pairs.size())) break;  // too many to fix locally
      std::vector<char> cut(mesh.triangles.size(), 0);
      marked.assign(mesh.positions.size(), 0);
      for (const TriangleCrossing& c : crossings.pairs) {
        cut[static_cast<std::size_t>(c.first)] = 1;
        cut[static_cast<std::size_t>(c.second)] = 1;
      }
      for (int k = 0; k < ring; ++k) {
        for (std::size_t t = 0; t < mesh.triangles.size(); ++t)
          if (cut[t])
            for (Index v : mesh.triangles[t]) marked[static_cast<std::size_t>(v)] = 1;
        for (std::size_t t = 0; t < mesh.triangles.size(); ++t) {
          const Tri& tri = mesh.triangles[t];
          if (std::any_of(tri.begin(), tri.end(),
                          [&](Index v) { return marked[static_cast<std::size_t>(v)]; }))
            cut[t] = 1;
        }
      }
      // The boundary nodes of the cut region stay; interior ones go with their triangles.
      std::vector<Tri> kept;
      Index removed = 0;
      for (std::size_t t = 0; t < mesh.triangles.size(); ++t) {
        if (cut[t])
          ++removed;
        else
          kept.push_back(mesh.triangles[t]);
      }
      // Not a local fix any more: keep the surface as it was before this round and let the check name
      // the crossings.
      if (4 * removed > static_cast<Index>(mesh.triangles.size())) break;
      mesh.triangles = std::move(kept);
      r.crossing_triangles_removed += removed;
      const auto [cut_loops, cut_added] = fill_holes(mesh, options.max_hole_edges, marked,
                                                     std::max<Index>(options.max_hole_edges, 4 * removed));
      r.holes_filled += cut_loops;
      r.hole_triangles += cut_added;
      drop_unused_nodes(mesh);
      crossings = find_self_intersections(mesh, find);
    }
    r.crossings_after = crossings.total;
  }
  if (!options.keep_all_pieces && (r.non_manifold_edges > 0 || r.crossing_triangles_removed > 0)) {
    // Cutting at a pinch can split the surface in two: keep the larger.
    Index dropped = 0;
    double volume = 0;
    r.pieces = std::max(r.pieces, keep_largest_piece(mesh, &dropped, &volume));
    r.pieces_dropped += dropped;
    r.dropped_volume += volume;
  }
  drop_unused_nodes(mesh);
  return mesh;
}

}  // namespace pliant::meshing
