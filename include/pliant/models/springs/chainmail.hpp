// ChainMail (Gibson 1997, "3D ChainMail: a fast algorithm for deforming volumetric objects") and
// Enhanced ChainMail (Schill et al. 1998, MICCAI): links between neighbouring nodes may change each
// axis component of their offset only within bounds. When a node moves, neighbours that leave their
// bounds relative to it are moved to the nearest admissible position, and they in turn move their
// neighbours. Enhanced ChainMail processes the candidates from a list sorted by largest violation
// first, which makes the order independent of the mesh numbering and allows inhomogeneous bounds
// per link. Bounds are axis-aligned, so ChainMail cannot rotate: a pulled membrane forms a pyramid.
#pragma once

#include "pliant/models/springs/spring_mesh.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace pliant::springs {

/// Plain ChainMail settings.
struct ChainMailDef {
  /// Per-axis slack of a link as a fraction of its rest length (dimensionless): each component of
  /// x_b - x_a must stay within rest offset ± slack · l0. 0 uses the spring's own max_length - l0.
  double slack = 0.0;
  /// Cap on node moves per pass as a multiple of the node count (guarantees termination even for
  /// infeasible bounds, e.g. pulls that reach fixed nodes).
  int max_moves_per_node = 8;
};

struct ChainMailStats {
  Index moves = 0;      ///< node moves made
  bool capped = false;  ///< true if the move cap stopped the pass before all bounds held
};

/// Enhanced ChainMail with reusable heap (no allocation after the first pass on a mesh).
class ChainMail {
 public:
  explicit ChainMail(ChainMailDef def = {}) : def_(def) {}
  const ChainMailDef& def() const { return def_; }
  void set_def(const ChainMailDef& def) { def_ = def; }

  /// One pass from the moved interaction nodes (never moved by the pass, like fixed nodes). Indices
  /// outside the mesh are ignored.
  ChainMailStats pass(SpringMesh& mesh, std::span<const Index> interaction_nodes);

  /// Per-axis half-width of spring s's bounds (unit: m).
  double bound(const SpringMesh& mesh, Index s) const;

 private:
  struct Item {
    double violation;  // how far the node was moved (unit: m)
    Index node;
    bool operator<(const Item& o) const { return violation < o.violation; }
  };
  ChainMailDef def_;
  std::vector<Item> heap_;
  std::vector<std::uint32_t> node_stamp_;
  std::uint32_t pass_ = 0;
};

/// Largest violation of the per-axis bounds over all springs (unit: m); 0 when all hold.
double chainmail_max_violation(const SpringMesh& mesh, const ChainMail& chainmail);

}  // namespace pliant::springs
