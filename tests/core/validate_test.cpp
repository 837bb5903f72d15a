#include "pliant/core/validate.hpp"

#include "pliant/core/aabb.hpp"
#include "pliant/core/topology.hpp"

#include "core/test_meshes.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace pliant {
namespace {

// The findings with one code.
std::vector<Finding> with_code(const ValidationReport& r, const std::string& code) {
  std::vector<Finding> out;
  for (const Finding& f : r.findings)
    if (f.code == code) out.push_back(f);
  return out;
}

std::string all_messages(const ValidationReport& r) {
  std::string s;
  for (const Finding& f : r.findings)
    s += std::string(to_string(f.severity)) + " " + f.code + ": " + f.message + "\n";
  return s;
}

TEST(Validate, CleanBoxHasNoFindings) {
  TetMesh m = test::structured_box(3, 3, 3, 0.01);
  const ValidationReport r = validate(m);
  EXPECT_TRUE(r.ok());
  EXPECT_TRUE(r.findings.empty()) << all_messages(r);
  EXPECT_EQ(r.first_error(), "");
  TriMesh s = test::sphere_surface(2);
  ValidateOptions closed;
  closed.require_closed = true;
  const ValidationReport rs = validate(s, closed);
  EXPECT_TRUE(rs.findings.empty()) << all_messages(rs);
}

TEST(Validate, IndexOutOfRangeAndRepeatedNode) {
  TetMesh m = test::structured_box(2, 1, 1);
  m.tets[5][2] = 9001;
  m.tets[7][3] = m.tets[7][0];
  const ValidationReport r = validate(m);
  EXPECT_FALSE(r.ok());
  const auto oor = with_code(r, "index_out_of_range");
  ASSERT_EQ(oor.size(), 1u);
  EXPECT_EQ(oor[0].element, 5);
  EXPECT_EQ(oor[0].message, "tet 5: node 9001 out of range (" + std::to_string(m.node_count()) + " nodes)");
  const auto rep = with_code(r, "repeated_node");
  ASSERT_EQ(rep.size(), 1u);
  EXPECT_EQ(rep[0].element, 7);
  EXPECT_EQ(r.first_error(), oor[0].message);
}

TEST(Validate, NonFiniteCoordinate) {
  TetMesh m = test::structured_box(1, 1, 1);
  m.positions[3].y() = std::nan("");
  const ValidationReport r = validate(m);
  const auto f = with_code(r, "non_finite");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].element, 3);
  EXPECT_EQ(f[0].message.rfind("node 3: non-finite coordinate (1, nan, 0)", 0), 0u) << f[0].message;
  EXPECT_FALSE(r.ok());
}

TEST(Validate, InvertedTetIsReportedOrReoriented) {
  TetMesh m = test::structured_box(2, 2, 1, 0.1);
  std::swap(m.tets[4][0], m.tets[4][1]);
  const TetMesh before = m;
  const ValidationReport r = validate(static_cast<const TetMesh&>(m));
  const auto inv = with_code(r, "inverted");
  ASSERT_EQ(inv.size(), 1u);
  EXPECT_EQ(inv[0].element, 4);
  EXPECT_EQ(inv[0].message, "tet 4: inverted (volume -0.000167 m³)");
  // Boundary detection works on node sets, so the inverted tet causes no other finding.
  EXPECT_EQ(r.errors, 1) << all_messages(r);

  ValidateOptions fix;
  fix.reorient = true;
  const ValidationReport rf = validate(m, fix);
  EXPECT_TRUE(rf.ok()) << all_messages(rf);
  EXPECT_EQ(rf.count("reoriented"), 1);
  const auto& x = m.positions;
  for (const Tet& t : m.tets) EXPECT_GT(signed_volume(x[t[0]], x[t[1]], x[t[2]], x[t[3]]), 0);
  EXPECT_NE(m.tets[4], before.tets[4]);
  EXPECT_TRUE(validate(m).findings.empty());
}

TEST(Validate, DegenerateTetNamesRatio) {
  TetMesh m = test::structured_box(1, 1, 1);
  // An extra tet on nodes 0, 1, 2, 3: the cube's bottom face, coplanar.
  m.tets.push_back({0, 1, 2, 3});
  const ValidationReport r = validate(m);
  const auto d = with_code(r, "degenerate");
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].element, 6);
  EXPECT_NE(d[0].message.find("tet 6: degenerate (volume 0 m³"), std::string::npos) << d[0].message;
  // A tet flat to 1e-9 relative is degenerate at the default threshold, 1e-6 is not.
  for (double h : {1e-9, 1e-6}) {
    TetMesh t;
    t.positions = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0.3, 0.3, h)};
    t.tets = {{0, 1, 2, 3}};
    EXPECT_EQ(validate(t).count("degenerate"), h < 1e-8 ? 1 : 0) << h;
  }
}

TEST(Validate, DuplicateNodesFoundBySpatialHash) {
  TetMesh m = test::structured_box(4, 4, 4, 0.25);
  // Two separate near-duplicates within 1e-9 m of existing nodes, unreferenced.
  m.positions.push_back(m.positions[17] + Vec3(1e-9, 0, 0));
  m.positions.push_back(m.positions[60] + Vec3(0, -2e-9, 1e-9));
  // Not a duplicate: 1e-3 m away.
  m.positions.push_back(m.positions[30] + Vec3(0, 1e-3, 0));
  const ValidationReport r = validate(m);
  EXPECT_TRUE(r.ok());
  const auto d = with_code(r, "duplicate_node");
  ASSERT_EQ(d.size(), 2u) << all_messages(r);
  EXPECT_EQ(d[0].element, 125);
  EXPECT_NE(d[0].message.find("node 125: duplicates node 17"), std::string::npos) << d[0].message;
  EXPECT_EQ(d[1].element, 126);
  EXPECT_NE(d[1].message.find("duplicates node 60"), std::string::npos);
  const auto u = with_code(r, "unreferenced_node");
  ASSERT_EQ(u.size(), 3u);
  EXPECT_EQ(u[0].message, "node 125: not used by any tet");
}

TEST(Validate, DuplicateNodesOnCellBoundariesAndManyCoincident) {
  // Pairs straddling every kind of cell boundary: brute force comparison over random clouds.
  std::mt19937 rng(4);
  std::uniform_real_distribution<double> u(0, 1), e(-1, 1);
  TriMesh m;
  for (int i = 0; i < 2000; ++i) m.positions.push_back(Vec3(u(rng), u(rng), u(rng)));
  for (int i = 0; i < 300; ++i)
    m.positions.push_back(m.positions[i * 3] + 5e-8 * Vec3(e(rng), e(rng), e(rng)));
  m.triangles = {{0, 1, 2}};
  ValidateOptions o;
  o.max_findings_per_code = 1000000;
  const ValidationReport r = validate(m, o);
  const double tol = o.duplicate_tolerance * bounding_box(m.positions).diagonal();
  Index brute = 0;
  for (std::size_t i = 0; i < m.positions.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if ((m.positions[i] - m.positions[j]).norm() <= tol) {
        ++brute;
        break;
      }
  EXPECT_EQ(r.count("duplicate_node"), brute);
  EXPECT_GE(brute, 250);
  // 100000 coincident nodes: linear time, and capped findings.
  TriMesh same;
  same.positions.assign(100000, Vec3(1, 2, 3));
  same.positions.push_back(Vec3(2, 2, 3));
  same.triangles = {{0, 1, 100000}};
  const ValidationReport rs = validate(same);
  EXPECT_EQ(rs.count("duplicate_node"), 99999);
  EXPECT_EQ(with_code(rs, "duplicate_node").size(), 21u);  // 20 + "... and 99979 more"
  EXPECT_EQ(with_code(rs, "duplicate_node").back().message, "... and 99979 more duplicate_node findings");
}

TEST(Validate, NonManifoldFaceAndEdgeAndComponents) {
  // Two cubes sharing only an edge: one component, and the shared edge lies on 4 boundary faces.
  TetMesh a = test::structured_box(1, 1, 1);
  TetMesh b = test::structured_box(1, 1, 1, 1.0, Vec3(1, 1, 0));
  // b's nodes (0,0,*) at (1,1,0) and (1,1,1) coincide with a's nodes 3 and 7: reuse them.
  const Index offset = static_cast<Index>(a.node_count());
  std::vector<Index> map(b.node_count());
  for (std::size_t i = 0; i < b.node_count(); ++i) {
    map[i] = -1;
    for (std::size_t j = 0; j < a.node_count(); ++j)
      if ((a.positions[j] - b.positions[i]).norm() < 1e-12) map[i] = static_cast<Index>(j);
  }
  Index next = offset;
  for (std::size_t i = 0; i < b.node_count(); ++i)
    if (map[i] < 0) {
      map[i] = next++;
      a.positions.push_back(b.positions[i]);
    }
  for (Tet t : b.tets) {
    for (Index& v : t) v = map[v];
    a.tets.push_back(t);
  }
  ValidationReport r = validate(a);
  EXPECT_TRUE(r.ok()) << all_messages(r);
  const auto nm = with_code(r, "non_manifold_edge");
  ASSERT_EQ(nm.size(), 1u) << all_messages(r);
  EXPECT_EQ(nm[0].message, "edge (3, 7): shared by 4 boundary faces (non-manifold)");
  EXPECT_EQ(r.count("components"), 0);

  // A third tet glued onto an interior face pair makes a face shared by 3 tets.
  TetMesh c = test::structured_box(1, 1, 1);
  const auto faces = boundary_faces(c.tets);
  c.positions.push_back(Vec3(0.5, 0.5, 0.5) + Vec3(0.01, 0.02, 0.03));
  // Find an interior face: a face of tet 0 that is not on the boundary.
  std::array<Index, 3> inner{};
  for (int k = 0; k < 4; ++k) {
    std::array<Index, 3> f;
    for (int i = 0, n = 0; i < 4; ++i)
      if (i != k) f[n++] = c.tets[0][i];
    bool on_boundary = false;
    for (const Tri& bf : faces) {
      std::array<Index, 3> s = bf, g = f;
      std::sort(s.begin(), s.end());
      std::sort(g.begin(), g.end());
      on_boundary |= s == g;
    }
    if (!on_boundary) inner = f;
  }
  c.tets.push_back({inner[0], inner[1], inner[2], 8});
  r = validate(static_cast<const TetMesh&>(c));
  const auto nf = with_code(r, "non_manifold_face");
  ASSERT_EQ(nf.size(), 1u) << all_messages(r);
  EXPECT_NE(nf[0].message.find("shared by 3 tets"), std::string::npos);

  // Two disjoint boxes: a components warning with the node counts.
  TetMesh d = test::structured_box(2, 1, 1);
  const TetMesh e = test::structured_box(1, 1, 1, 1.0, Vec3(9, 0, 0));
  const Index off = static_cast<Index>(d.node_count());
  d.positions.insert(d.positions.end(), e.positions.begin(), e.positions.end());
  for (Tet t : e.tets) {
    for (Index& v : t) v += off;
    d.tets.push_back(t);
  }
  r = validate(d);
  EXPECT_TRUE(r.ok());
  const auto comp = with_code(r, "components");
  ASSERT_EQ(comp.size(), 1u);
  EXPECT_EQ(comp[0].message, "mesh has 2 connected components (node counts 12, 8)");
  EXPECT_EQ(comp[0].severity, Severity::warning);
}

TEST(Validate, DuplicateTet) {
  TetMesh m = test::structured_box(1, 1, 1);
  m.tets.push_back({m.tets[2][1], m.tets[2][0], m.tets[2][3], m.tets[2][2]});
  const ValidationReport r = validate(static_cast<const TetMesh&>(m));
  const auto d = with_code(r, "duplicate_element");
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].message, "tet 6: same nodes as tet 2");
}

TEST(Validate, TriangleMeshOpenEdgesOrientationDegenerate) {
  TriMesh s = test::sphere_surface(1);
  ValidateOptions closed;
  closed.require_closed = true;
  // Remove a triangle: three open edges; errors only when a closed surface is required.
  TriMesh open = s;
  open.triangles.pop_back();
  ValidationReport r = validate(open);
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(r.count("open_edge"), 3);
  EXPECT_EQ(with_code(r, "open_edge")[0].severity, Severity::info);
  r = validate(open, closed);
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.errors, 3);
  // Flip one triangle: its three edges are run twice the same way.
  TriMesh flipped = s;
  std::swap(flipped.triangles[3][0], flipped.triangles[3][1]);
  r = validate(flipped);
  EXPECT_EQ(r.count("inconsistent_orientation"), 3);
  // Degenerate: a triangle with collinear nodes.
  TriMesh flat;
  flat.positions = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(2, 0, 0), Vec3(0, 1, 0)};
  flat.triangles = {{0, 1, 2}, {0, 1, 3}};
  r = validate(flat);
  const auto d = with_code(r, "degenerate");
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].element, 0);
  EXPECT_NE(d[0].message.find("triangle 0: degenerate (area 0 m²"), std::string::npos);
  // Empty meshes are errors.
  EXPECT_FALSE(validate(TriMesh{}).ok());
  EXPECT_EQ(validate(TetMesh{}).first_error(), "mesh has no tetrahedra");
}

TEST(Validate, HostileInputIsCappedAndFast) {
  // 200000 tets all referencing nodes out of range: counted fully, 20 stored plus one summary.
  TetMesh m;
  m.positions = {Vec3(0, 0, 0)};
  m.tets.assign(200000, Tet{0, 5, 6, 7});
  const ValidationReport r = validate(m);
  EXPECT_EQ(r.count("index_out_of_range"), 200000);
  EXPECT_EQ(r.errors, 200000);
  EXPECT_LE(r.findings.size(), 22u);
  EXPECT_EQ(r.findings.back().message, "... and 199980 more index_out_of_range findings");
}

}  // namespace
}  // namespace pliant

namespace pliant {
namespace {

// Signed enclosed volume by the divergence theorem, computed here independently of validate().
double signed_volume_of(const TriMesh& m) {
  double v = 0;
  for (const Tri& t : m.triangles)
    v += m.positions[t[0]].dot(m.positions[t[1]].cross(m.positions[t[2]])) / 6.0;
  return v;
}

TEST(Validate, InsideOutClosedSurfaceIsAWarningToReorient) {
  const TriMesh outward = test::sphere_surface(2);
  ASSERT_GT(signed_volume_of(outward), 0);
  EXPECT_EQ(validate(outward).count("inside_out"), 0);
  TriMesh inward = outward;
  for (Tri& t : inward.triangles) std::swap(t[1], t[2]);
  ASSERT_LT(signed_volume_of(inward), 0);
  const ValidationReport r = validate(inward);
  EXPECT_TRUE(r.ok());  // usable once reoriented: a warning, not an error
  const auto f = with_code(r, "inside_out");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::warning);
  EXPECT_NE(f[0].message.find("surface is inside out"), std::string::npos) << f[0].message;
  EXPECT_NE(f[0].message.find("reorient"), std::string::npos) << f[0].message;
  // A cavity wound inward inside an outward shell is a hollow solid, not an inside-out surface.
  TriMesh hollow = outward;
  const auto n = static_cast<Index>(outward.positions.size());
  for (const Vec3& p : outward.positions) hollow.positions.push_back(0.5 * p);
  for (const Tri& t : inward.triangles) hollow.triangles.push_back({t[0] + n, t[1] + n, t[2] + n});
  EXPECT_EQ(validate(hollow).count("inside_out"), 0);
  // An open surface has no inside: not flagged whatever its winding.
  TriMesh open = inward;
  open.triangles.pop_back();
  EXPECT_EQ(validate(open).count("inside_out"), 0);
}

}  // namespace
}  // namespace pliant
