// A scene in C++, no scene file: a clamped silicone beam in a World, grabbed with the virtual ray
// (Nikitina et al. 2003) like a mouse or VR controller would, pulled down over half a second, and
// the reaction a haptic device would render read after each step.
//
//   hello_world    prints the reaction force and the grab's local compliance every 5 steps
//
// Built with the project (target example_hello_world) and by the install test against an installed
// Pliant through find_package(pliant) (tests/install/consumer).
#include <pliant/core/ray.hpp>
#include <pliant/core/region.hpp>
#include <pliant/materials/material.hpp>
#include <pliant/meshing/box.hpp>
#include <pliant/models/green/green_asset.hpp>
#include <pliant/scene/green_scene_body.hpp>
#include <pliant/scene/world.hpp>

#include <cstdio>
#include <memory>

int main() {
  using namespace pliant;
  // A 20 cm × 4 cm × 4 cm beam of Dragon Skin 10 silicone, clamped at x = 0.
  meshing::BoxDef box;
  box.size = Vec3(0.2, 0.04, 0.04);
  box.cells = {20, 4, 4};
  Result<TetMesh> mesh = meshing::box_mesh(box);
  Result<materials::Material> silicone = materials::material_preset("dragon_skin_10");
  Result<Region> clamp = parse_region("xmin");
  if (!mesh.ok() || !silicone.ok() || !clamp.ok()) return std::fprintf(stderr, "bad set-up\n"), 1;
  Result<green::GreenAsset> asset =
      green::build_green_asset(*mesh, *silicone, select_nodes(mesh->positions, *clamp));
  if (!asset.ok()) return std::fprintf(stderr, "%s\n", asset.message().c_str()), 1;

  // The world steps at 60 Hz; the body is created from its asset and def, no JSON involved. The asset
  // is shared: more bodies made from it would not copy its blocks.
  scene::World world(1.0 / 60.0);
  Result<std::unique_ptr<scene::Body>> made = scene::make_scene_body(
      "beam", std::make_shared<const green::GreenAsset>(std::move(*asset)), green::GreenDef{});
  if (!made.ok()) return std::fprintf(stderr, "%s\n", made.message().c_str()), 1;
  const Index beam = world.add_body(std::move(*made));

  // A ray from above the free end, straight down: the first surface it hits is grabbed.
  const std::optional<scene::WorldHit> hit = world.pick(Ray{Vec3(0.19, 0.02, 0.5), Vec3(0.0, 0.0, -1.0)});
  if (!hit) return std::fprintf(stderr, "the ray missed the beam\n"), 1;
  scene::Body& body = world.body(hit->body);
  const scene::GrabId grab = body.grab(hit->point);
  if (!grab.valid()) return std::fprintf(stderr, "nothing to grab there\n"), 1;
  std::printf("grabbed body %d at (%.3f, %.3f, %.3f) m\n", static_cast<int>(beam), hit->position.x(),
              hit->position.y(), hit->position.z());

  // Pull the grab 3 cm down over 30 steps; after each step the reaction is what the hand feels.
  for (int step = 1; step <= 30; ++step) {
    body.move_grab(grab, hit->position + Vec3(0.0, 0.0, -0.001 * step));
    world.step();
    if (step % 5 != 0) continue;
    const Vec3 f = body.grab_reaction(grab);
    std::printf("t = %.3f s: reaction (%+.3f, %+.3f, %+.3f) N, compliance zz %.3g m/N\n", world.time(), f.x(),
                f.y(), f.z(), body.grab_compliance(grab)(2, 2));
  }
  body.release(grab);
  return 0;
}
