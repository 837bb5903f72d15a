// The example of docs/core.md, compiled and run so that the documentation cannot rot.
#include "pliant/core/bvh.hpp"
#include "pliant/core/quality.hpp"
#include "pliant/core/region.hpp"
#include "pliant/core/topology.hpp"
#include "pliant/core/validate.hpp"

#include "core/test_meshes.hpp"

#include <gtest/gtest.h>

namespace pliant {
namespace {

Status prepare(TetMesh& mesh, Index& picked_node, std::size_t& fixed_count) {
  ValidateOptions options;
  options.reorient = true;
  const ValidationReport report = validate(mesh, options);
  if (!report.ok()) return Error{report.first_error()};

  const MeshQuality q = mesh_quality(mesh);
  if (q.radius_ratio.min <= 0) return Error{"unexpected inverted tet after reorientation"};

  Result<Region> fixed = parse_region("xmin");
  if (!fixed) return fixed.error();
  fixed_count = select_nodes(mesh.positions, *fixed).size();

  const BoundarySurface surface = extract_boundary(mesh);
  TriangleBvh bvh(surface.mesh);
  if (auto hit = bvh.raycast(Ray{Vec3(-1, 0.5, 0.5), Vec3(1, 0, 0)})) {
    const Tri& t = surface.mesh.triangles[hit->triangle];
    picked_node = surface.volume_node[t[0]];
  }
  return {};
}

TEST(DocsExample, RunsOnABox) {
  TetMesh mesh = test::structured_box(2, 2, 2, 0.5);
  std::swap(mesh.tets[3][2], mesh.tets[3][3]);  // one inverted tet, repaired by reorient
  Index picked = -1;
  std::size_t fixed = 0;
  const Status s = prepare(mesh, picked, fixed);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(fixed, 9u);
  ASSERT_GE(picked, 0);
  EXPECT_EQ(mesh.positions[picked].x(), 0.0);  // the ray enters through the x = 0 face

  TetMesh bad = test::structured_box(1, 1, 1);
  bad.tets[0][1] = 77;
  const Status e = prepare(bad, picked, fixed);
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.message(), "tet 0: node 77 out of range (8 nodes)");
}

}  // namespace
}  // namespace pliant
