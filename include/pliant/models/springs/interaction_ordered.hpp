// Interaction-ordered integration (Brown, Sorkin, Bruyns, Latombe, Montgomery, Stephanides 2001,
// "Real-time simulation of deformable objects: tools and application"): nodes are sorted
// breadth-first from the interaction node, and forces are computed and integrated node by node in
// that order, each node already seeing the new positions of the nodes before it. A disturbance then
// travels through the whole mesh in one step instead of one node per step (explicit integration).
#pragma once

#include "pliant/models/springs/forces.hpp"
#include "pliant/models/springs/spring_mesh.hpp"

#include <span>
#include <vector>

namespace pliant::springs {

/// Breadth-first order of all nodes from `sources` over the springs; nodes unreachable from them
/// follow in index order. Allocates: call it when the interaction or the topology changes.
std::vector<Index> breadth_first_order(const SpringMesh& mesh, std::span<const Index> sources);
/// The same order written into `order` (node_count() entries), with `seen` as scratch: allocates only
/// while the buffers grow.
void breadth_first_order(const SpringMesh& mesh, std::span<const Index> sources, std::vector<Index>& order,
                         std::vector<char>& seen);

/// One interaction-ordered step (symplectic Euler per node) of length dt (unit: s) in the given
/// node order; fixed nodes are skipped. No allocation.
void interaction_ordered_step(SpringMesh& mesh, std::span<const Index> order, double dt,
                              const Loads& loads = {});

}  // namespace pliant::springs
