// Drag the free end of a clamped rubber beam with Pliant's Green's-function body: mesh, material,
// precomputation, a grab moved along a path, and the reaction force a haptic device would render.
//
//   drag_beam [OUT.obj]    prints the tip reaction per frame; writes the deformed surface if asked
//
// Built with the project (target example_drag_beam) and by the install test against an installed
// Pliant through find_package(pliant) (tests/install/consumer).
#include <pliant/core/region.hpp>
#include <pliant/io/surface_writers.hpp>
#include <pliant/materials/material.hpp>
#include <pliant/meshing/box.hpp>
#include <pliant/models/green/green_asset.hpp>
#include <pliant/models/green/green_body.hpp>

#include <cstdio>
#include <memory>

int main(int argc, char** argv) {
  using namespace pliant;
  // A 0.3 m × 0.04 m × 0.04 m beam of 30 × 4 × 4 cells, five tets each (the default split).
  meshing::BoxDef box;
  box.size = Vec3(0.3, 0.04, 0.04);
  box.cells = {30, 4, 4};
  Result<TetMesh> mesh = meshing::box_mesh(box);
  if (!mesh.ok()) return std::fprintf(stderr, "%s\n", mesh.message().c_str()), 1;

  // Rubber from the presets (E, ν, density in SI units); clamp the face x = 0.
  Result<materials::Material> rubber = materials::material_preset("rubber");
  Result<Region> clamp = parse_region("xmin");
  if (!rubber.ok() || !clamp.ok()) return 1;
  const std::vector<Index> fixed = select_nodes(mesh->positions, *clamp);

  // Precompute the surface Green's function once (seconds for ~1k surface nodes).
  Result<green::GreenAsset> asset = green::build_green_asset(*mesh, *rubber, fixed);
  if (!asset.ok()) return std::fprintf(stderr, "%s\n", asset.message().c_str()), 1;
  std::printf("precomputed %d surface nodes in %.2f s\n", asset->surface_node_count(),
              asset->precompute_seconds);
  auto shared = std::make_shared<const green::GreenAsset>(std::move(asset).value());

  // Grab the surface node nearest the top edge of the free end.
  const TriMesh& surface = shared->surface();
  Index tip = 0;
  const Vec3 corner(0.3, 0.02, 0.04);
  for (Index i = 0; i < shared->surface_node_count(); ++i) {
    if ((surface.positions[i] - corner).norm() < (surface.positions[tip] - corner).norm()) tip = i;
  }
  green::GreenBody body(shared);
  const green::Grab grab{tip, surface.positions[tip]};
  if (Status s = body.set_grabs({&grab, 1}); !s.ok())
    return std::fprintf(stderr, "%s\n", s.message().c_str()), 1;

  // Pull the tip 3 cm down over 10 frames; each update is exact linear equilibrium.
  for (int frame = 1; frame <= 10; ++frame) {
    body.move_grab(0, grab.target + Vec3(0.0, 0.0, -0.003 * frame));
    body.update();
    const Vec3 f = -body.state().grab_forces[0];  // what the hand feels
    std::printf("frame %2d: tip z %+.4f m, reaction (%+.2f, %+.2f, %+.2f) N\n", frame,
                body.state().positions[tip].z(), f.x(), f.y(), f.z());
  }
  if (argc > 1) {
    TriMesh deformed = surface;
    deformed.positions = body.state().positions;
    if (Status s = io::write_obj(argv[1], deformed); !s.ok())
      return std::fprintf(stderr, "%s\n", s.message().c_str()), 1;
  }
  return 0;
}
