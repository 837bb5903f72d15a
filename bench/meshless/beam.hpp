// The beam of the SPlisHSPlasH comparison in `pliant bench meshless` (beam.cpp).
#pragma once

#include "bench.hpp"

#include "pliant/models/meshless/mls_body.hpp"

namespace pliant::bench {

/// The peer's beam: at the peer's spacing 0.05 m (unit: m), 8,000 phyxels on the lattice of cell centres
/// filling x in [-2, 2], y in [0.25, 0.75], z in [-0.25, 0.25] (unit: m), those with x < -1.5 m fixed
/// (1,000); E = 5 MPa, ν = 0.33, 1000 kg/m³, Green strain, no volume term.
meshless::MlsBody splishsplash_beam(double spacing = 0.05);

/// Runs the beam with the meshless integrators and the FEM reference; the "beam_vs_splishsplash"
/// object of the bench's JSON. `quick`: a few steps of each.
nlohmann::json beam_vs_splishsplash(const Context& ctx);

}  // namespace pliant::bench
