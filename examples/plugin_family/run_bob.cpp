// Runs a scene file whose body is of the out-of-tree "bob" family and checks it against the closed
// form: released at rest, the body oscillates about its equilibrium u* = m g / k,
//   u_z(t) = u*_z (1 - cos(ω t)),  ω = √(k / m).
// Then checks that the family's reader refuses a misspelt key, naming its JSON pointer.
// Usage: run_bob SCENE.json   (exit status 0 when both checks pass)
#include "bob_family.hpp"

#include "pliant/scene/scene_file.hpp"

#include <cmath>
#include <cstdio>
#include <string>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: run_bob SCENE.json\n");
    return 2;
  }
  bob::register_bob_family();
  pliant::Result<pliant::scene::Scene> scene = pliant::scene::load_scene(argv[1]);
  if (!scene.ok()) {
    std::fprintf(stderr, "%s\n", scene.message().c_str());
    return 1;
  }
  pliant::scene::World& world = *scene->world;
  // The scene's own numbers (bob_drop.json).
  const double m = 0.2, k = 50.0, g = -9.81, omega = std::sqrt(k / m);
  const double eq = m * g / k;  // (unit: m)
  double worst = 0.0;
  for (int n = 1; n <= scene->steps; ++n) {
    world.step();
    const pliant::scene::Body& b = world.body(0);
    const double uz = b.surface_positions()[0].z() - b.surface_rest_positions()[0].z();
    const double exact = eq * (1.0 - std::cos(omega * n * world.time_step()));
    worst = std::max(worst, std::abs(uz - exact));
  }
  std::printf("bob: %d steps of %g s, equilibrium %.6f m, largest error %.3g m\n", scene->steps,
              world.time_step(), eq, worst);
  if (!(worst < 1e-12)) {
    std::fprintf(stderr, "bob: the motion departs from the closed form\n");
    return 1;
  }

  const pliant::Result<pliant::scene::Scene> bad = pliant::scene::parse_scene(
      R"({"pliant": 1, "bodies": [{"name": "p", "family": "bob", "mesh": {"shape": "rect"},
          "bob": {"stifness": 50}}]})",
      "bad.json");
  const std::string expected =
      "bad.json: /bodies/0/bob/stifness: unknown key (allowed here: mass, stiffness, gravity)";
  if (bad.ok() || bad.message() != expected) {
    std::fprintf(stderr, "bob: a misspelt key gave \"%s\", expected \"%s\"\n",
                 bad.ok() ? "no error" : bad.message().c_str(), expected.c_str());
    return 1;
  }
  std::printf("bob: %s\n", bad.message().c_str());
  return 0;
}
