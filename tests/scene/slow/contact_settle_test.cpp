// Contact settling over tens of seconds of scene time (thousands of steps): too long for the sanitizer
// builds (the jelly on a block took 11 minutes under ASan), so this executable is labelled "slow" and
// runs in the release suite only.
#include "pliant/scene/scene_file.hpp"
#include "pliant/scene/world.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <span>
#include <sstream>
#include <string>

namespace pliant::scene {
namespace {

constexpr double kG = 9.81;

Vec3 mean(std::span<const Vec3> x) {
  Vec3 m = Vec3::Zero();
  for (const Vec3& p : x) m += p;
  return m / static_cast<double>(x.size());
}

// The example contact_bodies.json: a meshless jelly (0.216 kg) dropped on a FEM block (0.5 kg) on a
// table. Returns the largest relative deviation of the table's support force from both weights, and
// of the jelly's contact force from its weight, over steps [from, to), and the jelly's deepest
// penetration into the block there.
struct Settle {
  double table = 0.0, jelly = 0.0, penetration = 0.0, drift = 0.0;
};
Settle settle_example(double relaxation, int from, int to) {
  std::ifstream in(std::filesystem::path(PLIANT_EXAMPLES_DIR) / "contact_bodies.json");
  std::stringstream buffer;
  buffer << in.rdbuf();
  Result<Scene> scene = parse_scene(buffer.str(), "contact_bodies.json");
  EXPECT_TRUE(scene.ok()) << scene.message();
  Settle out;
  if (!scene.ok()) return out;
  World& world = *scene->world;
  world.contact_solver().relaxation = relaxation;
  const double w_block = 0.5 * kG, w_jelly = 0.216 * kG;
  Vec3 start = Vec3::Zero();
  for (int s = 0; s < to; ++s) {
    world.step();
    if (s < from) continue;
    const Vec3 at = mean(world.body(1).surface_positions());
    if (s == from) start = at;
    out.drift = std::max(out.drift, (at - start).norm());
    double table = 0.0, jelly = 0.0;
    for (const ContactEvent& e : world.contact_events()) {
      if (e.collider == 0) table += e.force.z();
      if (e.body == 1 && e.other_body == 0) {
        jelly = e.force.z();
        out.penetration = std::max(out.penetration, e.max_penetration);
      }
    }
    out.table = std::max(out.table, std::abs(table - w_block - w_jelly) / (w_block + w_jelly));
    out.jelly = std::max(out.jelly, std::abs(jelly - w_jelly) / w_jelly);
  }
  return out;
}

// The staggered pair settles with the force handed to the master under-relaxed (ω = 0.3, the
// default): from 30 s to 40 s the table carries both weights and the block carries the jelly's to
// 1e-6, no jelly node below the block's surface, and the jelly does not move by 1e-9 m. Handed over
// unrelaxed (ω = 1, the coupling before), the jelly's force still swings by more than a tenth of its
// weight between 15 and 20 s
// (more than a hundredth across compilers).
TEST(Contact, JellyOnABlockSettles) {
  const Settle r = settle_example(ContactSolverDef{}.relaxation, 3000, 4000);
  EXPECT_LT(r.table, 1e-6);
  EXPECT_LT(r.jelly, 1e-6);
  EXPECT_LT(r.penetration, 1e-3);  // below the pair's margins
  EXPECT_LT(r.drift, 1e-9);
  const Settle before = settle_example(1.0, 1500, 2000);
  RecordProperty("unrelaxed_jelly_swing", std::to_string(before.jelly));
  // The unrelaxed swing's size depends on the compiler's rounding (a chaotic contact set): above 0.1 of
  // the jelly's weight in the GCC release build, 0.057 in the clang -O1 sanitizer build.
  EXPECT_GT(before.jelly, 0.01);
}

}  // namespace
}  // namespace pliant::scene
