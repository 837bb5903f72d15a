// The "bob" family: a rigid surface hung on an isotropic spring, registered from outside the library
// through the public family registry (pliant/scene/family_registry.hpp). It is the smallest complete
// family: a body behind the surface contract, a factory that reads its scene keys, and one
// registration call. Its motion has a closed form, so a test can check the result exactly.
//
// The body translates rigidly by u (unit: m) from its rest mesh; its mass m (kg) hangs on a spring of
// stiffness k (N/m) anchored at rest, under gravity g (m/s²):  m u'' = -k u + m g + f,  f the forces
// applied since the last step. Between steps f is constant, so each step advances the exact solution
// (a rotation in phase space about the equilibrium u* = (m g + f) / k): no integration error.
#pragma once

#include "pliant/core/types.hpp"

namespace bob {

/// The settings a scene file gives in the body's "bob" object.
struct BobDef {
  double mass = 0.1;              ///< of the whole body (unit: kg), > 0
  double stiffness = 100.0;       ///< of the spring holding it (unit: N/m), > 0
  pliant::Vec3 gravity{0, 0, 0};  ///< acceleration (unit: m/s²)
};

/// Registers the family under the name "bob" (keys: "bob"); true the first time, false after.
bool register_bob_family();

}  // namespace bob
