// Measures of a torn membrane: the rest area that area-preserving tearing keeps constant and the
// number of pieces the membrane has come apart into.
#pragma once

#include "pliant/core/types.hpp"
#include "pliant/models/springs/spring_mesh.hpp"

namespace pliant::springs {

/// Total rest area of the triangles (unit: m²): constant under area-preserving tearing.
double total_rest_area(const SpringMesh& mesh);

/// Connected components of the triangle graph (triangles linked through shared springs).
Index triangle_components(const SpringMesh& mesh);

}  // namespace pliant::springs
