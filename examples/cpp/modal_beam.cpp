// Modal reduction of a rubber cantilever: its lowest modes, then a modally reduced body pushed at the
// tip and released, reconstructed on the surface with modal warping. Writes the mode shapes for
// ParaView when given a path: `example_modal_beam modes.vtu`.
#include "pliant/core/topology.hpp"
#include "pliant/meshing/box.hpp"
#include "pliant/models/fem/modal/modal_analysis.hpp"
#include "pliant/models/fem/modal/modal_body.hpp"
#include "pliant/scene/modal_output.hpp"

#include <cstdio>
#include <vector>

int main(int argc, char** argv) {
  using namespace pliant;
  const TetMesh mesh = meshing::box_mesh({.size = Vec3(1.0, 0.1, 0.1), .cells = {20, 2, 2}}).value();
  const materials::Material rubber = materials::material_preset("rubber").value();
  std::vector<Index> clamp, tip;
  for (std::size_t i = 0; i < mesh.node_count(); ++i) {
    if (mesh.positions[i].x() < 1e-9) clamp.push_back(static_cast<Index>(i));
    if (mesh.positions[i].x() > 1.0 - 1e-9) tip.push_back(static_cast<Index>(i));
  }
  // The 12 lowest modes (K φ = λ M φ, clamped nodes removed), M-orthonormal.
  const fem::ModalBasis basis =
      fem::modal_analysis(mesh, std::span(&rubber, 1), clamp, {.modes = 12}).value();
  for (Index j = 0; j < 4; ++j) std::printf("mode %d: %.3f Hz\n", j + 1, basis.frequencies_hz()[j]);
  if (argc > 1) scene::write_mode_shapes_vtu(argv[1], mesh, basis, 0.05).value();  // 5 cm at the largest

  // 12 decoupled damped oscillators, exact steps of 1 ms; the surface nodes are reconstructed.
  const BoundarySurface surface = extract_boundary(mesh);
  auto body = fem::ModalBody::build(mesh, basis,
                                    {.dt = 1e-3,
                                     .rayleigh_alpha = 0.5,
                                     .rayleigh_beta = 1e-4,
                                     .warping = true,
                                     .output_nodes = surface.volume_node})
                  .value();
  std::vector<Vec3> u(body.output_nodes().size());
  for (int s = 1; s <= 1000; ++s) {
    body.clear_forces();
    if (s <= 200)  // push the tip down for 0.2 s, then let it swing
      for (Index n : tip) body.add_point_force(n, Vec3(0, -2.0, 0));  // N per node
    body.step();
    if (s % 100 == 0) {
      body.reconstruct(u);  // displacements of the surface nodes (m)
      std::printf("t = %.1f s: tip y = %+.4f m\n", body.time(), body.node_displacement(tip.front()).y());
    }
  }
  return 0;
}
