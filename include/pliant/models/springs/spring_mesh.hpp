// SpringMesh: the struct-of-arrays data of a mass-spring body (membrane or volume).
//
// Asset / def / state (DESIGN.md): the ASSET of a mass-spring body is its initial mesh (a TriMesh
// membrane or a TetMesh volume) plus a SpringMeshDef; both are immutable and shareable. The
// SpringMesh built from them belongs to one body, and unusually for Pliant its topology and rest data
// change while the simulation runs: tearing (Grimm 2005, chapter 4) duplicates nodes and springs,
// splits lumped masses and moves springs and triangles from one node to its copy, and deletion tearing
// removes and renumbers them. So the rest data cannot live in a shared immutable asset once a body
// may tear (see docs/architecture.md, "The springs runtime"). Its arrays fall in three groups by who
// writes them:
//   motion state      position, velocity: every step (integrators, corrections) and grabs;
//   constraint state  inv_mass (0 marks a fixed node): grabs fix and free nodes;
//   rest data and     rest_position, mass, the factors, origin, every spring and triangle array and
//   topology          the incidence lists: only the builders and tearing.
// All hot data is contiguous per-attribute arrays (Grimm 2005, Table 4.2: arrays beat a pointer-linked
// node graph by up to 7.8x below ~3500 nodes). The member functions below are the one place that
// lists every array (for_each_node_array and its siblings) and the one place that appends, copies,
// swap-removes and compacts entries; builders, tearing and scene set-ups go through them, so a new
// attribute is added in one place.
//
// Invariants every writer (builders, tearing, deletion) must keep; check_spring_mesh() tests them:
//  (N1) every node array has node_count() entries, every spring array spring_count(), every
//       triangle array triangle_count(); node_springs / node_triangles have node_count() lists.
//  (N2) mass[i] > 0; inv_mass[i] = 1/mass[i] for free nodes and exactly 0 for fixed nodes. Solvers
//       never move a node with inv_mass == 0 (a fixed node is moved only by the caller, e.g. a grab).
//  (S1) spring s joins two distinct valid nodes; rest_length > 0; max_length >= rest_length.
//  (S2) s appears exactly once in node_springs[a] and once in node_springs[b] for its nodes a, b, and
//       in no other node's list (the incidence lists are unordered; removal is swap-remove).
//  (T1) tri_springs[t][k] joins tri_nodes[t][k] and tri_nodes[t][(k+1)%3] (rule 3: exactly one
//       spring per triangle edge).
//  (T2) t appears exactly once in node_triangles[n] for each of its three nodes, nowhere else.
//  (T3) spring_triangles[s] lists the triangles having s as an edge: 0, 1 or 2 of them (rule 4 for
//       springs of a membrane; interior springs of a volume body have none), unused slots are -1.
//       A spring with exactly one triangle is an "edge spring" (border or crack flank).
//  (D1) a node made by duplication (tearing) copies its rest position, so rest positions are not
//       unique after tearing; origin[i] names the node of the initial mesh it descends from.
// Tetrahedra (volume bodies) are optional and are not changed by tearing.
#pragma once

#include "pliant/core/result.hpp"
#include "pliant/core/tet_mesh.hpp"
#include "pliant/core/tri_mesh.hpp"
#include "pliant/core/types.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace pliant::springs {

/// Per-node incidence lists (node -> springs or node -> triangles) that change with topology.
/// One small vector per node: appending an item costs nothing after the list has grown to its
/// working size, removal is swap-remove (order is not meaningful).
class Incidence {
 public:
  Incidence() = default;
  explicit Incidence(std::size_t nodes) : lists_(nodes) {}

  std::size_t node_count() const { return lists_.size(); }
  /// Items of node n (unordered).
  std::span<const Index> of(Index n) const { return lists_[static_cast<std::size_t>(n)]; }
  void add(Index n, Index item) { lists_[static_cast<std::size_t>(n)].push_back(item); }
  /// Removes one occurrence of item from node n's list; returns false if it was not there.
  bool remove(Index n, Index item) {
    auto& l = lists_[static_cast<std::size_t>(n)];
    auto it = std::find(l.begin(), l.end(), item);
    if (it == l.end()) return false;
    *it = l.back();
    l.pop_back();
    return true;
  }
  /// Renames item `from` to `to` in node n's list (used when swap-remove renumbers an item).
  bool rename(Index n, Index from, Index to) {
    auto& l = lists_[static_cast<std::size_t>(n)];
    auto it = std::find(l.begin(), l.end(), from);
    if (it == l.end()) return false;
    *it = to;
    return true;
  }
  /// Appends an empty list for a new node; returns its index.
  Index add_node() {
    lists_.emplace_back();
    return static_cast<Index>(lists_.size() - 1);
  }
  void clear(Index n) { lists_[static_cast<std::size_t>(n)].clear(); }

 private:
  std::vector<std::vector<Index>> lists_;
};

/// Plain per-instance settings for building a SpringMesh (C++20 aggregate).
struct SpringMeshDef {
  double stiffness = 100.0;  ///< spring constant k of every spring (unit: N/m), > 0
  double damping = 0.05;     ///< spring damping along the spring axis (unit: N·s/m), >= 0
  /// Mass density, lumped to nodes (a third of each triangle's mass, a quarter of each tet's):
  /// areal density for membranes (unit: kg/m²), volume density for TetMesh bodies (unit: kg/m³).
  /// Ignored when node_mass > 0.
  double mass_density = 1.0;
  double node_mass = 0.0;    ///< if > 0, every node gets this mass instead (unit: kg)
  double max_stretch = 1.1;  ///< maximum length = max_stretch · rest length (dimensionless), >= 1
};

/// The data of a mass-spring body. See the groups and invariants at the top of this file.
struct SpringMesh {
  // ---- nodes ----
  std::vector<Vec3> rest_position;       ///< rest position (unit: m)
  std::vector<Vec3> position;            ///< current position (unit: m)
  std::vector<Vec3> velocity;            ///< current velocity (unit: m/s)
  std::vector<double> mass;              ///< lumped mass (unit: kg), > 0
  std::vector<double> inv_mass;          ///< 1/mass (unit: 1/kg); 0 marks a fixed node
  std::vector<double> stiffness_factor;  ///< material inhomogeneity at the node (dimensionless, 1)
  std::vector<double> tear_factor;       ///< multiplies the node's tear threshold (dimensionless, 1)
  std::vector<double> weight;            ///< t_i in the node stress S(n_i) = t_i Σ ½ S(s_ij) (1)
  std::vector<Index> origin;             ///< node of the initial mesh this one descends from

  // ---- springs ----
  std::vector<Edge> spring_nodes;                      ///< the two nodes (order carries no meaning)
  std::vector<double> rest_length;                     ///< rest length l0 (unit: m), > 0
  std::vector<double> stiffness;                       ///< spring constant k, factor included (unit: N/m)
  std::vector<double> damping;                         ///< axial damping (unit: N·s/m)
  std::vector<double> max_length;                      ///< Dragnet / Provot maximum length (unit: m)
  std::vector<double> spring_factor;                   ///< inhomogeneity factor in stiffness (dimensionless)
  std::vector<std::array<Index, 2>> spring_triangles;  ///< triangles on this edge, -1 if unused

  // ---- triangles (membrane, or the surface of a volume body) ----
  std::vector<Tri> tri_nodes;                     ///< three nodes, counter-clockwise about the normal
  std::vector<std::array<Index, 3>> tri_springs;  ///< spring of edge (k, k+1 mod 3)

  // ---- optional tetrahedra (volume bodies; empty for membranes) ----
  std::vector<Tet> tets;

  // ---- incidence (changes with tearing) ----
  Incidence node_springs;    ///< node -> springs ending at it
  Incidence node_triangles;  ///< node -> triangles containing it

  /// Incremented by every writer that adds, removes, renumbers or reconnects nodes, springs or
  /// triangles (tearing), so holders of indices or orders derived from the topology (a
  /// MethodStepper's breadth-first order, a renderer's buffers) know to rebuild them.
  std::uint64_t topology_version = 0;

  Index node_count() const { return static_cast<Index>(position.size()); }
  Index spring_count() const { return static_cast<Index>(spring_nodes.size()); }
  Index triangle_count() const { return static_cast<Index>(tri_nodes.size()); }
  bool fixed(Index n) const { return inv_mass[static_cast<std::size_t>(n)] == 0.0; }
  /// Fixes (inv_mass = 0) or frees (inv_mass = 1/mass) node n.
  void set_fixed(Index n, bool is_fixed) {
    const auto i = static_cast<std::size_t>(n);
    inv_mass[i] = is_fixed ? 0.0 : 1.0 / mass[i];
  }
  /// The other end of spring s seen from node n (n must be one of its ends).
  Index other_end(Index s, Index n) const {
    const Edge& e = spring_nodes[static_cast<std::size_t>(s)];
    return e[0] == n ? e[1] : e[0];
  }
  /// Current length of spring s (unit: m).
  double length(Index s) const {
    const Edge& e = spring_nodes[static_cast<std::size_t>(s)];
    return (position[static_cast<std::size_t>(e[1])] - position[static_cast<std::size_t>(e[0])]).norm();
  }

  // ---- the field lists: the only place that names every array of a group ----

  /// Calls f(array) for every per-node array (not the incidence lists), in declaration order.
  template <class F>
  void for_each_node_array(F&& f) {
    f(rest_position), f(position), f(velocity), f(mass), f(inv_mass), f(stiffness_factor), f(tear_factor),
        f(weight), f(origin);
  }
  template <class F>
  void for_each_node_array(F&& f) const {
    f(rest_position), f(position), f(velocity), f(mass), f(inv_mass), f(stiffness_factor), f(tear_factor),
        f(weight), f(origin);
  }
  /// Calls f(array) for every per-spring array, in declaration order.
  template <class F>
  void for_each_spring_array(F&& f) {
    f(spring_nodes), f(rest_length), f(stiffness), f(damping), f(max_length), f(spring_factor),
        f(spring_triangles);
  }
  template <class F>
  void for_each_spring_array(F&& f) const {
    f(spring_nodes), f(rest_length), f(stiffness), f(damping), f(max_length), f(spring_factor),
        f(spring_triangles);
  }
  /// Calls f(array) for every per-triangle array, in declaration order.
  template <class F>
  void for_each_triangle_array(F&& f) {
    f(tri_nodes), f(tri_springs);
  }
  template <class F>
  void for_each_triangle_array(F&& f) const {
    f(tri_nodes), f(tri_springs);
  }

  // ---- appending, copying, removing (topology writers use these; none bumps topology_version) ----

  /// Appends free nodes at rest at the given rest positions (unit: m): velocity 0, mass and inv_mass 0
  /// (the caller lumps masses, then sets inv_mass), unit factors and weight, origin = own index, no
  /// springs or triangles. Returns the index of the first.
  Index append_nodes(std::span<const Vec3> rest);
  /// Appends a copy of node n (every per-node attribute, origin included) with no springs or
  /// triangles; returns its index.
  Index duplicate_node(Index n);
  /// Appends a spring between `nodes` with the given rest length (unit: m), stiffness (unit: N/m),
  /// damping (unit: N·s/m) and maximum length (unit: m), factor 1, no triangles, and lists it at both
  /// nodes; returns its index.
  Index append_spring(const Edge& nodes, double rest_length, double stiffness, double damping,
                      double max_length);
  /// Appends a copy of spring s (every per-spring attribute) joining `nodes` instead, with no
  /// triangles, listed at both nodes; returns its index.
  Index duplicate_spring(Index s, const Edge& nodes);
  /// Moves the last spring's attributes into slot s and drops the last slot (swap-remove of the
  /// arrays only: the caller renames the references to the moved spring and updates the incidence).
  void move_last_spring_into(Index s);
  /// Moves the last triangle's arrays into slot t and drops the last slot (as move_last_spring_into).
  void move_last_triangle_into(Index t);
  /// Removes nodes and springs at once: node_map[old] is the new index of each node (-1: removed,
  /// new indices ascending), spring_map likewise for springs; every spring whose nodes survive must
  /// survive. Renames the references in the spring and triangle arrays, compacts every per-node and
  /// per-spring array and rebuilds the incidence lists (O(mesh size)).
  void compact(std::span<const Index> node_map, Index new_nodes, std::span<const Index> spring_map,
               Index new_springs);
};

/// Builds a membrane: one spring per unique triangle edge, masses lumped from triangle areas, every
/// node free, at rest (position = rest position, velocity 0). Fails with one line naming the
/// triangle or edge at fault: empty mesh, a node index out of range, a repeated node or zero-area
/// triangle, a zero-length edge, an edge shared by more than two triangles, or an invalid def.
Result<SpringMesh> build_spring_mesh(const TriMesh& membrane, const SpringMeshDef& def);

/// Builds a volume body: one spring per unique tetrahedron edge, masses lumped from tet volumes,
/// triangles = the boundary faces (with their edge springs), tets kept. Fails on empty mesh, bad
/// indices, degenerate (zero-volume) tets, or an invalid def.
Result<SpringMesh> build_spring_mesh(const TetMesh& body, const SpringMeshDef& def);

/// Builds a bare spring graph (no triangles): chains, single oscillators, hand-made networks.
/// def.node_mass must be > 0 (there are no elements to lump from). Fails on bad indices, repeated
/// or zero-length edges.
Result<SpringMesh> build_spring_graph(const std::vector<Vec3>& positions, const std::vector<Edge>& edges,
                                      const SpringMeshDef& def);

/// Checks invariants (N1)-(T3) above; the message names the first violation found. O(size), for tests
/// and debug checks after topology changes, not for the per-step path.
Status check_spring_mesh(const SpringMesh& mesh);

/// Mean rest length of the springs: the "mesh size" of Grimm's (2005) convergence tests (unit: m).
double mean_rest_length(const SpringMesh& mesh);

}  // namespace pliant::springs
