// The dent falloff of Milanović's impact method: f(x) = (1 - (x/φ)²)^r for a distance x from the
// impact point inside the falloff radius φ, 0 outside. f(0) = 1 and f(φ) = 0; a larger hardness r
// gives a steeper, narrower dent.
#pragma once

#include <cmath>

namespace pliant::impact {

/// f(x) = (1 - (x/φ)²)^r for 0 ≤ x < φ, 0 for x ≥ φ (and for φ ≤ 0).
/// `distance` x (unit: m), `radius` φ (unit: m), `hardness` r (dimensionless, > 0).
inline double falloff(double distance, double radius, double hardness) {
  if (!(radius > 0.0) || !(distance < radius)) return 0.0;
  const double q = distance / radius;
  return std::pow(1.0 - q * q, hardness);
}

}  // namespace pliant::impact
