// Disc membrane with exact node and rim-node counts: concentric rings zipped into triangles, then made
// Delaunay by Lawson flips (see delaunay_flip.hpp). Since all rim nodes are on the convex hull and the
// triangulation covers the disc, Euler's formula fixes the edge and triangle counts
// (E = 3V − 3 − B, F = 2V − 2 − B); only the node placement is a design choice, and it aims at
// nearly equilateral triangles of one size.
#include "pliant/meshing/disc_membrane.hpp"

#include "meshing/delaunay_flip.hpp"
#include "meshing/detail.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace pliant::meshing {

namespace {

// Nodes per unit ring index of concentric rings spaced Δ apart whose triangles are equilateral:
// a ring of radius kΔ holds 2πkΔ / t nodes with tangential spacing t = 2Δ/√3, i.e. π√3·k.
constexpr double kIdealRingFactor = std::numbers::pi * 1.7320508075688772;

// Interior nodes (centre included) of a disc meshed uniformly at its rim spacing t_B = 2πR/B: the
// disc's area over the area per node of the equilateral lattice (√3/2 t_B²), i.e. B² / (2π√3).
double ideal_interior(Index boundary_nodes) {
  const double b = boundary_nodes;
  return b * b / (2.0 * std::numbers::pi * 1.7320508075688772);
}

// The admissible interior-node range as a multiple of ideal_interior(B): beyond it the rings and the
// rim differ in spacing by more than ~1.8× and the minimum angle drops below the bound the tests use.
constexpr double kMinInteriorRatio = 0.3;
constexpr double kMaxInteriorRatio = 3.0;

// Appends the ring's nodes: `count` nodes at `radius`, starting at angle `phase` (unit: rad).
void add_ring(std::vector<Vec3>& positions, const Vec3& center, double radius, Index count, double phase) {
  for (Index m = 0; m < count; ++m) {
    const double angle = phase + 2.0 * std::numbers::pi * static_cast<double>(m) / static_cast<double>(count);
    positions.push_back(center + radius * Vec3(std::cos(angle), std::sin(angle), 0.0));
  }
}

double angle_of(const Vec3& p, const Vec3& center) {
  return std::atan2(p.y() - center.y(), p.x() - center.x());
}

// Triangulates the annulus between the inner ring [a0, a0 + na) and the outer ring [b0, b0 + nb) by
// merging the two angular sequences: na + nb counter-clockwise triangles.
void zip_rings(const std::vector<Vec3>& positions, const Vec3& center, Index a0, Index na, Index b0, Index nb,
               std::vector<Tri>& out) {
  const double two_pi = 2.0 * std::numbers::pi;
  const double alpha0 = angle_of(positions[a0], center);
  // Start the outer sequence at the outer node closest in angle to the first inner node.
  Index start = 0;
  double best = two_pi;
  for (Index m = 0; m < nb; ++m) {
    double d = std::remainder(angle_of(positions[b0 + m], center) - alpha0, two_pi);
    if (std::abs(d) < best) best = std::abs(d), start = m;
  }
  // Unwrapped angles relative to alpha0, increasing along each sequence.
  // The rings are regular polygons, so node i of the inner ring sits at alpha0 + 2πi/na.
  const auto inner = [&](Index i) { return two_pi * static_cast<double>(i) / static_cast<double>(na); };
  const double outer_base = std::remainder(angle_of(positions[b0 + start], center) - alpha0, two_pi);
  const auto outer = [&](Index j) {
    return outer_base + two_pi * static_cast<double>(j) / static_cast<double>(nb);
  };
  const auto a = [&](Index i) { return a0 + i % na; };
  const auto b = [&](Index j) { return b0 + (start + j) % nb; };
  Index i = 0, j = 0;
  while (i < na || j < nb) {
    const bool advance_inner = j == nb || (i < na && inner(i + 1) < outer(j + 1));
    if (advance_inner) {
      out.push_back({a(i), b(j), a(i + 1)});
      ++i;
    } else {
      out.push_back({a(i), b(j), b(j + 1)});
      ++j;
    }
  }
}

}  // namespace

std::pair<Index, Index> disc_membrane_node_range(Index boundary_nodes) {
  const double ideal = ideal_interior(boundary_nodes);
  const Index lo = static_cast<Index>(std::max(1.0, std::ceil(kMinInteriorRatio * ideal)));
  const Index hi =
      static_cast<Index>(std::max(static_cast<double>(lo), std::floor(kMaxInteriorRatio * ideal)));
  return {boundary_nodes + lo, boundary_nodes + hi};
}

Result<TriMesh> disc_membrane(const DiscMembraneDef& def) {
  for (int a = 0; a < 3; ++a) {
    static const char* kField[3] = {"center.x", "center.y", "center.z"};
    if (auto e = detail::require_finite("disc", kField[a], def.center[a])) return *e;
  }
  if (auto e = detail::require_positive("disc", "radius", def.radius)) return *e;
  if (auto e = detail::require_at_least("disc", "boundary_nodes", def.boundary_nodes, 6)) return *e;
  if (auto e = detail::require_element_budget("disc", 2.0L * def.nodes)) return *e;
  const auto [lo, hi] = disc_membrane_node_range(def.boundary_nodes);
  if (def.nodes < lo || def.nodes > hi) {
    return Error{
        "disc: nodes must be between " + std::to_string(lo) + " and " + std::to_string(hi) + " for " +
        std::to_string(def.boundary_nodes) + " boundary nodes (got " + std::to_string(def.nodes) +
        "); outside that range the rim and interior spacings differ too much for well-shaped triangles"};
  }
  const Index interior = def.nodes - def.boundary_nodes;  // centre node included
  const Index ring_nodes = interior - 1;
  if (ring_nodes == 1 || ring_nodes == 2) {
    return Error{
        "disc: nodes − boundary_nodes must be 1 or at least 4 (a centre node plus a ring of ≥ 3; got " +
        std::to_string(interior) + ")"};
  }
  const double two_pi = 2.0 * std::numbers::pi;

  // Choose the number of interior rings K: ring k holds about c·k nodes (c = 2·ring_nodes / (K(K+1)));
  // prefer c near the equilateral factor and the rim's count near the next ring's c·(K + 1).
  Index rings = 0;
  double c = 0;
  if (ring_nodes > 0) {
    double best = 1e300;
    for (Index k = 1; 3.0 * k * (k + 1) <= 2.0 * ring_nodes; ++k) {
      const double ck = 2.0 * ring_nodes / (static_cast<double>(k) * (k + 1));
      const double score =
          std::abs(std::log(ck / kIdealRingFactor)) + std::abs(std::log(def.boundary_nodes / (ck * (k + 1))));
      if (score < best) best = score, rings = k, c = ck;
    }
    if (rings == 0) rings = 1, c = ring_nodes;  // fewer than 6 ring nodes: a single ring
  }
  // Ring counts floor(c·k), the remainder handed to the rings with the largest fractional parts.
  std::vector<Index> count(static_cast<std::size_t>(rings));
  std::vector<std::pair<double, Index>> fraction;
  Index assigned = 0;
  for (Index k = 1; k <= rings; ++k) {
    const double exact = c * k;
    count[k - 1] = static_cast<Index>(std::floor(exact));
    assigned += count[k - 1];
    fraction.emplace_back(exact - std::floor(exact), k - 1);
  }
  std::sort(fraction.begin(), fraction.end(), [](const auto& x, const auto& y) {
    return x.first != y.first ? x.first > y.first : x.second > y.second;
  });
  for (Index r = 0; assigned < ring_nodes; ++r, ++assigned) ++count[fraction[r % rings].second];

  // Radii: rings kΔ, then a gap to the rim of √3/2 times the mean of the interior and rim spacings.
  const double rim_spacing = two_pi * def.radius / def.boundary_nodes;
  const double root3 = std::sqrt(3.0);
  const double delta =
      rings == 0 ? 0.0
                 : (def.radius - root3 / 4.0 * rim_spacing) / (rings + root3 / 2.0 * std::numbers::pi / c);

  TriMesh mesh;
  mesh.positions.reserve(static_cast<std::size_t>(def.nodes));
  mesh.positions.push_back(def.center);
  std::vector<Index> first{0};  // first node of each ring; ring 0 is the centre
  std::vector<Index> size{1};
  for (Index k = 1; k <= rings; ++k) {
    first.push_back(static_cast<Index>(mesh.positions.size()));
    size.push_back(count[k - 1]);
    // Stagger neighbouring rings by half a spacing so zipped triangles start out near equilateral.
    add_ring(mesh.positions, def.center, k * delta, count[k - 1], (k % 2) * std::numbers::pi / count[k - 1]);
  }
  first.push_back(static_cast<Index>(mesh.positions.size()));
  size.push_back(def.boundary_nodes);
  add_ring(mesh.positions, def.center, def.radius, def.boundary_nodes,
           ((rings + 1) % 2) * std::numbers::pi / def.boundary_nodes);

  mesh.triangles.reserve(static_cast<std::size_t>(2 * def.nodes - 2 - def.boundary_nodes));
  for (Index m = 0; m < size[1]; ++m) {
    mesh.triangles.push_back({0, first[1] + m, first[1] + (m + 1) % size[1]});
  }
  for (std::size_t k = 1; k + 1 < first.size(); ++k) {
    zip_rings(mesh.positions, def.center, first[k], size[k], first[k + 1], size[k + 1], mesh.triangles);
  }
  detail::make_delaunay(mesh.positions, mesh.triangles);
  return mesh;
}

Result<TriMesh> disc_membrane(double radius, Index nodes, Index boundary_nodes) {
  DiscMembraneDef def;
  def.radius = radius;
  def.nodes = nodes;
  def.boundary_nodes = boundary_nodes;
  return disc_membrane(def);
}

}  // namespace pliant::meshing
