// Rotation extraction from a deformation gradient: a rotation-variant SVD and the polar decomposition
// F = R S that it gives, with R a proper rotation (det R = +1) for every F, inverted, flat or zero.
//
// Corotational elements (Müller & Gross 2004; Etzmuss et al. 2003) measure strain in a frame that
// rotates with the element, R being the rotational part of F. The plain polar decomposition F = Q S,
// S symmetric positive semidefinite, gives det Q = -1 for an inverted element (det F < 0), a reflection
// that would make the element's rest state its mirror image. Irving, Teran & Fedkiw (2004, "Invertible
// finite elements for robust simulation of large deformation") instead write F = U Σ Vᵀ with U and V
// proper rotations and let the singular value of smallest magnitude carry the sign of det F. Then
// R = U Vᵀ is a proper rotation, S = V Σ Vᵀ is symmetric (indefinite when F is inverted), and R is the
// rotation closest to F in the Frobenius norm.
//
// The SVD is computed without a general SVD routine, in the spirit of McAdams et al. (2011, "Computing
// the singular value decomposition of 3×3 matrices with minimal branching"): V from one-sided Jacobi
// rotations that orthogonalise the columns of F V (Hestenes 1958), sorted by decreasing norm and made a
// rotation; then U and Σ from a Givens QR factorisation of F V. Givens rotations keep U a rotation,
// give Σ₁, Σ₂ ≥ 0 and put the sign of det F on Σ₃, and stay well defined when columns of F V vanish
// (flat and collapsed tets). The tests compare it with Eigen's two-sided Jacobi SVD.
#pragma once

#include "pliant/core/types.hpp"

namespace pliant::fem {

/// F = U diag(sigma) Vᵀ with U, V proper rotations, sigma(0) ≥ sigma(1) ≥ |sigma(2)| ≥ 0 and
/// sign(sigma(2)) = sign(det F) (dimensionless, as F).
struct RotationVariantSvd {
  Mat3 U;      ///< left rotation, det = +1
  Vec3 sigma;  ///< signed singular values (dimensionless)
  Mat3 V;      ///< right rotation, det = +1
};

/// Rotation-variant SVD of a deformation gradient (dimensionless) after Irving et al. (2004).
RotationVariantSvd rotation_variant_svd(const Mat3& F);

/// F = R S: R a proper rotation, S symmetric (positive definite iff det F > 0).
struct PolarDecomposition {
  Mat3 R;  ///< rotation, det = +1
  Mat3 S;  ///< symmetric stretch (dimensionless)
};

/// Inversion-safe polar decomposition of F (dimensionless), R = U Vᵀ and S = V Σ Vᵀ from
/// rotation_variant_svd.
PolarDecomposition polar_decomposition(const Mat3& F);

/// The rotation part R of F alone (polar_decomposition(F).R to rounding). For a well-conditioned F with
/// det F > 0 (the usual element) R is the orthogonal polar factor from Newton's iteration
/// X ← ½ (X + X⁻ᵀ) (Higham 1986), several times cheaper than the SVD and the same rotation there; every
/// other F (inverted, flat, collapsed) goes through rotation_variant_svd.
Mat3 extract_rotation(const Mat3& F);

}  // namespace pliant::fem
