#include "pliant/models/fem/modal/modal_oscillator.hpp"

#include <cmath>
#include <limits>

namespace pliant::fem {
namespace {

// sin(√x)/√x and cos(√x) continued to x < 0 (sinh, cosh); power series near 0 (|x| < 0.01: the
// truncation is below 1e-17).
void sinc_cos(double x, double& f, double& g) {
  if (std::abs(x) < 1e-2) {
    f = 1.0 - x / 6.0 * (1.0 - x / 20.0 * (1.0 - x / 42.0 * (1.0 - x / 72.0)));
    g = 1.0 - x / 2.0 * (1.0 - x / 12.0 * (1.0 - x / 30.0 * (1.0 - x / 56.0)));
  } else if (x > 0.0) {
    const double r = std::sqrt(x);
    f = std::sin(r) / r;
    g = std::cos(r);
  } else {
    const double r = std::sqrt(-x);
    f = std::sinh(r) / r;
    g = std::cosh(r);
  }
}

}  // namespace

ModalStepCoefficients exact_modal_step(double k, double c, double h) {
  ModalStepCoefficients out;
  if (!(k >= 0.0) || !(c >= 0.0) || !(h > 0.0) || !std::isfinite(k) || !std::isfinite(c) ||
      !std::isfinite(h)) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    return {nan, nan, nan, nan, nan, nan};
  }
  const double sigma = 0.5 * c;
  const double x = (k - sigma * sigma) * h * h;
  double s = 0.0, sd = 0.0, integral = 0.0;  // s(h), ṡ(h), ∫₀ʰ s
  if (x < -1.0) {
    // Clearly overdamped: two real roots r1 = -σ + μ (slow, written -k/(σ + μ) without cancellation)
    // and r2 = -σ - μ; exponentials directly, so that large σh neither overflows nor loses digits.
    const double mu = std::sqrt(sigma * sigma - k);
    const double r1 = -k / (sigma + mu), r2 = -sigma - mu;
    const double e1 = std::exp(r1 * h), e2 = std::exp(r2 * h);
    s = (e1 - e2) / (2.0 * mu);
    sd = (r1 * e1 - r2 * e2) / (2.0 * mu);
    const double i1 = r1 == 0.0 ? h : std::expm1(r1 * h) / r1;
    integral = (i1 - std::expm1(r2 * h) / r2) / (2.0 * mu);
  } else {
    double f = 0.0, g = 0.0;
    sinc_cos(x, f, g);
    const double e = std::exp(-sigma * h);
    s = e * h * f;
    sd = e * (g - sigma * h * f);
    if (k * h * h >= 1e-2) {
      integral = (1.0 - (sd + c * s)) / k;
    } else {
      // Slow mode with moderate damping (ch ≤ 2.01 here): the step response q(h) = Σ aₙ hⁿ of
      // q̈ + c q̇ + k q = 1 from rest, a₂ = 1/2, n(n-1) aₙ = -c (n-1) aₙ₋₁ h - k aₙ₋₂ h² (scaled by h).
      double a2 = 0.0, a1 = 0.5;  // aₙ₋₂ hⁿ⁻², aₙ₋₁ hⁿ⁻¹ in units of h²
      integral = 0.5;
      for (int n = 3; n < 80; ++n) {
        const double an = -(c * h * (n - 1) * a1 + k * h * h * a2) / (n * (n - 1.0));
        integral += an;
        a2 = a1;
        a1 = an;
        if (std::abs(an) < 1e-18 * std::abs(integral) && std::abs(a2) < 1e-18 * std::abs(integral)) break;
      }
      integral *= h * h;
    }
  }
  out.qq = sd + c * s;
  out.qv = s;
  out.vq = -k * s;
  out.vv = sd;
  out.gq = integral;
  out.gv = s;
  return out;
}

}  // namespace pliant::fem
