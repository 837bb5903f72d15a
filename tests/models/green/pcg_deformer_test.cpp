// The per-frame PCG baseline (fem::PcgDeformer) reaches the precomputed Green answer to its tolerance.
#include "pliant/models/fem/implicit/pcg_deformer.hpp"
#include "pliant/meshing/box.hpp"
#include "pliant/models/green/green_body.hpp"

#include <gtest/gtest.h>

namespace pliant::green {
namespace {

TEST(PcgDeformer, MatchesGreenAndWarmStartSavesIterations) {
  meshing::BoxDef def;
  def.size = Vec3(1.0, 0.2, 0.2);
  def.cells = {10, 2, 2};
  const TetMesh mesh = meshing::box_mesh(def).value();
  const auto material = materials::material_from_young_poisson(1e5, 0.3).value();
  std::vector<Index> fixed;
  for (std::size_t i = 0; i < mesh.node_count(); ++i)
    if (mesh.positions[i].x() < 1e-9) fixed.push_back(static_cast<Index>(i));
  linalg::PcgSettings settings;
  settings.relative_tolerance = 1e-10;
  auto pcg = fem::PcgDeformer::build(mesh, material, fixed, settings).value();
  auto asset = std::make_shared<GreenAsset>(build_green_asset(mesh, material, fixed).value());
  GreenBody body(asset);
  const Index tip = static_cast<Index>(mesh.node_count() - 1);  // x = 1 corner, on the surface
  Index tip_surface = -1;
  for (Index i = 0; i < asset->surface_node_count(); ++i)
    if (asset->volume_node()[static_cast<std::size_t>(i)] == tip) tip_surface = i;
  ASSERT_GE(tip_surface, 0);
  const Vec3 f(0.0, 0.0, -1.0);
  pcg.set_force(tip, f);
  const auto& cold = pcg.solve_frame(false);
  ASSERT_TRUE(cold.converged);
  const int cold_iterations = cold.iterations;
  body.set_force(tip_surface, f);
  body.update();
  for (Index i = 0; i < asset->surface_node_count(); ++i) {
    const Vec3 ug = body.state().positions[static_cast<std::size_t>(i)] -
                    asset->surface().positions[static_cast<std::size_t>(i)];
    const Vec3 up = pcg.displacement().segment<3>(3 * asset->volume_node()[static_cast<std::size_t>(i)]);
    EXPECT_LT((ug - up).norm(), 1e-5 * pcg.displacement().norm());
  }
  // A slightly different load next frame: warm start needs fewer iterations than a cold start.
  pcg.set_force(tip, f * 1.01);
  const int warm_iterations = pcg.solve_frame(true).iterations;
  EXPECT_LT(warm_iterations, cold_iterations);
  auto bad = fem::PcgDeformer::build(mesh, material, std::vector<Index>{});
  EXPECT_FALSE(bad.ok());
}

}  // namespace
}  // namespace pliant::green
