// Rayleigh damping C = α M + β K (Huang & Wang 2007 write it C = α1 K + α2 M).
//
// A linear combination of mass and stiffness is diagonalised by the same modes as the undamped
// system: a mode of angular frequency ω (K φ = ω² M φ) gets the damping ratio ζ = α/(2ω) + βω/2, so α
// damps low frequencies (unit: 1/s) and β high ones (unit: s). That is what makes modal reduction
// possible with damping.
#pragma once

#include "pliant/core/result.hpp"
#include "pliant/models/fem/assembly/assembly.hpp"  // SparseMatrix

#include <span>

namespace pliant::fem {

/// C = α M + β K (unit: N·s/m) from the mass M (unit: kg) and stiffness K (unit: N/m), both square of
/// the same size; α (unit: 1/s) and β (unit: s) finite and ≥ 0. Fails with one line otherwise.
Result<SparseMatrix> rayleigh_damping(const SparseMatrix& mass, const SparseMatrix& stiffness, double alpha,
                                      double beta);

/// The same with a lumped mass given per node (unit: kg, #nodes entries, each on the node's three
/// DOFs); K is 3·#nodes square.
Result<SparseMatrix> rayleigh_damping(std::span<const double> lumped_mass, const SparseMatrix& stiffness,
                                      double alpha, double beta);

}  // namespace pliant::fem
