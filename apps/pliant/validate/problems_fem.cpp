// The fem family's verification problems: patch tests, beams, Lamé's cylinder and the large-deformation
// closed forms. See problems.hpp and docs/validation.md.
#include "problems.hpp"
#include "static_equilibrium.hpp"

#include "pliant/core/topology.hpp"
#include "pliant/linalg/sparse_cholesky.hpp"
#include "pliant/materials/material.hpp"
#include "pliant/meshing/box.hpp"
#include "pliant/meshing/tube.hpp"
#include "pliant/models/fem/assembly/assembly.hpp"
#include "pliant/models/fem/assembly/dirichlet.hpp"
#include "pliant/models/fem/elements/stable_neo_hookean.hpp"
#include "pliant/models/fem/modal/modal_analysis.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <numbers>
#include <random>
#include <stdexcept>

namespace pliant::validate {
namespace {

using fem::ElementKind;
using linalg::SparseMatrix;
using materials::Material;

// A failed set-up is a bug of the catalogue, not a user error: it surfaces as a failed problem.
template <class T>
T must(Result<T> r, const char* what) {
  if (!r) throw std::runtime_error(std::string(what) + ": " + r.message());
  return std::move(r).value();
}

Material material(double youngs, double poisson, double density = 1000.0) {
  return must(materials::material_from_young_poisson(youngs, poisson, density), "material");
}

TetMesh box(Vec3 size, std::array<Index, 3> cells, meshing::CellSplit split = meshing::CellSplit::five) {
  meshing::BoxDef def;
  def.size = size;
  def.cells = cells;
  def.split = split;
  return must(meshing::box_mesh(def), "box mesh");
}

bool on_boundary(const Vec3& X, const Vec3& size) {
  const double eps = 1e-9 * size.maxCoeff();
  for (int d = 0; d < 3; ++d)
    if (X[d] < eps || X[d] > size[d] - eps) return true;
  return false;
}

// Moves the interior nodes by up to amount·h per coordinate (seeded): irregular tets.
void jitter(TetMesh& mesh, const Vec3& size, double h, double amount) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-amount * h, amount * h);
  for (Vec3& X : mesh.positions)
    if (!on_boundary(X, size)) X += Vec3(u(rng), u(rng), u(rng));
}

fem::FemForceModel model(const TetMesh& mesh, std::span<const Material> materials, ElementKind element) {
  fem::FemBodyDef def;
  def.element = element;
  return must(fem::FemForceModel::build(mesh, materials, def), "fem body");
}

std::string element_name(ElementKind e) {
  return e == ElementKind::stable_neo_hookean ? "neo_hookean" : fem::element_kind_name(e);
}

std::string element_method(ElementKind e) {
  switch (e) {
    case ElementKind::linear:
      return "linear tet";
    case ElementKind::corotational:
      return "corotational tet (Müller & Gross 2004)";
    case ElementKind::stvk:
      return "StVK tet";
    case ElementKind::stable_neo_hookean:
      return "stable Neo-Hookean tet (Smith, de Goes & Kim 2018)";
  }
  return "";
}

Problem make(std::string name, std::string method, std::string quantity, std::string source) {
  Problem p;
  p.name = std::move(name);
  p.family = "fem";
  p.method = std::move(method);
  p.quantity = std::move(quantity);
  p.reference_source = std::move(source);
  return p;
}

// ---------------------------------------------------------------- patch tests

Mat3 fixed_gradient(double size) {
  std::mt19937 rng(61);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Mat3 A = Mat3::Identity();
  for (double& a : A.reshaped()) a += size * u(rng);
  return A;
}

// ---------------------------------------------------------------- stable Neo-Hookean closed forms

// P = μ'(1 − 1/(I_C + 1)) F + λ'(J − α) cof F for a diagonal F = diag(l, s, s) (Smith et al. 2018):
// the diagonal entries (P11, P22).
std::pair<double, double> neo_hookean_diagonal(const Material& m, double l, double s) {
  const fem::StableNeoHookeanParameters q = fem::stable_neo_hookean_parameters(m);
  const double ic = l * l + 2 * s * s, J = l * s * s;
  const double a = q.mu * (1.0 - 1.0 / (ic + 1.0)), b = q.lambda * (J - q.alpha);
  return {a * l + b * s * s, a * s + b * l * s};
}

}  // namespace

Problem patch_test(ElementKind element, const Variant& variant) {
  const bool small = element == ElementKind::linear;
  Problem p =
      make("patch_test_" + element_name(element), element_method(element),
           small ? "largest interior deviation from the affine field / largest displacement (0.1 % strain)"
                 : "largest interior deviation from the affine field / largest displacement (20 % strain)",
           "analytic: an affine displacement is reproduced exactly (Irons & Razzaque 1972)");
  const Vec3 size(0.4, 0.3, 0.3);
  TetMesh mesh = box(size, {4, 3, 3});
  jitter(mesh, size, 0.1, 0.25);
  std::vector<Material> mats(mesh.tet_count(), material(1e6, 0.4));
  if (variant.youngs_scale != 1.0)
    for (std::size_t t = 1; t < mats.size(); t += 2) mats[t] = material(1e6 * variant.youngs_scale, 0.4);
  const fem::FemForceModel m = model(mesh, mats, element);
  const Mat3 A = fixed_gradient(small ? 1e-3 : 0.2);
  const Vec3 b(0.01, -0.02, 0.03);
  StaticProblem sp;
  sp.load_steps = small ? 1 : 10;
  sp.tolerance = 1e-13;
  sp.max_iterations = 200;
  for (std::size_t i = 0; i < mesh.node_count(); ++i) {
    const Vec3& X = mesh.positions[i];
    if (!on_boundary(X, size)) continue;
    const Vec3 x = A * X + b;
    for (int c = 0; c < 3; ++c) {
      sp.fixed_dofs.push_back(static_cast<Index>(3 * i + c));
      sp.fixed_targets.push_back(x[c]);
    }
  }
  const StaticSolution s = must(solve_static(m, mesh, sp), "patch test");
  double deviation = 0.0, displacement = 0.0;
  for (std::size_t i = 0; i < mesh.node_count(); ++i) {
    const Vec3& X = mesh.positions[i];
    const Vec3 x = A * X + b;
    if (on_boundary(X, size))
      displacement = std::max(displacement, (x - X).norm());
    else
      deviation = std::max(deviation, (s.positions[i] - x).norm());
  }
  p.measured = deviation / displacement;
  p.reference = 0.0;
  p.tolerance = 1e-8;
  finish(p);
  return p;
}

namespace {

constexpr double kBeamL = 1.0, kBeamB = 0.1, kBeamH = 0.1, kBeamP = 1000.0;  // m, m, m, N

// Mean tip deflection (unit: m, positive downwards) of the clamped beam of 10n × n × n cells under a
// uniform shear traction of resultant P on the tip face (consistent nodal loads).
double beam_deflection(Index n, const Material& m, meshing::CellSplit split = meshing::CellSplit::five) {
  const TetMesh mesh = box(Vec3(kBeamL, kBeamB, kBeamH), {10 * n, n, n}, split);
  const SparseMatrix K = fem::assemble_stiffness(mesh, m);
  std::vector<Index> clamped, tip;
  for (std::size_t i = 0; i < mesh.node_count(); ++i) {
    if (std::abs(mesh.positions[i].x()) < 1e-9) clamped.push_back(static_cast<Index>(i));
    if (std::abs(mesh.positions[i].x() - kBeamL) < 1e-9) tip.push_back(static_cast<Index>(i));
  }
  const fem::DofMap map = must(fem::DofMap::from_fixed_nodes(mesh, clamped), "clamp");
  Eigen::VectorXd f = Eigen::VectorXd::Zero(K.rows());
  const double traction = kBeamP / (kBeamB * kBeamH);
  for (const Tri& t : boundary_faces(mesh.tets)) {
    const Vec3 &a = mesh.positions[t[0]], &b = mesh.positions[t[1]], &c = mesh.positions[t[2]];
    if (std::abs(a.x() - kBeamL) > 1e-9 || std::abs(b.x() - kBeamL) > 1e-9 || std::abs(c.x() - kBeamL) > 1e-9)
      continue;
    const double area = 0.5 * (b - a).cross(c - a).norm();
    for (Index v : t) f[3 * v + 2] -= traction * area / 3.0;
  }
  const auto chol = must(linalg::SparseCholesky::factor(map.restrict_matrix(K)), "beam factor");
  const Eigen::VectorXd u = map.expand(chol.solve(map.restrict_vector(f)));
  double w = 0.0;
  for (Index v : tip) w -= u[3 * v + 2];
  return w / static_cast<double>(tip.size());
}

}  // namespace

Problem cantilever(CantileverCase which, const Variant& variant) {
  const bool compressible = which == CantileverCase::steel;
  const bool six = which == CantileverCase::nearly_incompressible_six;
  const auto split = six ? meshing::CellSplit::six : meshing::CellSplit::five;
  Problem p = make(
      compressible ? "cantilever_timoshenko"
      : six        ? "cantilever_nearly_incompressible_six"
                   : "cantilever_nearly_incompressible",
      six ? "linear tet, 6-tet (Kuhn) split, CHOLMOD" : "linear tet, 5-tet split, CHOLMOD",
      compressible ? "mean tip deflection (m), 1 m steel beam 0.1 m square, 1 kN tip shear"
                   : "mean tip deflection (m), 1 m beam 0.1 m square, E = 1 MPa, ν = 0.49, 1 kN tip shear",
      "Timoshenko beam theory, PL³/(3EI) + PL/(κGA), Cowper (1966) κ = 10(1+ν)/(12+11ν)");
  const double E0 = compressible ? 200e9 : 1e6, nu0 = compressible ? 0.3 : 0.49;
  const Material nominal = material(E0, nu0);
  const Material simulated = material(E0 * variant.youngs_scale, nu0);
  const double E = nominal.youngs_modulus(), nu = nominal.poisson_ratio(), G = nominal.mu;
  const double I = kBeamB * std::pow(kBeamH, 3) / 12.0, A = kBeamB * kBeamH;
  const double kappa = 10.0 * (1.0 + nu) / (12.0 + 11.0 * nu);
  p.reference = kBeamP * std::pow(kBeamL, 3) / (3.0 * E * I) + kBeamP * kBeamL / (kappa * G * A);
  const std::vector<Index> meshes = variant.coarse  ? std::vector<Index>{1, 2, 3}
                                    : variant.quick ? std::vector<Index>{2, 4, 6}
                                                    : std::vector<Index>{2, 4, 6, 8, 10};
  for (Index n : meshes) {
    p.measured = beam_deflection(n, simulated, split);
    p.series.h.push_back(kBeamH / n);
    p.series.error.push_back((p.measured - p.reference) / p.reference);
  }
  p.order = fitted_order(p.series);
  switch (which) {
    case CantileverCase::steel:
      // Linear tets are too stiff in bending; the finest mesh of the quick run (6 cells across) is
      // 5.8 % short, of the full run (10 across) 2.6 % (docs/accuracy.md).
      p.tolerance = variant.quick ? 0.07 : 0.035;
      break;
    case CantileverCase::nearly_incompressible:
      // Volumetric locking on top of bending: 9.7 % short at 6 cells across, 5.3 % at 10.
      p.tolerance = variant.quick ? 0.12 : 0.07;
      break;
    case CantileverCase::nearly_incompressible_six:
      // Kuhn's split locks (0.67 of the deflection at 12k nodes, docs/accuracy.md): reported, so the
      // table shows why box meshes default to the 5-tet split.
      p.tolerance = std::numeric_limits<double>::quiet_NaN();
      break;
  }
  finish(p);
  return p;
}

Problem lame_cylinder(const Variant& variant) {
  Problem p = make("lame_cylinder", "linear tet, tube mesher (6-tet prisms), CHOLMOD",
                   "mean radial displacement of the bore (m), a = 5 cm, b = 10 cm, p = 10 kPa, plane strain",
                   "analytic: Lamé (1852), u(r) = (1+ν) p a² / (E (b² − a²)) ((1 − 2ν) r + b²/r)");
  const double a = 0.05, b = 0.1, pressure = 1e4, length = 0.02, E = 1e6, nu = 0.3;
  const Material simulated = material(E * variant.youngs_scale, nu);
  p.reference = (1 + nu) * pressure * a * a / (E * (b * b - a * a)) * ((1 - 2 * nu) * a + b * b / a);
  std::vector<Index> levels = variant.coarse  ? std::vector<Index>{1, 2, 3}
                              : variant.quick ? std::vector<Index>{2, 4, 8}
                                              : std::vector<Index>{2, 4, 8, 16};
  for (Index k : levels) {
    meshing::TubeDef def;
    def.inner_radius = a;
    def.outer_radius = b;
    def.length = length;
    def.segments_around = 6 * k;
    def.segments_through = k;
    def.segments_along = std::max<Index>(1, k / 2);
    const TetMesh mesh = must(meshing::tube_mesh(def), "tube mesh");
    const SparseMatrix K = fem::assemble_stiffness(mesh, simulated);
    // Plane strain: no axial motion at the end faces; symmetry planes x = 0 and y = 0 hold the rigid
    // motions in the plane (the exact field is radial, so it satisfies them).
    std::vector<Index> fixed;
    std::vector<Index> bore;
    for (std::size_t i = 0; i < mesh.node_count(); ++i) {
      const Vec3& X = mesh.positions[i];
      const auto v = static_cast<Index>(i);
      if (X.z() < 1e-9 || X.z() > length - 1e-9) fixed.push_back(3 * v + 2);
      if (std::abs(X.y()) < 1e-9 * b) fixed.push_back(3 * v + 1);
      if (std::abs(X.x()) < 1e-9 * b) fixed.push_back(3 * v + 0);
      if (std::abs(X.head<2>().norm() - a) < 1e-9 * a) bore.push_back(v);
    }
    const fem::DofMap map = must(fem::DofMap::from_fixed_dofs(mesh, fixed), "cylinder constraints");
    Eigen::VectorXd f = Eigen::VectorXd::Zero(K.rows());
    for (const Tri& t : boundary_faces(mesh.tets)) {
      const Vec3 &x0 = mesh.positions[t[0]], &x1 = mesh.positions[t[1]], &x2 = mesh.positions[t[2]];
      bool inner = true;
      for (const Vec3* x : {&x0, &x1, &x2}) inner = inner && std::abs(x->head<2>().norm() - a) < 1e-9 * a;
      const Vec3 area_normal = 0.5 * (x1 - x0).cross(x2 - x0);  // outward, |.| = area
      if (!inner || std::abs(area_normal.z()) > 1e-9 * area_normal.norm()) continue;
      for (Index v : t) f.segment<3>(3 * v) -= pressure * area_normal / 3.0;  // pressure pushes into the wall
    }
    const auto chol = must(linalg::SparseCholesky::factor(map.restrict_matrix(K)), "cylinder factor");
    const Eigen::VectorXd u = map.expand(chol.solve(map.restrict_vector(f)));
    double ur = 0.0;
    for (Index v : bore) {
      const Vec3& X = mesh.positions[static_cast<std::size_t>(v)];
      ur += u.segment<3>(3 * v).head<2>().dot(X.head<2>().normalized());
    }
    p.measured = ur / static_cast<double>(bore.size());
    p.series.h.push_back((b - a) / k);
    p.series.error.push_back((p.measured - p.reference) / p.reference);
  }
  p.order = fitted_order(p.series);
  // The bore's polygon and the linear tets converge at about h²: 1.1 % short on the quick run's finest
  // mesh (8 cells through the wall), 0.3 % on the full run's (16).
  p.tolerance = variant.quick ? 0.015 : 0.005;
  finish(p);
  return p;
}

Problem cook_membrane(const Variant& variant) {
  const Index cells = variant.coarse ? 8 : variant.quick ? 32 : 64;
  Problem p = make(
      "cook_membrane",
      fmt::format("linear tet, 5-tet split, {0} × {0} cells, one through the thickness", cells),
      "vertical displacement of the tip corner C = (48, 60), E = 1, ν = 1/3, total shear 1 on the right "
      "edge, "
      "thickness 1 (consistent units)",
      "Cook (1974) geometry; converged plane-stress value 23.96 as quoted from Bergan & Felippa (1985) and "
      "Belytschko et al. (2014, Table 8.1) (reported, not checked: see docs/validation.md)");
  p.reference = 23.96;
  const Material simulated = material(1.0 * variant.youngs_scale, 1.0 / 3.0);
  for (Index n : {cells}) {
    // The unit square's grid mapped onto the trapezoid (0, 0), (48, 44), (48, 60), (0, 44): x = 48ξ,
    // y from the bottom edge 44ξ to the top edge 44 + 16ξ; a 1-thick slab with free faces (plane stress).
    TetMesh mesh = box(Vec3(1.0, 1.0, 1.0), {n, n, 1});
    for (Vec3& X : mesh.positions) {
      const double xi = X.x(), eta = X.y();
      X = Vec3(48.0 * xi, 44.0 * xi + eta * (44.0 + 16.0 * xi - 44.0 * xi), X.z());
    }
    const SparseMatrix K = fem::assemble_stiffness(mesh, simulated);
    std::vector<Index> clamped, corner;
    for (std::size_t i = 0; i < mesh.node_count(); ++i) {
      const Vec3& X = mesh.positions[i];
      if (X.x() < 1e-9) clamped.push_back(static_cast<Index>(i));
      if (std::abs(X.x() - 48.0) < 1e-9 && std::abs(X.y() - 60.0) < 1e-9)
        corner.push_back(static_cast<Index>(i));
    }
    const fem::DofMap map = must(fem::DofMap::from_fixed_nodes(mesh, clamped), "clamp");
    Eigen::VectorXd f = Eigen::VectorXd::Zero(K.rows());
    const double traction = 1.0 / 16.0;  // total 1 over the 16 × 1 right face
    for (const Tri& t : boundary_faces(mesh.tets)) {
      const Vec3 &a = mesh.positions[t[0]], &b = mesh.positions[t[1]], &c = mesh.positions[t[2]];
      if (std::abs(a.x() - 48.0) > 1e-9 || std::abs(b.x() - 48.0) > 1e-9 || std::abs(c.x() - 48.0) > 1e-9)
        continue;
      const double area = 0.5 * (b - a).cross(c - a).norm();
      for (Index v : t) f[3 * v + 1] += traction * area / 3.0;
    }
    const auto chol = must(linalg::SparseCholesky::factor(map.restrict_matrix(K)), "Cook factor");
    const Eigen::VectorXd u = map.expand(chol.solve(map.restrict_vector(f)));
    double uy = 0.0;
    for (Index v : corner) uy += u[3 * v + 1];
    p.measured = uy / static_cast<double>(corner.size());
  }
  // Reported: the tets converge to about 25.0 (64 cells: 24.92, still rising), and so does an independent
  // 2D plane-stress constant-strain-triangle solution of the same set-up (24.79 at 64 × 64), 4 % above
  // the quoted value; until the published set-up is confirmed the gap is shown, not checked.
  p.tolerance = std::numeric_limits<double>::quiet_NaN();
  finish(p);
  return p;
}

namespace {

// Cube of side 0.1 m on a jittered 4×4×4 grid, the large-deformation problems' body.
constexpr double kCube = 0.1;
TetMesh cube() {
  TetMesh mesh = box(Vec3::Constant(kCube), {4, 4, 4});
  jitter(mesh, Vec3::Constant(kCube), kCube / 4, 0.2);
  return mesh;
}

}  // namespace

Problem uniaxial_stretch(ElementKind element, const Variant& variant) {
  const double stretch = 1.5;
  const Material nominal = material(1e6, 0.3);
  const Material simulated = material(1e6 * variant.youngs_scale, 0.3);
  const bool neo = element == ElementKind::stable_neo_hookean;
  Problem p = make("uniaxial_stretch_" + element_name(element), element_method(element),
                   "nominal stress P11 (Pa) at stretch 1.5, E = 1 MPa, ν = 0.3, lateral faces free",
                   neo ? "analytic: stable Neo-Hookean P(F) (Smith, de Goes & Kim 2018), F = diag(λ, s, s), "
                         "s from P22 = 0"
                       : "analytic: corotational P = R σ(RᵀF − I) with R = I, P11 = E (λ − 1)");
  if (neo) {
    // Lateral stretch s from P22(s) = 0 by bisection on (0, 1] (P22 rises with s for this energy).
    double lo = 0.2, hi = 1.0;
    for (int it = 0; it < 200; ++it) {
      const double mid = 0.5 * (lo + hi);
      (neo_hookean_diagonal(nominal, stretch, mid).second > 0 ? hi : lo) = mid;
    }
    p.reference = neo_hookean_diagonal(nominal, stretch, 0.5 * (lo + hi)).first;
  } else {
    p.reference = nominal.youngs_modulus() * (stretch - 1.0);
  }
  const TetMesh mesh = cube();
  const fem::FemForceModel m = model(mesh, std::span(&simulated, 1), element);
  StaticProblem sp;
  std::vector<Index> end;
  for (std::size_t i = 0; i < mesh.node_count(); ++i) {
    const Vec3& X = mesh.positions[i];
    const auto v = static_cast<Index>(i);
    for (int c = 0; c < 3; ++c)
      if (X[c] < 1e-9) sp.fixed_dofs.push_back(3 * v + c), sp.fixed_targets.push_back(0.0);
    if (X.x() > kCube - 1e-9) {
      sp.fixed_dofs.push_back(3 * v), sp.fixed_targets.push_back(stretch * kCube);
      end.push_back(v);
    }
  }
  const StaticSolution s = must(solve_static(m, mesh, sp), "uniaxial stretch");
  double force = 0.0;
  for (Index v : end) force -= s.forces[static_cast<std::size_t>(v)].x();  // the reaction holding the face
  p.measured = force / (kCube * kCube);
  p.tolerance = 1e-6;
  finish(p);
  return p;
}

Problem simple_shear(ElementKind element, const Variant& variant) {
  const double gamma = 0.5;
  const Material nominal = material(1e6, 0.3);
  const Material simulated = material(1e6 * variant.youngs_scale, 0.3);
  const bool neo = element == ElementKind::stable_neo_hookean;
  Problem p =
      make("simple_shear_" + element_name(element), element_method(element),
           "mean shear stress P12 (Pa) from the boundary reactions, γ = 0.5, E = 1 MPa, ν = 0.3",
           neo ? "analytic: stable Neo-Hookean (Smith, de Goes & Kim 2018), P12 = μ'(1 − 1/(4 + γ²)) γ"
               : "analytic: corotational P = R σ(U − I), polar decomposition of simple shear, "
                 "tan θ = γ/2");
  if (neo) {
    p.reference =
        fem::stable_neo_hookean_parameters(nominal).mu * (1.0 - 1.0 / (4.0 + gamma * gamma)) * gamma;
  } else {
    // F = [[1, γ], [0, 1]] = R U with R = [[c, s], [−s, c]], c = 2/k, s = γ/k, k = √(4 + γ²), and
    // U = [[2, γ], [γ, 2 + γ²]]/k; ε = U − I (ε33 = 0); P12 = c σ12 + s σ22.
    const double k = std::sqrt(4.0 + gamma * gamma), c = 2.0 / k, s = gamma / k;
    const double tr = k - 2.0, mu = nominal.mu, lambda = nominal.lambda;
    const double s12 = 2.0 * mu * gamma / k, s22 = lambda * tr + 2.0 * mu * ((2.0 + gamma * gamma) / k - 1.0);
    p.reference = c * s12 + s * s22;
  }
  const TetMesh mesh = cube();
  const fem::FemForceModel m = model(mesh, std::span(&simulated, 1), element);
  Mat3 F = Mat3::Identity();
  F(0, 1) = gamma;
  StaticProblem sp;
  for (std::size_t i = 0; i < mesh.node_count(); ++i) {
    const Vec3& X = mesh.positions[i];
    if (!on_boundary(X, Vec3::Constant(kCube))) continue;
    const Vec3 x = F * X;
    for (int c = 0; c < 3; ++c)
      sp.fixed_dofs.push_back(static_cast<Index>(3 * i + c)), sp.fixed_targets.push_back(x[c]);
  }
  const StaticSolution s = must(solve_static(m, mesh, sp), "simple shear");
  // Mean first Piola stress from the boundary reactions r_a = −f_a: (1/V) Σ r_a X_aᵀ (for linear tets
  // Σ_a ∇N_a X_aᵀ = I, so this is the volume average of P, exact for any mesh).
  double p12 = 0.0;
  for (std::size_t i = 0; i < mesh.node_count(); ++i) p12 -= s.forces[i].x() * mesh.positions[i].y();
  p.measured = p12 / std::pow(kCube, 3);
  p.tolerance = 1e-6;
  finish(p);
  return p;
}

Problem rigid_rotation(ElementKind element, double degrees, const Variant& variant) {
  Problem p =
      make(fmt::format("rigid_rotation_{:.0f}_{}", degrees, element_name(element)), element_method(element),
           fmt::format("largest node force after a {:.0f}° rotation / that of a 1 % stretch", degrees),
           "analytic: a rigid motion is stress free (frame indifference)");
  const Material simulated = material(1e6 * variant.youngs_scale, 0.3);
  const TetMesh mesh = cube();
  const fem::FemForceModel m = model(mesh, std::span(&simulated, 1), element);
  const std::size_t n = mesh.node_count();
  std::vector<Vec3> x(n), v(n, Vec3::Zero()), f(n);
  const auto largest = [&] {
    m.forces(x, v, f);
    double most = 0.0;
    for (const Vec3& fi : f) most = std::max(most, fi.norm());
    return most;
  };
  for (std::size_t i = 0; i < n; ++i) x[i] = mesh.positions[i] + Vec3(0.01 * mesh.positions[i].x(), 0, 0);
  const double scale = largest();
  const Mat3 Q =
      Eigen::AngleAxisd(degrees * std::numbers::pi / 180.0, Vec3(1, 2, 3).normalized()).toRotationMatrix();
  for (std::size_t i = 0; i < n; ++i) x[i] = Q * mesh.positions[i] + Vec3(0.3, -0.1, 0.2);
  p.measured = largest() / scale;
  p.reference = 0.0;
  p.tolerance = 1e-9;
  finish(p);
  return p;
}

Extrapolation richardson(const std::array<double, 3>& h, const std::array<double, 3>& f) {
  // f = f∞ + C h^p through the three points: p from the values alone (self-convergence, independent of
  // any reference), by bisection on (h1^p − h2^p)/(h2^p − h3^p) = (f1 − f2)/(f2 − f3), which rises with p.
  const double target = (f[0] - f[1]) / (f[1] - f[2]);
  double lo = 0.1, hi = 10.0;
  for (int it = 0; it < 200; ++it) {
    const double mid = 0.5 * (lo + hi);
    const double g =
        (std::pow(h[0], mid) - std::pow(h[1], mid)) / (std::pow(h[1], mid) - std::pow(h[2], mid));
    (g < target ? lo : hi) = mid;
  }
  Extrapolation e;
  e.order = 0.5 * (lo + hi);
  const double C = (f[1] - f[2]) / (std::pow(h[1], e.order) - std::pow(h[2], e.order));
  e.value = f[2] - C * std::pow(h[2], e.order);
  return e;
}

Problem beam_frequency(int mode, const Variant& variant) {
  const double beta_l = mode == 0 ? 1.875104 : 4.694091;
  Problem p = make(
      mode == 0 ? "beam_frequency_1" : "beam_frequency_2",
      "linear tet, 5-tet split, consistent mass, shift-invert Lanczos; Richardson-extrapolated from 3 meshes",
      fmt::format("{} bending frequency (Hz), clamped steel beam 1 m, 5 cm square",
                  mode == 0 ? "first" : "second"),
      "analytic: Euler-Bernoulli, f = (βL)²/(2πL²) √(EI/(ρA)), βL = " + fmt::format("{}", beta_l));
  const double L = 1.0, a = 0.05;
  const Material nominal = must(materials::material_preset("steel"), "steel");
  Material simulated = nominal;
  simulated.lambda *= variant.youngs_scale;
  simulated.mu *= variant.youngs_scale;
  p.reference = beta_l * beta_l * a * std::sqrt(nominal.youngs_modulus() / (12.0 * nominal.density)) /
                (2.0 * std::numbers::pi * L * L);
  // Three meshes in the asymptotic range (2, 3, 4 cells across are not: their self-convergence order
  // is 1.6 and the extrapolation lands 2.4 % and 3.7 % low).
  const std::vector<Index> across =
      variant.coarse ? std::vector<Index>{2, 3, 4} : std::vector<Index>{4, 6, 8};
  std::vector<double> f;
  for (Index c : across) {
    const TetMesh mesh = box(Vec3(L, a, a), {10 * c, c, c});
    std::vector<Index> clamped;
    for (std::size_t i = 0; i < mesh.node_count(); ++i)
      if (mesh.positions[i].x() < 1e-9) clamped.push_back(static_cast<Index>(i));
    fem::ModalAnalysisDef def;
    def.modes = 4;
    const fem::ModalBasis basis =
        must(fem::modal_analysis(mesh, std::span(&simulated, 1), clamped, def), "modal");
    const Eigen::VectorXd hz = basis.frequencies_hz();
    // The two bending directions of a square section are degenerate: their mean.
    f.push_back(0.5 * (hz[2 * mode] + hz[2 * mode + 1]));
    p.series.h.push_back(a / c);
    p.series.error.push_back((f.back() - p.reference) / p.reference);
  }
  const Extrapolation limit = richardson({p.series.h[0], p.series.h[1], p.series.h[2]}, {f[0], f[1], f[2]});
  p.order = limit.order;
  p.measured = limit.value;
  // Linear tets approach from above at about O(h²); Euler-Bernoulli ignores shear and rotary inertia,
  // which lower the true f2 of this L/a = 20 beam by about 1 % (measured: −0.2 % and −1.4 %).
  p.tolerance = mode == 0 ? 0.01 : 0.02;
  finish(p);
  return p;
}

}  // namespace pliant::validate
