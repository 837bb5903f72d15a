// DrivenSurface: a render surface moved by the phyxels (Li et al., patent CN102831280, claim 3).
//
// Each surface vertex X gets, once at bind time, a moving-least-squares fit with a linear basis over
// the phyxels j within a radius R: with p_j = [1, (X_j - X)/R] and w_j = (1 - |X_j - X|²/R²)³,
// M = Σ_j w_j p_j p_jᵀ (4×4) and c_j = w_j M⁻¹ p_j, the shape function is φ_j = c_j[0] and the
// (diffuse) gradient is g_j = c_j[1..3]/R. Both are exact for linear fields, so an affine motion of
// the phyxels moves the vertex affinely. Per frame a vertex then costs a few multiply-adds per phyxel:
//   x = X + Σ φ_j u_j,   F = I + Σ u_j g_jᵀ (Σ g_j = 0),   n' = cof(F) n / |cof(F) n|.
// cof(F) n = det(F) F⁻ᵀ n is how area vectors transform, so n' is exactly the normal of the deformed
// surface under an affine motion. To first order in H = F - I (H_ab = ∂u_a/∂X_b) it is (I - Hᵀ) n up
// to length; in Müller et al.'s notation (∇u)_ab = ∂u_b/∂x_a that is (I - ∇u) n, and the patent's
// printed n + ∇uᵀ n has the wrong sign (first_order_normal; the tests check both against the surface).
//
// Forces applied to the surface (grabs, contacts) go to the phyxels by the same weights: f_j += φ_j f,
// which keeps the total force (Σ φ_j = 1) and, for a linear motion, does the same virtual work.
//
// Storage and kernel: a fit term is {φ_j, g_j} in double (32 bytes) beside its phyxel index. The update
// gathers the phyxel positions x_j directly (no per-phyxel displacement pass, no scratch) and sums
// relative to the vertex's first phyxel x_0:
//   x = x_0 + a + Σ φ_j (x_j - x_0),   F = G + Σ (x_j - x_0) g_jᵀ,
// with the per-vertex constants a = X - X_0 - Σ φ_j (X_j - X_0) and G = I - Σ (X_j - X_0) g_jᵀ computed at
// bind. In exact arithmetic these are the formulas above (Σ φ_j = 1, Σ g_j = 0); a translation of the
// body cancels in x_j - x_0, so it adds no error to F however far it moves. One term is four multiply-adds
// on 4-wide vectors [x y z 0] (x, F's three columns): AVX2 + FMA where the CPU has them, chosen at run
// time (core/cpu_dispatch.hpp), else baseline SSE2; both are tested against a plain scalar sum.
//
// Fit radius: by default R = 0.8 h (h the body's nominal support): about half the terms of R = h (11
// instead of 21 a vertex at 1 cm spacing) for a normal error against the deformed surface 1.3-1.4 times
// that of R = h under a strong smooth deformation (docs/meshless.md); a vertex whose moment matrix is
// poorly conditioned at that radius still gets it enlarged.
#pragma once

#include "pliant/core/result.hpp"
#include "pliant/core/tri_mesh.hpp"
#include "pliant/core/types.hpp"
#include "pliant/models/meshless/mls_body.hpp"

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

namespace pliant::meshless {

struct SurfaceBindingDef {
  double radius = 0.0;         ///< fit radius R (unit: m); 0: 0.8 times the body's nominal support h
  double max_condition = 1e6;  ///< largest accepted condition number of the 4×4 moment matrix (dimensionless)
  double enlargement = 1.25;   ///< radius growth per try for a poorly conditioned vertex (dimensionless), > 1
  int max_enlargements = 8;    ///< tries before the bind fails
};

/// One term of a vertex's fit: the MLS shape function φ_j (dimensionless) and gradient g_j (unit: 1/m).
struct FitTerm {
  double phi = 0.0;
  double grad[3] = {0.0, 0.0, 0.0};
};

/// Which implementation of the update's loop runs: the one chosen for the CPU, the baseline x86-64 one,
/// or the AVX2 + FMA one (only where cpu_has_avx2_fma(); the others are for tests and benchmarks).
enum class SurfaceKernel { automatic, baseline, avx2 };

/// True when the running CPU can take SurfaceKernel::avx2.
bool cpu_has_avx2_fma();

class DrivenSurface {
 public:
  /// Binds every vertex of `surface` (rest positions, unit: m) to the phyxels of `body` at rest. Fails
  /// with a one-line message naming the first vertex whose neighbourhood stays degenerate.
  static Result<DrivenSurface> bind(const MlsBody& body, const TriMesh& surface,
                                    const SurfaceBindingDef& def = {});

  std::size_t vertex_count() const { return rest_.size(); }
  const std::vector<Vec3>& rest_positions() const { return rest_; }
  const std::vector<Vec3>& rest_normals() const { return normal_; }
  const std::vector<Tri>& triangles() const { return triangles_; }

  /// Positions (unit: m) and unit normals of the vertices for phyxel positions `x` (unit: m; the
  /// phyxels of the body bound, in its order). Both outputs have vertex_count() entries. Allocates
  /// nothing and writes nothing of the surface, so concurrent calls on one surface are safe.
  void update(std::span<const Vec3> x, std::span<Vec3> positions, std::span<Vec3> normals,
              SurfaceKernel kernel = SurfaceKernel::automatic) const;

  /// Adds force f (unit: N) applied at vertex v to the phyxel forces (unit: N, "#phyxels" entries).
  void scatter_force(Index v, const Vec3& f, std::span<Vec3> phyxel_force) const;
  /// Deformation gradient F at vertex v for phyxel positions x (dimensionless).
  Mat3 deformation_gradient(std::span<const Vec3> x, Index v) const;

  /// Removes from each vertex's fit the phyxels for which drop(vertex, phyxel) is true (a cut between
  /// them) and refits those vertices on the phyxels left: with the linear basis when the moment matrix
  /// is still well conditioned, else with Shepard weights w_j / Σ w (positions only, zero gradient; a
  /// vertex with no phyxel left stays at rest). Returns the number of vertices refitted. Allocates.
  Index refit_without(const MlsBody& body, const std::function<bool(Index, Index)>& drop);

  /// Appends a vertex at rest position X (unit: m) fitted to the phyxels `near` within radius R (unit:
  /// m): linear when the moment matrix is well conditioned, else Shepard weights. No triangle uses it
  /// until set_triangles. Returns its index. Allocates.
  Index add_vertex(const MlsBody& body, const Vec3& X, double R, std::span<const Index> near);
  /// Moves vertex v to rest position X and refits it in the same way. Allocates.
  void refit_vertex(Index v, const MlsBody& body, const Vec3& X, double R, std::span<const Index> near);
  /// Replaces the triangles (every vertex index below vertex_count()), recomputes the rest normals and
  /// increments topology_version(). Allocates.
  void set_triangles(std::vector<Tri> triangles);
  /// Removes the vertices `gone` (no triangle may use them), renumbering the others in order; returns
  /// the new index of each old vertex (-1 for one removed). Allocates.
  std::vector<Index> remove_vertices(std::span<const Index> gone);
  /// Incremented by every set_triangles (0 for a surface never cut).
  std::uint64_t topology_version() const { return topology_version_; }
  /// The fit radius of vertex v (unit: m).
  double radius(Index v) const { return radius_[static_cast<std::size_t>(v)]; }

  /// Phyxels weighing on vertex v, and their fit terms (φ_j, g_j), in the same order.
  std::span<const Index> phyxels(Index v) const;
  std::span<const FitTerm> terms(Index v) const;

 private:
  std::vector<Vec3> rest_, normal_;
  std::vector<Tri> triangles_;
  std::vector<Index> begin_, phyxel_;
  std::vector<FitTerm> term_;  // φ_j, g_j per fit entry
  // Per vertex: a (unit: m) and G (dimensionless, column-major) of the header's update formula.
  struct Frame {
    double offset[3];
    double g[9];
  };
  std::vector<Frame> frame_;
  std::vector<double> radius_;  // fit radius R per vertex (unit: m)
  double max_condition_ = 1e6;
  std::uint64_t topology_version_ = 0;

  void append_fit(const MlsBody& body, const Vec3& X, double R, const Eigen::Matrix4d& M,
                  std::span<const Index> near);
  // The linear fit on `near` when its moment matrix is well conditioned, else Shepard weights.
  void append_fit_or_shepard(const MlsBody& body, const Vec3& X, double R, std::span<const Index> near);
  // Recomputes frame_ for every vertex from its terms and the phyxels' rest positions.
  void compute_frames(const MlsBody& body);
  void compute_frame(const MlsBody& body, std::size_t v);
};

/// The first-order normal (I - Hᵀ) n, normalised, for the displacement gradient H_ab = ∂u_a/∂X_b.
Vec3 first_order_normal(const Mat3& H, const Vec3& n);

/// Area-weighted vertex normals of a triangle surface (unit vectors; zero for an unused vertex).
std::vector<Vec3> area_weighted_normals(std::span<const Vec3> positions, std::span<const Tri> triangles);

}  // namespace pliant::meshless
