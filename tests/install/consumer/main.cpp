// Uses the installed Pliant through find_package(pliant): builds a mesh, checks a property, writes a file.
#include <pliant/core/geometry.hpp>
#include <pliant/core/tet_mesh.hpp>
#include <pliant/io/atomic_file.hpp>

#include <cmath>
#include <cstdio>
#include <string>

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  pliant::TetMesh mesh;
  mesh.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  mesh.tets = {{0, 1, 2, 3}};
  const auto& x = mesh.positions;
  const double v = pliant::signed_volume(x[0], x[1], x[2], x[3]);
  if (std::abs(v - 1.0 / 6.0) > 1e-15) {
    std::fprintf(stderr, "wrong volume %g\n", v);
    return 1;
  }
  const auto status = pliant::io::write_file_atomically(argv[1], "volume " + std::to_string(v) + "\n");
  if (!status.ok()) {
    std::fprintf(stderr, "%s\n", status.message().c_str());
    return 1;
  }
  std::printf("consumer ok: volume %.6f\n", v);
  return 0;
}
