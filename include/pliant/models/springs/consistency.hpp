// Mesh consistency of a torn membrane (Grimm 2005, sections 3.2.1 and 3.3): the five rules every
// tearing operation must keep, checked with a message naming the first violating element.
//
//  (1) every node belongs to at least one triangle;
//  (2) no two triangles join the same three nodes;
//  (3) exactly one spring runs along every triangle edge;
//  (4) every spring runs along one or two triangle edges;
//  (5) triangles that share a node are connected through shared edges around it: the triangles of
//      each node form a single fan (area-preserving tearing only; deletion tearing may break it).
// Rule 5 read literally ("every two triangles sharing a node share an edge") would forbid every
// inner node of degree > 3, so it is read as the thesis' intent: parts touch by area, not by a vertex.
#pragma once

#include "pliant/core/result.hpp"
#include "pliant/models/springs/spring_mesh.hpp"

namespace pliant::springs {

/// Which rules to check.
struct ConsistencyOptions {
  bool rule5 = true;  ///< check rule 5 (off for deletion tearing, which may leave bow-tie nodes)
  /// Allow springs with no triangle and nodes carrying only such springs (a handle attached to the
  /// membrane, the interior springs of a volume body): rules 1 and 4 then skip them.
  bool allow_free_springs = false;
};

/// Checks rules 1-5 and the incidence bookkeeping they rely on (spring_triangles, tri_springs and
/// node_triangles agree). O(mesh size · degree): for tests and debug checks, not for the step path.
/// The message names the rule and the node, spring or triangle at fault.
Status check_consistency(const SpringMesh& mesh, const ConsistencyOptions& options = {});

}  // namespace pliant::springs
