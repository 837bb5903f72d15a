#include "pliant/models/meshless/surface_cutter.hpp"

#include "pliant/core/ray.hpp"
#include "pliant/core/topology.hpp"
#include "point_grid.hpp"

#include <Eigen/Eigenvalues>
#include <Eigen/LU>

#include <algorithm>
#include <cmath>
#include <optional>

namespace pliant::meshless {
namespace {

using detail::PointGrid;

// The pieces the links make: per phyxel the label of its connected component.
std::vector<Index> pieces(const MlsBody& body) {
  std::vector<Edge> links;
  links.reserve(body.link_target.size());
  for (std::size_t i = 0; i < body.rest.size(); ++i) {
    for (Index l = body.link_begin[i]; l < body.link_begin[i + 1]; ++l)
      links.push_back({static_cast<Index>(i), body.link_target[static_cast<std::size_t>(l)]});
  }
  return connected_components(body.size(), links).label;
}

// The rest position of the point y (unit: m) given where the phyxels are now (x): a linear
// moving-least-squares fit of the rest positions over the phyxels within R of y; Shepard weights on
// their displacements when too few for a linear fit, or when none is within R (y outside the body: R
// is enlarged until some are, and a linear fit would extrapolate); y itself when none is near at all.
Vec3 rest_of(const MlsBody& body, std::span<const Vec3> x, const Vec3& y, double R) {
  std::vector<Index> near;
  bool enlarged = false;
  for (int attempt = 0; attempt < 8; ++attempt, R *= 1.25) {
    for (std::size_t j = 0; j < x.size(); ++j) {
      if ((x[j] - y).squaredNorm() < R * R) near.push_back(static_cast<Index>(j));
    }
    if (!near.empty()) break;
    enlarged = true;
  }
  if (near.empty()) return y;
  Eigen::Matrix4d M = Eigen::Matrix4d::Zero();
  Eigen::Matrix<double, 4, 3> B = Eigen::Matrix<double, 4, 3>::Zero();
  Vec3 shepard = Vec3::Zero();
  double sum = 0.0;
  for (Index j : near) {
    const auto ju = static_cast<std::size_t>(j);
    Eigen::Vector4d p;
    p << 1.0, (x[ju] - y) / R;
    const double q = 1.0 - (x[ju] - y).squaredNorm() / (R * R), w = q * q * q;
    M.noalias() += w * p * p.transpose();
    B.noalias() += w * p * body.rest[ju].transpose();
    shepard += w * (body.rest[ju] - x[ju]);
    sum += w;
  }
  const Eigen::SelfAdjointEigenSolver<Eigen::Matrix4d> eig(M, Eigen::EigenvaluesOnly);
  if (!enlarged && eig.eigenvalues()[0] > 0.0 && eig.eigenvalues()[3] / eig.eigenvalues()[0] <= 1e6)
    return (M.inverse() * B).row(0).transpose();
  return sum > 0.0 ? Vec3(y + shepard / sum) : y;
}

// The strip's boundary as segments with the strip parameters of their ends: the last blade, the paths
// of both ends over each sweep from the last one back, and the first blade.
struct BoundarySegment {
  Vec3 p, q;
  Eigen::Vector2d from, to;
};
std::vector<BoundarySegment> strip_boundary(std::span<const Blade> run) {
  const auto K = static_cast<double>(run.size());
  std::vector<BoundarySegment> out;
  out.push_back({run.back().a1, run.back().b1, {0.0, K}, {1.0, K}});
  for (std::size_t k = run.size(); k-- > 0;) {
    const auto t = static_cast<double>(k);
    out.push_back({run[k].b0, run[k].b1, {1.0, t}, {1.0, t + 1.0}});
    out.push_back({run[k].a0, run[k].a1, {0.0, t}, {0.0, t + 1.0}});
  }
  out.push_back({run.front().a0, run.front().b0, {0.0, 0.0}, {1.0, 0.0}});
  return out;
}

// Appends the renumbering `then` to `first` (old → new), which may be empty (no renumbering yet).
void compose(std::vector<Index>& first, std::vector<Index> then) {
  if (then.empty()) return;
  if (first.empty()) {
    first = std::move(then);
    return;
  }
  for (Index& v : first) v = v < 0 ? -1 : then[static_cast<std::size_t>(v)];
}

}  // namespace

SurfaceCutter::Outcome SurfaceCutter::sweep(DrivenSurface& surface, const MlsBody& body,
                                            std::span<const Vec3> x, std::span<const Vec3> surface_x,
                                            const Blade& blade, bool links_cut) {
  Outcome out;
  std::vector<Vec3> renumbered_x;
  if (!run_.empty()) {
    const Blade& last = run_.back();
    const double tol = 1e-9 * ((blade.a0 - blade.b0).norm() + (blade.a1 - blade.a0).norm());
    if ((last.a1 - blade.a0).norm() > tol || (last.b1 - blade.b0).norm() > tol) {
      // A blade that does not go on from the last one starts a new run on the surface as it is.
      out.renumbered = end_run(surface);
      if (!out.renumbered.empty()) {
        out.changed = true;
        renumbered_x.resize(surface.vertex_count());
        for (std::size_t v = 0; v < out.renumbered.size(); ++v) {
          if (out.renumbered[v] >= 0)
            renumbered_x[static_cast<std::size_t>(out.renumbered[v])] = surface_x[v];
        }
        surface_x = renumbered_x;
      }
    }
  }
  if (run_.empty()) {
    base_ = surface.triangles();
    base_vertices_ = static_cast<Index>(surface.vertex_count());
  }
  run_.push_back(blade);
  const auto K = static_cast<Index>(run_.size());
  // A blade going on from the previous one sweeps that strip again: a vertex moving against the blade
  // can pass its edge between two steps' positions (each edge is recorded once).
  Index added = 0;
  const std::size_t fresh = crossings_.order.size();  // crossings recorded before this sweep
  if (K > 1)
    added += add_crossings(surface_x, base_, run_[run_.size() - 2], crossings_, static_cast<double>(K - 2));
  added += add_crossings(surface_x, base_, blade, crossings_, static_cast<double>(K - 1));
  if (!links_cut && added == 0) return out;
  out.changed = true;

  const BladeCrossing crossing(blade);
  std::vector<BladeCrossing> run_crossings;  // every blade of the run, built when needed
  const auto run_blades = [&]() -> std::span<const BladeCrossing> {
    if (run_crossings.empty()) {
      for (const Blade& r : run_) run_crossings.emplace_back(r);
    }
    return run_crossings;
  };
  surface.refit_without(body, [&](Index v, Index j) {
    return crossing(surface_x[static_cast<std::size_t>(v)], x[static_cast<std::size_t>(j)]);
  });
  double r_min = surface.radius(0);
  for (std::size_t v = 1; v < surface.vertex_count(); ++v)
    r_min = std::min(r_min, surface.radius(static_cast<Index>(v)));
  const PointGrid grid(body.rest, r_min);
  std::vector<Index> near, candidates, labels;
  // Phyxels within R of X (rest positions) that `keep` accepts, R enlarged until there are some.
  const auto gather = [&](const Vec3& X, double& R, const auto& keep) {
    for (int attempt = 0; attempt < 8; ++attempt, R *= 1.25) {
      grid.within(X, R, -1, candidates);
      near.clear();
      for (Index j : candidates) {
        if (keep(j)) near.push_back(j);
      }
      if (!near.empty()) return;
    }
  };

  // Copies of the new cut points, one per side, fitted to the phyxels within their side vertex's radius
  // that are in the same piece as its phyxels (linked to them through the links left) and visible
  // from its side: no segment from a point a millionth of the edge off the cut on that side to the
  // phyxel crosses this blade or the previous one (swept again above). A cut point of an earlier sweep
  // whose copies were taken back (a cut the surface could not take, below) is tested against every
  // blade of the run.
  if (std::any_of(crossings_.edge.begin(), crossings_.edge.end(),
                  [](const auto& e) { return e.second.vertex < 0; })) {
    const std::vector<Index> piece = pieces(body);
    std::vector<BladeCrossing> recent{crossing};  // this blade and the previous one
    if (K > 1) recent.emplace_back(run_[run_.size() - 2]);
    for (std::size_t k = 0; k < crossings_.order.size(); ++k) {
      const std::uint64_t key = crossings_.order[k];
      SurfaceCrossings::Crossing& c = crossings_.edge.at(key);
      if (c.vertex >= 0) continue;
      const std::span<const BladeCrossing> blades =
          k < fresh ? run_blades() : std::span<const BladeCrossing>(recent);
      const auto a = static_cast<std::size_t>(key >> 32), b = static_cast<std::size_t>(key & 0xffffffffu);
      const Vec3 X = (1.0 - c.t) * surface.rest_positions()[a] + c.t * surface.rest_positions()[b];
      const Vec3 on_cut = (1.0 - c.t) * surface_x[a] + c.t * surface_x[b];
      for (const bool plus : {true, false}) {
        const auto side = static_cast<Index>(plus == c.low_plus ? a : b);
        const Vec3 seen_from = on_cut + 1e-6 * (surface_x[static_cast<std::size_t>(side)] - on_cut);
        labels.clear();
        for (Index j : surface.phyxels(side)) labels.push_back(piece[static_cast<std::size_t>(j)]);
        double R = surface.radius(side);
        gather(X, R, [&](Index j) {
          const Vec3& xj = x[static_cast<std::size_t>(j)];
          return (labels.empty() || std::find(labels.begin(), labels.end(),
                                              piece[static_cast<std::size_t>(j)]) != labels.end()) &&
                 std::none_of(blades.begin(), blades.end(),
                              [&](const BladeCrossing& bc) { return bc(seen_from, xj); });
        });
        const Index v = surface.add_vertex(body, X, R, near);
        if (plus) c.vertex = v;
      }
    }
  }

  // Vertices of the slits' cut faces. A new one is numbered past the vertices while the surface is cut
  // and placed afterwards, once the ones no triangle uses any more are known: a single one in such a
  // one's place, else appended; a pair of copies appended.
  struct Placement {
    ExtraKey key;
    Vec3 X;
    double R;
    Index first;            // its (first) number while the surface is cut
    Vec3 seen[2];           // a pair's: points just off the face on the positive, negative side
    std::size_t sweep = 0;  // a pair's: the sweep it lies on
  };
  std::vector<Placement> placements;
  const auto first_new = static_cast<Index>(surface.vertex_count());
  Index next_new = first_new;
  std::vector<std::pair<ExtraKey, Extra>> stale;  // piercing points moved on, restored if the cut fails
  const auto later = [&](const ExtraKey& key, const Vec3& X, double R, const Eigen::Vector2d& param,
                         const Vec3* seen) {
    placements.push_back({key, X, R, next_new, {Vec3::Zero(), Vec3::Zero()}});
    if (seen) placements.back().seen[0] = seen[0], placements.back().seen[1] = seen[1];
    extras_[key] = {next_new, param, K, seen != nullptr};
    next_new += seen ? 2 : 1;
    return placements.back().first;
  };
  const auto rest_of_vertex = [&](Index v) {
    if (v < first_new) return surface.rest_positions()[static_cast<std::size_t>(v)];
    for (const Placement& p : placements) {
      if (p.first == v) return p.X;
    }
    return Vec3(Vec3::Zero());
  };
  SlitStrip strip;
  strip.sweeps = K;
  strip.pierce = [&](Index t, Eigen::Vector2d& param) {
    const ExtraKey key{0, t, 0};
    if (const auto it = extras_.find(key); it != extras_.end()) {
      // One pierced by the blade's last position then is pierced lower now, unless the slit grew past.
      if (!(it->second.param.y() == static_cast<double>(it->second.sweeps) && it->second.sweeps != K)) {
        param = it->second.param;
        return it->second.vertex;
      }
      stale.emplace_back(*it);
      extras_.erase(it);
    }
    const Tri& tri = base_[static_cast<std::size_t>(t)];
    const Vec3 &A = surface_x[static_cast<std::size_t>(tri[0])],
               &B = surface_x[static_cast<std::size_t>(tri[1])],
               &C = surface_x[static_cast<std::size_t>(tri[2])];
    // Where a segment of the boundary crosses the triangle (both faces count).
    std::optional<RayHit> hit;
    const std::vector<BoundarySegment> boundary = strip_boundary(run_);
    for (const BoundarySegment& e : boundary) {
      if ((hit = intersect_ray_triangle(Ray{e.p, e.q - e.p}, A, B, C, 1.0))) {
        param = (1.0 - hit->t) * e.from + hit->t * e.to;
        break;
      }
    }
    if (!hit) {  // moved off the boundary since it was swept: the centroid, at the nearest boundary point
      hit = RayHit{-1, 0.0, 1.0 / 3.0, 1.0 / 3.0};
      const Vec3 centre = (A + B + C) / 3.0;
      double best = INFINITY;
      for (const BoundarySegment& e : boundary) {
        const Vec3 d = e.q - e.p;
        const double f =
            d.squaredNorm() > 0.0 ? std::clamp((centre - e.p).dot(d) / d.squaredNorm(), 0.0, 1.0) : 0.0;
        if (const double dist = (e.p + f * d - centre).norm(); dist < best) {
          best = dist;
          param = (1.0 - f) * e.from + f * e.to;
        }
      }
    }
    Vec3 X = Vec3::Zero();
    double R = INFINITY;
    for (int c = 0; c < 3; ++c) {
      X += hit->weights()[c] *
           surface.rest_positions()[static_cast<std::size_t>(tri[static_cast<std::size_t>(c)])];
      R = std::min(R, surface.radius(tri[static_cast<std::size_t>(c)]));
    }
    return later(key, X, R, param, nullptr);
  };
  strip.corner = [&](Index c) {
    // Keyed by where it is on the strip (which end's path, which sweep's end), not by c, which moves
    // along the a end's path as the run grows.
    const Eigen::Vector2d at = strip_corner(c, K);
    const auto b_end = static_cast<Index>(at.x()), sweeps = static_cast<Index>(at.y());
    const ExtraKey key{1, b_end, sweeps};
    if (const auto it = extras_.find(key); it != extras_.end()) return it->second.vertex;
    // The blade's end at the start of the run, or at the end of sweep `sweeps`.
    const Blade& r = run_[static_cast<std::size_t>(std::max<Index>(sweeps - 1, 0))];
    const Vec3& y = sweeps == 0 ? (b_end ? r.b0 : r.a0) : (b_end ? r.b1 : r.a1);
    return later(key, rest_of(body, x, y, r_min), r_min, Eigen::Vector2d::Zero(), nullptr);
  };
  strip.interior = [&](Index u, Index w, const Eigen::Vector2d& param) {
    const auto id = [&](Index v) {
      for (const auto& [key, e] : extras_) {
        if (e.vertex == v && key[0] < 2) return key[0] == 0 ? key[1] : -1 - (2 * key[2] + key[1]);
      }
      return Index{0};
    };
    const Index iu = id(u), iw = id(w);
    const ExtraKey key{2, std::min(iu, iw), std::max(iu, iw)};
    if (const auto it = extras_.find(key); it != extras_.end()) return it->second.vertex;
    // Where the face is, on the blade's sweep at that parameter, and a point just off it on each side.
    const auto k =
        static_cast<std::size_t>(std::clamp(std::floor(param.y()), 0.0, static_cast<double>(K - 1)));
    const Blade& r = run_[k];
    const double f = std::clamp(param.y() - static_cast<double>(k), 0.0, 1.0),
                 s = std::clamp(param.x(), 0.0, 1.0);
    const Vec3 at = (1.0 - f) * ((1.0 - s) * r.a0 + s * r.b0) + f * ((1.0 - s) * r.a1 + s * r.b1);
    Vec3 normal = (r.b0 - r.a0).cross(r.a1 - r.a0) + (r.b1 - r.a1).cross(r.b1 - r.b0);
    normal = normal.norm() > 0.0 ? Vec3(normal.normalized()) : Vec3::UnitZ();
    const double off = 1e-6 * ((r.b0 - r.a0).norm() + (r.a1 - r.a0).norm());
    const Vec3 seen[2] = {at + off * normal, at - off * normal};
    const Index v = later(key, 0.5 * (rest_of_vertex(u) + rest_of_vertex(w)), r_min, param, seen);
    placements.back().sweep = k;
    return v;
  };
  auto cut = cut_surface(surface_x, base_, crossings_, &strip);
  if (!cut) {
    // The surface keeps its triangles (the crossings do not form chains and loops it can take, e.g.
    // where the blade crossed the lips of an older slit that overlap). Copies none of them uses are
    // taken back, to be made again when a later sweep completes the cut.
    for (const Placement& p : placements) extras_.erase(p.key);
    for (const auto& [key, e] : stale) extras_[key] = e;
    std::vector<std::uint8_t> used(surface.vertex_count(), 0);
    for (const Tri& t : surface.triangles()) {
      for (Index v : t) used[static_cast<std::size_t>(v)] = 1;
    }
    std::vector<Index> gone;
    for (auto& [key, c] : crossings_.edge) {
      if (c.vertex < 0 || used[static_cast<std::size_t>(c.vertex)]) continue;
      gone.push_back(c.vertex);
      gone.push_back(c.vertex + 1);
      c.vertex = -1;
    }
    if (!gone.empty()) {
      const std::vector<Index> renumbered = surface.remove_vertices(gone);
      renumber(renumbered);
      compose(out.renumbered, renumbered);
    }
    return out;
  }
  // Only the vertices the new triangles use are kept or placed.
  std::vector<std::uint8_t> referenced(static_cast<std::size_t>(next_new), 0);
  for (const Tri& t : cut->triangles) {
    for (Index v : t) referenced[static_cast<std::size_t>(v)] = 1;
  }
  const auto in_use = [&](const Extra& e) {
    return referenced[static_cast<std::size_t>(e.vertex)] ||
           (e.pair && referenced[static_cast<std::size_t>(e.vertex) + 1]);
  };
  for (const auto& [key, e] : stale) spare_.push_back(e.vertex);
  for (auto it = extras_.begin(); it != extras_.end();) {
    if (in_use(it->second)) {
      ++it;
      continue;
    }
    if (it->second.vertex < first_new) (it->second.pair ? spare_pairs_ : spare_).push_back(it->second.vertex);
    it = extras_.erase(it);
  }
  std::vector<Index> placed(static_cast<std::size_t>(next_new - first_new), -1);
  for (const Placement& p : placements) {
    const auto it = extras_.find(p.key);
    if (it == extras_.end() || it->second.vertex != p.first) continue;  // not used
    double R = p.R;
    const auto slot = static_cast<std::size_t>(p.first - first_new);
    if (it->second.pair) {
      // One copy per side, fitted to the phyxels visible from just off the face on that side (no
      // segment to the phyxel crosses the blade's sweeps around it, two either side).
      const std::span<const BladeCrossing> all = run_blades();
      const auto from = all.begin() + static_cast<std::ptrdiff_t>(p.sweep >= 2 ? p.sweep - 2 : 0),
                 to = all.begin() + static_cast<std::ptrdiff_t>(std::min(p.sweep + 3, all.size()));
      Index v = -1;
      const bool reuse = !spare_pairs_.empty();
      if (reuse) {
        v = spare_pairs_.back();
        spare_pairs_.pop_back();
      }
      for (int side = 0; side < 2; ++side) {
        R = p.R;
        gather(p.X, R, [&](Index j) {
          return std::none_of(from, to, [&](const BladeCrossing& bc) {
            return bc(p.seen[side], x[static_cast<std::size_t>(j)]);
          });
        });
        if (reuse)
          surface.refit_vertex(v + side, body, p.X, R, near);
        else if (side == 0)
          v = surface.add_vertex(body, p.X, R, near);
        else
          surface.add_vertex(body, p.X, R, near);
        placed[slot + static_cast<std::size_t>(side)] = v + side;
      }
    } else {
      gather(p.X, R, [](Index) { return true; });
      if (!spare_.empty()) {
        placed[slot] = spare_.back();
        spare_.pop_back();
        surface.refit_vertex(placed[slot], body, p.X, R, near);
      } else {
        placed[slot] = surface.add_vertex(body, p.X, R, near);
      }
    }
    it->second.vertex = placed[slot];
  }
  for (Tri& t : cut->triangles) {
    for (Index& v : t) {
      if (v >= first_new) v = placed[static_cast<std::size_t>(v - first_new)];
    }
  }
  surface.set_triangles(std::move(cut->triangles));
  if (cut->chains == 0) {  // through: the run ends
    compose(out.renumbered, end_run(surface));
  } else if (!spare_.empty() || !spare_pairs_.empty()) {  // fewer than before: the rest go
    for (Index v : spare_pairs_) spare_.insert(spare_.end(), {v, v + 1});
    const std::vector<Index> renumbered = surface.remove_vertices(spare_);
    spare_.clear();
    spare_pairs_.clear();
    renumber(renumbered);
    compose(out.renumbered, renumbered);
  }
  return out;
}
void SurfaceCutter::renumber(std::span<const Index> renumbered) {
  for (auto& [key, e] : extras_)
    e.vertex = renumbered[static_cast<std::size_t>(e.vertex)];  // pairs stay pairs
  for (auto& [key, c] : crossings_.edge) {
    if (c.vertex >= 0) c.vertex = renumbered[static_cast<std::size_t>(c.vertex)];
  }
}

std::vector<Index> SurfaceCutter::end_run(DrivenSurface& surface) {
  run_.clear();
  crossings_.clear();
  extras_.clear();
  spare_.clear();
  spare_pairs_.clear();
  // Vertices the run added that no triangle uses.
  std::vector<std::uint8_t> used(surface.vertex_count(), 0);
  for (const Tri& t : surface.triangles()) {
    for (Index v : t) used[static_cast<std::size_t>(v)] = 1;
  }
  std::vector<Index> gone;
  for (auto v = static_cast<std::size_t>(base_vertices_); v < used.size(); ++v) {
    if (!used[v]) gone.push_back(static_cast<Index>(v));
  }
  if (gone.empty()) return {};
  return surface.remove_vertices(gone);
}

}  // namespace pliant::meshless
