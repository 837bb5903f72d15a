// Private: the corotational element's two per-tet loops (the force with its rotation, and the stiffness
// product) eight tets at a time, one tet per SIMD lane. One tet's 3×3 algebra does not vectorise
// (measured: compiled for AVX2 it ran slower than for SSE2); eight tets side by side do, as one AVX-512
// vector, two AVX2 + FMA ones or four SSE2 ones, whichever the CPU has (core/cpu_dispatch.hpp).
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

/// Tets per lane group: group g holds tets 8g .. 8g + 7 (one AVX-512 vector of doubles, two AVX2 ones).
inline constexpr int kTetLanes = 8;

/// The instruction sets the kernels come in.
enum class LaneKernel { baseline, avx2, avx512 };
/// The widest kernel the running CPU supports (AVX-512F, else AVX2 + FMA, else the SSE2 baseline).
LaneKernel best_lane_kernel();

/// Group-major ("lane") storage of `per_tet` values per tet: value k of tet t at
/// (t / 8) · 8 per_tet + 8 k + t % 8, so that value k of a group's eight tets is one 8-double vector.
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

/// For the group of corotational tets from `first` (a multiple of 8), `count` of them real (< 8 only for
/// the last group): the rotation R of F at positions x and the rotated gradients R Dm⁻ᵀ into the lane array
/// h; when slot is not null also the node slots -V P ∇N_a of P = R (λ tr(E) I + 2μ E),
/// E = sym(Rᵀ F) - I + β sym(Rᵀ ∇v), into the lane array slot (v read only when β ≠ 0; units: x m,
/// v m/s, β s, slots N). The idle lanes of a last partial group are written too (with the last tet's
/// values). `kernel` picks the instruction set (one the CPU has: best_lane_kernel()).
void corotational_forces(const TetLaneData& data, const Vec3* x, const Vec3* v, double beta, Index first,
                         int count, double* h, double* slot, LaneKernel kernel);

/// For the same group, with rotated gradients h (from corotational_forces): the slots -(K_t p)_a, the
/// negated element stiffness product -V (λ tr(E) I + 2μ sym(E)) R ∇N_a with E = Σ_b p_b (R ∇N_b)ᵀ
/// (unit: p m, slots N).
void corotational_products(const TetLaneData& data, const double* h, const Vec3* p, Index first, double* slot,
                           LaneKernel kernel);

}  // namespace pliant::fem::detail
