#include "pliant/scene/render_mesh.hpp"

#include "pliant/core/aabb.hpp"
#include "pliant/core/bvh.hpp"
#include "pliant/core/tet_mesh.hpp"
#include "pliant/core/topology.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

namespace pliant::scene {
namespace {

std::string metres(double v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.4g m", v);
  return buf;
}

// The orthonormal frame of triangle (a, b, c): one edge, the normal's complement, the normal; the
// identity for a degenerate triangle (its offsets then stay fixed in the world frame).
Mat3 triangle_frame(const Vec3& a, const Vec3& b, const Vec3& c) {
  const Vec3 e = b - a;
  const Vec3 n = e.cross(c - a);
  const double en = e.norm(), nn = n.norm();
  if (!(en > 0.0) || !(nn > 0.0) || !std::isfinite(nn)) return Mat3::Identity();
  Mat3 r;
  r.col(0) = e / en;
  r.col(2) = n / nn;
  r.col(1) = r.col(2).cross(r.col(0));
  return r;
}

// Barycentric weights of p in tet (x0, x1, x2, x3); false for a degenerate tet.
bool tet_weights(const Vec3& x0, const Vec3& x1, const Vec3& x2, const Vec3& x3, const Vec3& p,
                 std::array<double, 4>& w) {
  Mat3 m;
  m.col(0) = x1 - x0;
  m.col(1) = x2 - x0;
  m.col(2) = x3 - x0;
  const double det = m.determinant();
  const double scale = m.col(0).norm() * m.col(1).norm() * m.col(2).norm();
  if (!(std::abs(det) > 1e-12 * scale)) return false;
  const Vec3 l = m.inverse() * (p - x0);
  w = {1.0 - l.sum(), l[0], l[1], l[2]};
  return true;
}

// A uniform grid of the tets' bounding boxes (cells in CSR form): the candidates that may contain a
// point. About one tet per cell, at most 128 cells per axis.
struct TetGrid {
  Aabb box;
  Eigen::Vector3i dims = Eigen::Vector3i::Ones();
  Vec3 cell = Vec3::Ones();
  std::vector<Index> start, tets;

  TetGrid(std::span<const Tet> t, std::span<const Vec3> x) {
    for (const Vec3& p : x) box.extend(p);
    if (box.empty() || t.empty()) return;
    const Vec3 size = (box.max - box.min).cwiseMax(1e-12);
    const double h = std::cbrt(size.prod() / static_cast<double>(t.size()));
    for (int k = 0; k < 3; ++k) {
      dims[k] = static_cast<int>(std::clamp(std::ceil(size[k] / h), 1.0, 128.0));
      cell[k] = size[k] / dims[k];
    }
    start.assign(static_cast<std::size_t>(dims.prod()) + 1, 0);
    for (int pass = 0; pass < 2; ++pass) {
      std::vector<Index> fill;
      if (pass == 1) {
        for (std::size_t c = 1; c < start.size(); ++c) start[c] += start[c - 1];
        tets.assign(static_cast<std::size_t>(start.back()), 0);
        fill.assign(start.begin(), start.end() - 1);
      }
      for (std::size_t e = 0; e < t.size(); ++e) {
        Aabb b;
        for (Index n : t[e]) b.extend(x[static_cast<std::size_t>(n)]);
        const Eigen::Vector3i lo = index_of(b.min), hi = index_of(b.max);
        for (int k = lo[2]; k <= hi[2]; ++k)
          for (int j = lo[1]; j <= hi[1]; ++j)
            for (int i = lo[0]; i <= hi[0]; ++i) {
              const std::size_t c = flat(i, j, k);
              if (pass == 0)
                ++start[c + 1];
              else
                tets[static_cast<std::size_t>(fill[c]++)] = static_cast<Index>(e);
            }
      }
    }
  }
  Eigen::Vector3i index_of(const Vec3& p) const {
    Eigen::Vector3i i;
    for (int k = 0; k < 3; ++k)
      i[k] = static_cast<int>(std::clamp(std::floor((p[k] - box.min[k]) / cell[k]), 0.0, dims[k] - 1.0));
    return i;
  }
  std::size_t flat(int i, int j, int k) const {
    return static_cast<std::size_t>(i) +
           static_cast<std::size_t>(dims[0]) *
               (static_cast<std::size_t>(j) + static_cast<std::size_t>(dims[1]) * k);
  }
  bool contains(const Vec3& p) const {
    return !box.empty() && (p.array() >= box.min.array()).all() && (p.array() <= box.max.array()).all();
  }
};

}  // namespace

Result<RenderMesh> RenderMesh::embed(const Body& body, TriMesh mesh) {
  if (mesh.triangles.empty()) return Error{"the render mesh has no triangles"};
  const Index n = static_cast<Index>(mesh.positions.size());
  for (std::size_t t = 0; t < mesh.triangles.size(); ++t)
    for (Index v : mesh.triangles[t])
      if (v < 0 || v >= n)
        return Error{"render mesh triangle " + std::to_string(t) + " names node " + std::to_string(v) +
                     ", which it does not have (" + std::to_string(n) + " nodes)"};
  for (std::size_t i = 0; i < mesh.positions.size(); ++i)
    if (!mesh.positions[i].allFinite())
      return Error{"render mesh node " + std::to_string(i) + " has a non-finite position"};
  RenderMesh r;
  r.rest_ = std::move(mesh);
  r.x_ = r.rest_.positions;
  if (Status s = r.embed_in(body); !s.ok()) return Error{s.message()};
  r.update(body);
  return r;
}

Status RenderMesh::embed_in(const Body& body) {
  TriMesh surface;
  surface.positions.assign(body.surface_rest_positions().begin(), body.surface_rest_positions().end());
  surface.triangles.assign(body.surface_triangles().begin(), body.surface_triangles().end());
  if (surface.triangles.empty())
    return Error{"body \"" + body.name() + "\" has no surface to embed a render mesh in"};
  const TriangleBvh tree(surface);
  const Aabb box = bounding_box(surface.positions);
  const double size = std::max((box.max - box.min).norm(), 1e-12);

  const std::size_t nv = rest_.positions.size();
  surface_.assign(nv, SurfaceSample{});
  max_offset_ = 0.0;
  for (std::size_t i = 0; i < nv; ++i) {
    const Vec3& p = rest_.positions[i];
    const auto hit = tree.nearest(p);
    if (!hit) return Error{"body \"" + body.name() + "\" has no finite surface to embed a render mesh in"};
    const double d = std::sqrt(hit->distance_squared);
    max_offset_ = std::max(max_offset_, d);
    if (d > size)
      return Error{"render mesh node " + std::to_string(i) + " lies " + metres(d) + " from body \"" +
                   body.name() + "\", whose size is " + metres(size) +
                   ": check the render mesh's \"units\" and transform (both meshes are in the scene frame)"};
    SurfaceSample& s = surface_[i];
    s.nodes = surface.triangles[static_cast<std::size_t>(hit->triangle)];
    s.w = Vec3(1.0 - hit->u - hit->v, hit->u, hit->v);
    const auto& xs = surface.positions;
    const Mat3 frame =
        triangle_frame(xs[static_cast<std::size_t>(s.nodes[0])], xs[static_cast<std::size_t>(s.nodes[1])],
                       xs[static_cast<std::size_t>(s.nodes[2])]);
    s.offset = frame.transpose() * (p - hit->point);
  }

  tet_.clear();
  fit_.reset();
  embedding_ = Embedding::surface_frames;
  if (const auto* fits = capability<FitsSurfaces>(body)) {
    Result<std::unique_ptr<SurfaceFit>> fit = fits->fit_surface(rest_);
    if (!fit.ok()) return Error{fit.message()};
    fit_ = std::move(fit).value();
    embedding_ = Embedding::fitted;
  } else if (const auto* sim = capability<SimulationTets>(body); sim && !sim->simulation_tets().empty()) {
    const auto tets = sim->simulation_tets();
    const auto x = sim->simulation_rest_nodes();
    TetMesh volume;
    volume.positions.assign(x.begin(), x.end());
    volume.tets.assign(tets.begin(), tets.end());
    const BoundarySurface boundary = extract_boundary(volume);
    const TriangleBvh outside(boundary.mesh);
    const TetGrid grid(tets, x);
    tet_.assign(nv, TetWeights{});
    auto node = [&](const Tet& t, int k) -> const Vec3& {
      return x[static_cast<std::size_t>(t[static_cast<std::size_t>(k)])];
    };
    for (std::size_t i = 0; i < nv; ++i) {
      const Vec3& p = rest_.positions[i];
      TetWeights& out = tet_[i];
      bool found = false;
      if (grid.contains(p)) {
        const Eigen::Vector3i c = grid.index_of(p);
        const std::size_t cell = grid.flat(c[0], c[1], c[2]);
        // The containing tet, or the one the point is least outside of (a point on a shared face).
        double best = -std::numeric_limits<double>::infinity();
        for (Index k = grid.start[cell]; k < grid.start[cell + 1]; ++k) {
          const Tet& t = tets[static_cast<std::size_t>(grid.tets[static_cast<std::size_t>(k)])];
          std::array<double, 4> w;
          if (!tet_weights(node(t, 0), node(t, 1), node(t, 2), node(t, 3), p, w)) continue;
          const double worst = *std::min_element(w.begin(), w.end());
          if (worst > best) {
            best = worst;
            out = {t, w};
          }
        }
        found = best >= -1e-9;
      }
      if (!found) {
        // Outside the mesh: the tet under the nearest boundary face, its coordinates extrapolated.
        const auto hit = outside.nearest(p);
        if (!hit)
          return Error{"body \"" + body.name() + "\" has no finite tetrahedra to embed a render mesh in"};
        const Tet& t =
            tets[static_cast<std::size_t>(boundary.face_tet[static_cast<std::size_t>(hit->triangle)])];
        std::array<double, 4> w;
        if (!tet_weights(node(t, 0), node(t, 1), node(t, 2), node(t, 3), p, w))
          return Error{"body \"" + body.name() + "\": the tet nearest render mesh node " + std::to_string(i) +
                       " is degenerate"};
        out = {t, w};
      }
    }
    embedding_ = Embedding::tets;
  }
  topology_version_ = body.surface_topology_version();
  return {};
}

void RenderMesh::update(const Body& body) {
  if (body.surface_topology_version() != topology_version_) {
    // A cut or a tear: embed again against the new topology; keep the last positions if that fails
    // (nothing left to embed in).
    if (!embed_in(body).ok()) return;
  }
  if (embedding_ == Embedding::fitted) {
    fit_->positions(x_);
    return;
  }
  if (embedding_ == Embedding::tets) {
    const auto x = capability<SimulationTets>(body)->simulation_nodes();
    for (std::size_t i = 0; i < x_.size(); ++i) {
      const TetWeights& t = tet_[i];
      Vec3 p = Vec3::Zero();
      for (int k = 0; k < 4; ++k)
        p += t.w[static_cast<std::size_t>(k)] *
             x[static_cast<std::size_t>(t.nodes[static_cast<std::size_t>(k)])];
      x_[i] = p;
    }
    return;
  }
  const auto xs = body.surface_positions();
  for (std::size_t i = 0; i < x_.size(); ++i) {
    const SurfaceSample& s = surface_[i];
    const Vec3& a = xs[static_cast<std::size_t>(s.nodes[0])];
    const Vec3& b = xs[static_cast<std::size_t>(s.nodes[1])];
    const Vec3& c = xs[static_cast<std::size_t>(s.nodes[2])];
    x_[i] = s.w[0] * a + s.w[1] * b + s.w[2] * c + triangle_frame(a, b, c) * s.offset;
  }
}

std::string_view RenderMesh::embedding_name(Embedding e) {
  switch (e) {
    case Embedding::fitted:
      return "fitted";
    case Embedding::tets:
      return "tets";
    case Embedding::surface_frames:
      break;
  }
  return "surface_frames";
}

void RenderMesh::sample_surface_field(std::span<const double> surface_values, std::span<double> out) const {
  for (std::size_t i = 0; i < surface_.size() && i < out.size(); ++i) {
    const SurfaceSample& s = surface_[i];
    double v = 0.0;
    for (int k = 0; k < 3; ++k) {
      const auto node = static_cast<std::size_t>(s.nodes[static_cast<std::size_t>(k)]);
      v += s.w[k] * (node < surface_values.size() ? surface_values[node] : 0.0);
    }
    out[i] = v;
  }
}

}  // namespace pliant::scene
