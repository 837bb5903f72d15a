// Private: the corotational element's two per-tet loops (the force with its rotation, and the stiffness
// product) four tets at a time, one tet per SIMD lane. One tet's 3×3 algebra does not vectorise (measured:
// compiled for AVX2 it ran slower than for SSE2); four tets side by side do, with AVX2 + FMA where the CPU
// has them (core/cpu_dispatch.hpp) and two SSE2 halves otherwise.
//
// The rotation is Newton's polar iteration X ← ½ (X + X⁻ᵀ) from X = F (Higham 1986), run in all lanes
// until every lane's step is below 1e-9; a lane whose F has det F ≤ 0 or is badly conditioned, or that
// does not converge in 10 steps, takes extract_rotation (the SVD) instead, as the one-tet code does.
// Results equal the one-tet code's to rounding (FMA and a lane iterating on after it converged change
// the last bits), and do not depend on the thread count: a tet's lanes are fixed by its index.
#pragma once

#include "pliant/core/types.hpp"
#include "pliant/materials/material.hpp"

namespace pliant::fem::detail {

/// Tets per lane group.
inline constexpr int kTetLanes = 4;

/// The rest data of the tets the kernels read (arrays indexed by tet).
struct TetLaneData {
  const Tet* tets = nullptr;
  const Mat3* dm_inverse = nullptr;  // Dm⁻¹ (unit: 1/m)
  const double* volume = nullptr;    // rest volume (unit: m³)
  const materials::Material* material = nullptr;
};

/// For the `count` (1..4) corotational tets from `first`: the rotation R of F at positions x and the
/// rotated gradients h[t] = R Dm⁻ᵀ; when slot is not null also the node slots slot[4t + a] = -V P ∇N_a of
/// P = R (λ tr(E) I + 2μ E), E = sym(Rᵀ F) - I + β sym(Rᵀ ∇v) (v read only when β ≠ 0; units: x m,
/// v m/s, β s, slots N). avx2 picks the AVX2 + FMA version (the caller checks cpu::has_avx2_fma()).
void corotational_forces(const TetLaneData& data, const Vec3* x, const Vec3* v, double beta, Index first,
                         int count, Mat3* h, Vec3* slot, bool avx2);

/// For the `count` (1..4) corotational tets from `first`, with rotated gradients h (from
/// corotational_forces): slot[4t + a] = -(K_t p)_a, the negated element stiffness product
/// -V (λ tr(E) I + 2μ sym(E)) R ∇N_a with E = Σ_b p_b (R ∇N_b)ᵀ (unit: p m, slots N).
void corotational_products(const TetLaneData& data, const Mat3* h, const Vec3* p, Index first, int count,
                           Vec3* slot, bool avx2);

}  // namespace pliant::fem::detail
