// Read-only access to the mass-spring state behind a springs-family scene body, for tests, analysis
// and tools that need more than the surface contract (the consistency rules of a torn membrane, node
// stresses, which nodes a grab holds). Interactions never need it.
#pragma once

#include "pliant/models/springs/spring_mesh.hpp"
#include "pliant/scene/body.hpp"

namespace pliant::scene {

/// The SpringMesh of a springs-family body, or nullptr for a body of another family. Valid until the
/// body's next step (tearing may reallocate its arrays).
const springs::SpringMesh* springs_mesh(const Body& body);

}  // namespace pliant::scene
