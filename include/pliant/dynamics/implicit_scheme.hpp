// The implicit schemes' formulas, written once for every solver that steps with them: the matrix-free
// Integrator (dynamics/integrator.hpp), fem's assembled Newton solver and fem's hybrid solver. Each solver
// keeps its own linear algebra; what a scheme is (its predictor, its corrector, the system it solves and
// the Newton form of its unknown) is here.
//
// Backward Euler solves for the velocity change z = Δv:  v⁺ = v + z,  x⁺ = x + h v⁺.
// Newmark (β, γ) solves for the new acceleration z = a⁺ after the predictor
//   x̃ = x + h v + h² (½ − β) a,   ṽ = v + h (1 − γ) a,   then  x⁺ = x̃ + β h² z,  v⁺ = ṽ + γ h z.
// With Rayleigh damping D = α M + β_R K, both solve (cm M + ck K) y = r per Newton iteration.
#pragma once

#include "pliant/core/types.hpp"

namespace pliant::dynamics {

/// Newmark's parameters (dimensionless). β = 1/4, γ = 1/2 is the average-acceleration rule (unconditionally
/// stable, no numerical damping); γ > 1/2 damps the highest modes.
struct NewmarkParameters {
  double beta = 0.25;
  double gamma = 0.5;
};

/// One Newton form for both schemes: the unknown z of the free nodes solves
///   r(z) = s f(x + a (z + c v), v + b z) − M z = 0
/// with the system (cm M + ck K) y = r per iteration, where f is the total force (N) and M the mass (kg).
struct ImplicitForm {
  double velocity_share;         ///< c (dimensionless): 1 for backward Euler, 0 for Newmark
  double position_scale;         ///< a (unit: s for Δv, s² for Newmark's acceleration)
  double velocity_scale;         ///< b (unit: 1 for Δv, s for Newmark's acceleration)
  double force_scale;            ///< s (unit: s for Δv, 1 for Newmark's acceleration)
  double mass_coefficient;       ///< cm (dimensionless)
  double stiffness_coefficient;  ///< ck (unit: s²)
};

/// Backward Euler's form for step h (unit: s) and Rayleigh coefficients α (unit: 1/s) and β_R (unit: s).
inline ImplicitForm backward_euler_form(double h, double rayleigh_alpha, double rayleigh_beta) {
  return {.velocity_share = 1.0,
          .position_scale = h,
          .velocity_scale = 1.0,
          .force_scale = h,
          .mass_coefficient = 1.0 + h * rayleigh_alpha,
          .stiffness_coefficient = h * h + h * rayleigh_beta};
}

/// Newmark's form for step h (unit: s) and Rayleigh coefficients α (unit: 1/s) and β_R (unit: s).
inline ImplicitForm newmark_form(const NewmarkParameters& p, double h, double rayleigh_alpha,
                                 double rayleigh_beta) {
  return {.velocity_share = 0.0,
          .position_scale = p.beta * h * h,
          .velocity_scale = p.gamma * h,
          .force_scale = 1.0,
          .mass_coefficient = 1.0 + p.gamma * h * rayleigh_alpha,
          .stiffness_coefficient = p.beta * h * h + p.gamma * h * rayleigh_beta};
}

/// Newmark's predictor: moves x (unit: m) and v (unit: m/s) to x̃, ṽ from the acceleration a (unit: m/s²).
inline void newmark_predict(const NewmarkParameters& p, double h, const Vec3& a, Vec3& x, Vec3& v) {
  x += h * v + h * h * (0.5 - p.beta) * a;
  v += h * (1.0 - p.gamma) * a;
}

/// Newmark's corrector: from x̃, ṽ to the step's end with the new acceleration a⁺ (unit: m/s²).
inline void newmark_correct(const NewmarkParameters& p, double h, const Vec3& next_acceleration, Vec3& x,
                            Vec3& v) {
  x += p.beta * h * h * next_acceleration;
  v += p.gamma * h * next_acceleration;
}

/// Backward Euler's update with the velocity change dv (unit: m/s): v += dv, then x += h v.
inline void backward_euler_advance(double h, const Vec3& dv, Vec3& x, Vec3& v) {
  v += dv;
  x += h * v;
}

}  // namespace pliant::dynamics
