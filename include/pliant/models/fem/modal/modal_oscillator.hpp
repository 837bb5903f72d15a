// The exact step of one damped modal oscillator, q̈ + c q̇ + k q = g, for g constant over the step.
//
// With Rayleigh damping C = αM + βK the modal equations decouple (Huang & Wang 2007): mode j obeys
// q̈ + (α + β ω²) q̇ + ω² q = φⱼᵀ f. Its characteristic roots are (-c ± √(c² - 4k))/2 (c = α + βω²,
// k = ω²): complex when underdamped, real and distinct when overdamped, double when critically
// damped. For a force held constant over a step of length h the solution is exact in closed form:
// with s(t) the impulse response (s(0) = 0, ṡ(0) = 1),
//     q(h) = (ṡ + c s) q₀ + s v₀ + S g,      v(h) = -k s q₀ + ṡ v₀ + s g,      S = ∫₀ʰ s dt,
// where s = e^{-ch/2} sin(ω_d h)/ω_d (underdamped, ω_d² = k - c²/4), e^{-ch/2} h (critical),
// e^{-ch/2} sinh(μh)/μ (overdamped, μ² = c²/4 - k). One function covers all three without a branch at
// the critical point (series near it), and S avoids the cancellation of (1 - q-coefficient)/k for slow
// or rigid (k = 0) modes. So a modal body is unconditionally stable and has no time-stepping error
// for piecewise-constant forces, at any step size.
#pragma once

namespace pliant::fem {

/// One step's affine map: q' = qq q + qv v + gq g, v' = vq q + vv v + gv g.
struct ModalStepCoefficients {
  double qq = 1, qv = 0, vq = 0, vv = 1;  ///< homogeneous part (unit: 1, s, 1/s², 1)
  double gq = 0, gv = 0;                  ///< response to a unit constant force (unit: s², s)
};

/// Coefficients for stiffness k = ω² (unit: 1/s², ≥ 0), damping c (unit: 1/s, ≥ 0) and step h
/// (unit: s, > 0). Finite for any such input; invalid input gives NaN coefficients.
ModalStepCoefficients exact_modal_step(double k, double c, double h);

}  // namespace pliant::fem
