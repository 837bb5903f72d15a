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

#include <cstddef>
#include "pliant/core/types.hpp"

namespace pliant::fem::detail {

/// Tets per lane group: group g holds tets 4g .. 4g + 3.
inline constexpr int kTetLanes = 4;

/// Group-major ("lane") storage of `per_tet` values per tet: value k of tet t at
/// (t / 4) · 4 per_tet + 4 k + t % 4, so that value k of a group's four tets is one 4-double vector.
inline std::size_t lane_index(std::size_t t, int per_tet, int k) {
  return (t / kTetLanes) * static_cast<std::size_t>(kTetLanes * per_tet) +
         static_cast<std::size_t>(kTetLanes * k) + t % kTetLanes;
}
/// Per-tet values of the lane arrays: a 3×3 matrix (Dm⁻¹, or the rotated gradients H = R Dm⁻ᵀ; k = 3
/// column + row), the node slots (k = 3 node + component) and the moduli (k = 0: -V λ, k = 1: -V μ).
inline constexpr int kMatrixValues = 9, kSlotValues = 12, kModuliValues = 2;

/// The rest data of the tets the kernels read, all padded to whole groups (the pad repeats the last tet),
/// so that a group's lanes are read without index arithmetic.
struct TetLaneData {
  const Tet* tets = nullptr;           // per tet
  const double* dm_inverse = nullptr;  // lane array: Dm⁻¹ (unit: 1/m)
  const double* moduli = nullptr;      // lane array: -V λ and -V μ (unit: N·m)
};

/// For the group of corotational tets from `first` (a multiple of 4), `count` of them real (< 4 only for
/// the last group): the rotation R of F at positions x and the rotated gradients R Dm⁻ᵀ into the lane array
/// h; when slot is not null also the node slots -V P ∇N_a of P = R (λ tr(E) I + 2μ E),
/// E = sym(Rᵀ F) - I + β sym(Rᵀ ∇v), into the lane array slot (v read only when β ≠ 0; units: x m,
/// v m/s, β s, slots N). The idle lanes of a last partial group are written too (with the last tet's
/// values). avx2 picks the AVX2 + FMA version (the caller checks cpu::has_avx2_fma()).
void corotational_forces(const TetLaneData& data, const Vec3* x, const Vec3* v, double beta, Index first,
                         int count, double* h, double* slot, bool avx2);

/// For the same group, with rotated gradients h (from corotational_forces): the slots -(K_t p)_a, the
/// negated element stiffness product -V (λ tr(E) I + 2μ sym(E)) R ∇N_a with E = Σ_b p_b (R ∇N_b)ᵀ
/// (unit: p m, slots N).
void corotational_products(const TetLaneData& data, const double* h, const Vec3* p, Index first, double* slot,
                           bool avx2);

}  // namespace pliant::fem::detail
