// The World's contact stages (contact.hpp): detection against rigid colliders and between bodies, the
// active set with Coulomb friction, and the per-pair events. No code here names a family: a contact is a
// grab of one surface node (Body::grab_patch with radius 0), which every family that takes contact holds
// in its own implicit solve, and its reaction (Body::grab_reaction) gives the contact force.
//
// Why a grab and not a penalty: an explicit penalty force k·depth is stable only for k < m/dt², far too
// soft at dt = 1/60 s on a stiff organ; a held node is treated implicitly by every family, exactly by
// a Green body (Nikitina et al. 2003; James & Pai 1999).
//
// Friction, from the reaction F of the last step (normal part f_n = F·n, tangential F_t):
//   f_n < −tol·|F|                 the body pulls away: released (not while its patch slides, below)
//   |F_t| ≤ (1 + tol)·μ·f_n        stick: the target stays where the node touched (collider frame, or
//                                  the other body's surface point)
//   otherwise                      slip.
// A body that reports its compliance C (grab_compliance: quasi-static, its force follows the held
// position, a Green body exactly) decides per contact: the wanted change of force is
// ΔF = (μ f_n/|F_t| − 1)·F_t, and the target slides by the tangential part of C·ΔF.
// A body that reports none (a dynamic one: its force follows the held node's acceleration) slides each
// contact patch (its contacts on one collider or one other body) as a whole, Coulomb's law on the
// patch's sums: every target moves by the patch's velocity (the nodes keep moving with the body, so a
// slide does not restart from rest each step) plus a correction of that move, ΔF_patch/k, that brings
// Σ F_t to −μ Σ f_n along the slide. k, the patch's stiffness against a change of its move over a step
// (N/m; M/dt² for a rigid body of mass M under backward Euler), is a secant over the last two steps,
// taken only upwards (a body's elastic lag reads stiffer than its inertia for a few steps; a too stiff
// k only slows the convergence, a too soft one overshoots), the first try a tenth of a margin, and a
// correction at most one margin a step. A sliding patch keeps sliding until its velocity would turn
// back, and its trailing nodes stay held while they pull (releasing them, with the front dragged along,
// rocked a sliding block onto its front edge). Measured: a FEM block on a 30° incline with μ = 0.2
// slides at a = 3.208 m/s² against g (sin θ − μ cos θ) = 3.206 (docs/scene-format.md). The patch slides
// rigidly in translation: a patch that turns while it slides, or slips in part, is not resolved.
// The decisions use the reaction of the previous step: a one-step lag, as in any active-set scheme
// that does not re-solve within the step.
//
// Body–body contact: per pair of bodies whose boxes (inflated by their margins) overlap, the surface
// nodes of one body (the slave) are tested against the current surface of the other (the master: core's
// MeshDistance over its triangles, the tree refitted every step and rebuilt on a new
// surface_topology_version; signed by the angle-weighted pseudonormal). A slave node closer than the two
// margins is held like a collider contact, its target on the master's surface point (triangle and
// barycentric point, so it follows the master's deformation) plus the margins along the master's face
// normal; the equal and opposite force goes to the master at that point (Body::apply_force: the
// family spreads it over the triangle's nodes by the barycentric weights). The slave is the body with
// the finer surface (the shorter mean edge; ties: the lower index), the usual node-to-segment choice
// (the finer mesh's nodes do not pass between the coarser mesh's), and a body that takes no response
// itself (an impact target) is always the master: a rigid surface with its current dents. A slave's
// patch on a master slides as on a collider, its velocity relative to the master's surface (the
// targets are points of that surface, so they follow the master's own motion). The gap is not split by
// the two compliances: the slave's node goes onto the master's surface and the master follows by the
// force.
//
// Caught before they arrive. Detection runs once per step, on the positions at the step's start, so a
// node moving v·dt a step would be found up to that deep inside the surface, and its hold would lift it
// out by that much at once: position projection,
// whose work goes into the body as elastic energy (an undamped springs ball dropped 2 cm on a plane
// gained 0.018 J on a 0.021 J drop so). A free node is therefore also caught when where it goes next,
// if it keeps its last step's velocity (x + (x − x_last)), is within the margin, a speculative contact;
// its target is the surface point nearest where it is now, plus the margin, which it reaches within the
// step by moving less than its velocity would take it: the hold slows it, never throws it. Measured:
// the springs ball's gain 3e-4 J, the example jelly's deepest landing 1.2 mm into its block (2.6 mm
// before), a FEM ball's energy still never above its start (tests/scene/contact_energy_test.cpp).
//
// This is a Dirichlet–Neumann (staggered) coupling: the slave is held at the master's surface within
// its own implicit solve, the master receives the slave's force of the previous step. Let ρ =
// C_master/C_slave (the master's response to the lagged force against the slave's to a held
// displacement, over a step). Handing the master F_n = −F_slave(n−1) multiplies the force error by −ρ a
// step: it converges only while the master is less compliant than the slave. The force handed over is
// therefore under-relaxed (Küttler & Wall 2008 discuss fixed and Aitken relaxation of such couplings):
// F_n = F_{n−1} + ω(−F_slave(n−1) − F_{n−1}), per contact, which multiplies the error by 1 − ω(1 + ρ): stable
// for ρ < 2/ω − 1 (ω = 0.3, the default ContactSolverDef::relaxation: ρ < 5.7; ω = 1/2 would clear the
// error in one step at ρ = 1, two bodies equally soft, but was measured to leave the example
// contact_bodies.json (a meshless jelly on a FEM block: ρ near 3) swinging by 6e-4 of the jelly's weight
// after 30 s, where ω = 0.3 settles it to round-off). A fixed ω, not Aitken's adaptive one: the contact set
// changes from step to step, and a fixed ω keeps the force handed over a plain, testable function of the last
// two. At dt = 1/60 s a dynamic body's step compliance is bounded by its inertia (a point force f moves a
// node by at most f·dt²/m over a step). At rest the master takes exactly minus the slave's force
// (Newton's third law); while the force changes it trails it by the relaxation.
//
// Self-contact (BodyContact::self): the body is its own master. Its free surface nodes are tested
// against its own surface triangles (a TriangleBvh over each of them twice, where it is and where it was
// at the last detection, refitted every step, rebuilt on a new surface_topology_version), the reach being the
// pair's margin with itself, twice the body's margin (a membrane's layers are held one margin each side of
// both). A contact is made and held as a body–body one: the node's target is the triangle's point plus the
// margin along the face normal, and the opposite force goes to the same body at that point, one step late and
// under-relaxed, so at rest the self-contact forces on the body sum to zero
// (tests/scene/self_contact_test.cpp: a folded strip).
//  * Neighbours. A node never touches a triangle that has it as a corner, nor one closer to it in the
//    rest shape (the surface when self-contact started or the topology last changed) than two mean
//    edges (or twice the reach, on a mesh finer than it): a metric n-ring, about two rings on a regular
//    mesh. With one ring only (the triangles that share the node) a springs membrane, which has no
//    bending stiffness and buckles at the scale of its cells wherever it is compressed (draped on a
//    sphere), held its own wrinkles apart along their normals and crumpled further, to a blow-up within
//    a second. The cost: a fold tighter than two cells is not held open.
//  * Only a node above or below the face: its gap within 45° of the face normal. A node beside an
//    edge, in the face's own layer (a compressed membrane), pushed along the normal would be thrown
//    out of its layer.
//  * Side. An open surface (a membrane) has no inside: the node is held on the side of the triangle it
//    was on at the previous detection (its last position carried along with the face's point, the
//    face's normal oriented as it was then, so a triangle turned inside out does not flip it), so the
//    margin applies on both sides of a membrane. A closed surface follows the same rule (its nodes come
//    from outside).
//  * Tunnelling. Detection is once per step, so a node moving more than the reach per step relative to
//    a face could pass through it between two detections: a face whose plane the node's relative path
//    (its last position carried with the face) crossed inside the face is a contact too, and the node is
//    held back on the side it came from. The candidate faces are those whose box, where they are or
//    where they were, meets the node's swept box grown by the reach: a face that went past a node by
//    more than its own size in one step is missed. (Growing every node's box by the largest move of
//    any node in the step instead cost 174 ms a step on the 10k-node self_fold bench, against 13 ms:
//    a few nodes jumping in a crumpled region made every box large.)
//  * Edge against edge. Two layers can cross between their nodes: an edge through another edge, which
//    no node–face test sees (every way two triangles come to intersect starts with a node through a
//    face or an edge through an edge, Provot 1997). Pairs of surface edges that share no node and are
//    no nearer at rest than the node–face neighbour radius are tested too (a tree over each edge's box
//    where it is and where it was, walked against itself for the overlapping pairs): a pair is a contact when
//    its closest points are within the reach with their gap within 45° of the edges' common normal (as for a
//    node above a face), or when the two edges passed through each other over the step (continuous: the four
//    ends, each on its straight path, become coplanar at a root of a cubic, bracketed and bisected, and the
//    edges meet then; Bridson, Fedkiw & Anderson 2002). The side is the one the edges were on at the last
//    detection (the common normal oriented as it was then), so a crossed pair is held back as it came. A
//    crossing counts only when the closest points' relative path is within 45° of the common normal (two
//    edges of one compressed layer slide over each other in its plane) and when the pair is found less than
//    the reach through: a deeper pass in one step is rarer than two layers already through each other
//    (a fold tighter than the neighbour radius) moving, and holding those on their last side keeps them
//    crossed (measured: the example membrane_fold.json ended with 700-1 900 intersecting pairs, not 61, when
//    every crossing was held back). One edge
//    (the slave, the one with more ends free to hold) has its ends held off the other's closest point,
//    which takes the opposite force like a node–face master: the gap to the reach is made up by moving
//    each held end by its barycentric weight over the sum of the held ends' squared weights (Bridson et
//    al.'s edge–edge impulse weights, one side only), so the closest point moves by exactly the gap; an
//    end carrying under a quarter of the point is not held. The held ends stay at their offset from the
//    other edge's point (sticking, as node–face self-contacts do), and an edge with an end so held is
//    not tested again until it is let go. Parallel edges (sine under 1e-3) are left to node–face.
//    What this cannot do: a node takes one hold, so a pair whose nodes all carry a contact already (a
//    layer's nodes held by a floor, another's by self-contacts) is not held apart (the folded strip of
//    tests/scene/self_contact_test.cpp keeps 3 intersecting pairs so, against 7 with node–face alone).
//  * Friction. A self-contact sticks while it pushes and is released when it pulls: a dynamic body's
//    patch slides as a whole (above), which means nothing for two layers of one body (their forces
//    cancel in the patch's sums); sliding them so was measured to throw the layers through each other.
// The cost: one query per free surface node per step of a tree twice the surface's size, its box the
// node's sweep grown by the reach (O(n log n)), and a rest-shape distance per candidate triangle; for the
// edges one walk of their tree against itself (one query per edge instead, on a tree over the edges where
// they are and where they were, cost 171-236 ms a step on the 10k-node self_fold bench, loaded, against
// 46-49 ms for the walk and 13 ms for the node–face test alone) and a rest-shape distance per pair.

#include "pliant/scene/world.hpp"

#include "pliant/core/bvh.hpp"
#include "pliant/core/geometry.hpp"
#include "pliant/core/mesh_distance.hpp"
#include "pliant/scene/capabilities.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>

namespace pliant::scene {

namespace {
// Closest points of segments (a, b) and (c, d): p = a + s·(b − a), q = c + t·(d − c), s, t in [0, 1];
// returns p − q (unit: m). The squared distance is convex in (s, t): the stationary point with s clamped
// to [0, 1], t best for that s clamped, then s best for that t clamped (parallel segments: from s = 0).
Vec3 segment_closest(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d, double& s, double& t) {
  const Vec3 u = b - a, v = d - c, w = a - c;
  const double uu = u.dot(u), vv = v.dot(v), uv = u.dot(v), uw = u.dot(w), vw = v.dot(w);
  const auto unit = [](double x) { return x < 0.0 ? 0.0 : x > 1.0 ? 1.0 : x; };
  s = t = 0.0;
  if (uu > 1e-300 && vv > 1e-300) {
    const double det = uu * vv - uv * uv;
    s = det > 1e-14 * uu * vv ? unit((uv * vw - vv * uw) / det) : 0.0;
    t = unit((uv * s + vw) / vv);
    s = unit((uv * t - uw) / uu);
  } else if (vv > 1e-300) {
    t = unit(vw / vv);
  } else if (uu > 1e-300) {
    s = unit(-uw / uu);
  }
  return (a + s * u) - (c + t * v);
}

// Whether segments (p[0], p[1]) and (p[2], p[3]), each point moving on a straight line from `from` to `to`
// over the step, pass through each other: the four points are coplanar at a root τ of the cubic
// ((p1 − p0) × (p3 − p2))·(p2 − p0), and the segments are then closer than `tol` (unit: m). The
// continuous edge–edge test of Provot 1997 and Bridson, Fedkiw & Anderson 2002; the roots are bracketed
// on four pieces of the step and bisected.
bool segments_pass(const std::array<Vec3, 4>& from, const std::array<Vec3, 4>& to, double tol) {
  const auto at = [&](double tau) {
    std::array<Vec3, 4> p;
    for (std::size_t k = 0; k < 4; ++k) p[k] = from[k] + tau * (to[k] - from[k]);
    return p;
  };
  const auto volume = [&](double tau) {
    const std::array<Vec3, 4> p = at(tau);
    return (p[1] - p[0]).cross(p[3] - p[2]).dot(p[2] - p[0]);
  };
  const auto meet = [&](double tau) {
    const std::array<Vec3, 4> p = at(tau);
    double s = 0.0, t = 0.0;
    return segment_closest(p[0], p[1], p[2], p[3], s, t).norm() < tol;
  };
  constexpr int kPieces = 4;
  double lo = 0.0, vlo = volume(0.0);
  for (int k = 1; k <= kPieces; ++k) {
    const double hi = static_cast<double>(k) / kPieces, vhi = volume(hi);
    if (vlo * vhi <= 0.0) {
      double a = lo, b = hi, va = vlo;
      for (int it = 0; it < 60 && va != 0.0; ++it) {
        const double m = 0.5 * (a + b), vm = volume(m);
        if (va * vm <= 0.0) {
          b = m;
        } else {
          a = m;
          va = vm;
        }
      }
      if (meet(va == 0.0 ? a : b) || meet(lo) || meet(hi)) return true;
    }
    lo = hi;
    vlo = vhi;
  }
  return false;
}

// A bounding volume hierarchy over boxes (the surface edges' sweeps), built once by median splits and
// refitted every step, whose pairs of overlapping boxes are found in one walk of the tree against itself
// (O(n + pairs), where a query per box costs O(n log n) and finds every pair twice).
class BoxTree {
 public:
  // Builds over boxes[0, n) (only their centres matter for the shape of the tree).
  void build(const std::vector<Aabb>& boxes) {
    nodes_.clear();
    order_.resize(boxes.size());
    for (std::size_t i = 0; i < boxes.size(); ++i) order_[i] = static_cast<Index>(i);
    if (!boxes.empty()) {
      nodes_.push_back({});
      fill(boxes, 0, 0, static_cast<Index>(boxes.size()));
    }
    refit(boxes);
  }
  // The boxes of the same items, moved.
  void refit(const std::vector<Aabb>& boxes) {
    for (std::size_t k = nodes_.size(); k-- > 0;) {
      Node& node = nodes_[k];
      node.box = Aabb{};
      if (node.count > 0) {
        for (Index i = node.first; i < node.first + node.count; ++i)
          node.box.merge(boxes[static_cast<std::size_t>(order_[static_cast<std::size_t>(i)])]);
      } else {
        node.box.merge(nodes_[static_cast<std::size_t>(node.first)].box);
        node.box.merge(nodes_[static_cast<std::size_t>(node.first) + 1].box);
      }
    }
  }
  // Calls pair(i, j), i < j, for every two items whose boxes overlap.
  template <class Pair>
  void pairs(const std::vector<Aabb>& boxes, Pair&& pair) const {
    if (nodes_.empty()) return;
    std::vector<std::array<Index, 2>> stack{{0, 0}};
    const auto item = [this](Index k) { return order_[static_cast<std::size_t>(k)]; };
    const auto report = [&](Index a, Index b) {
      if (boxes[static_cast<std::size_t>(a)].overlaps(boxes[static_cast<std::size_t>(b)]))
        pair(std::min(a, b), std::max(a, b));
    };
    while (!stack.empty()) {
      const auto [p, q] = stack.back();
      stack.pop_back();
      const Node& a = nodes_[static_cast<std::size_t>(p)];
      const Node& b = nodes_[static_cast<std::size_t>(q)];
      if (p == q) {
        if (a.count > 0) {
          for (Index i = a.first; i < a.first + a.count; ++i)
            for (Index j = i + 1; j < a.first + a.count; ++j) report(item(i), item(j));
        } else {
          stack.push_back({a.first, a.first});
          stack.push_back({a.first + 1, a.first + 1});
          stack.push_back({a.first, a.first + 1});
        }
        continue;
      }
      if (!a.box.overlaps(b.box)) continue;
      if (a.count > 0 && b.count > 0) {
        for (Index i = a.first; i < a.first + a.count; ++i)
          for (Index j = b.first; j < b.first + b.count; ++j) report(item(i), item(j));
      } else if (b.count > 0 ||
                 (a.count == 0 && a.box.extent().squaredNorm() >= b.box.extent().squaredNorm())) {
        stack.push_back({a.first, q});
        stack.push_back({a.first + 1, q});
      } else {
        stack.push_back({p, b.first});
        stack.push_back({p, b.first + 1});
      }
    }
  }

 private:
  struct Node {
    Aabb box;
    Index first = 0;  // leaf: its first item in order_; inner: its first child (the second follows)
    Index count = 0;  // items in a leaf, 0 for an inner node
  };
  // Node `at` over order_[begin, end): a leaf of up to four items, or split at the median of the
  // centres along the widest axis of their bounds, its two children next to each other after it.
  void fill(const std::vector<Aabb>& boxes, Index at, Index begin, Index end) {
    if (end - begin <= 4) {
      nodes_[static_cast<std::size_t>(at)].first = begin;
      nodes_[static_cast<std::size_t>(at)].count = end - begin;
      return;
    }
    Aabb centres;
    for (Index i = begin; i < end; ++i)
      centres.extend(boxes[static_cast<std::size_t>(order_[static_cast<std::size_t>(i)])].centre());
    int axis = 0;
    centres.extent().maxCoeff(&axis);
    const Index mid = begin + (end - begin) / 2;
    // A non-finite centre (a body blown up) sorts last, so the order stays a strict weak one.
    const auto key = [&](Index x) {
      const double c = boxes[static_cast<std::size_t>(x)].centre()[axis];
      return std::isfinite(c) ? c : std::numeric_limits<double>::infinity();
    };
    std::nth_element(order_.begin() + begin, order_.begin() + mid, order_.begin() + end,
                     [&](Index x, Index y) { return key(x) < key(y); });
    const Index left = static_cast<Index>(nodes_.size());
    nodes_.push_back({});
    nodes_.push_back({});
    nodes_[static_cast<std::size_t>(at)].first = left;
    fill(boxes, left, begin, mid);
    fill(boxes, left + 1, mid, end);
  }
  std::vector<Node> nodes_;
  std::vector<Index> order_;
};
}  // namespace

struct World::ContactState {
  struct Contact {
    Index node = -1;
    Index collider = -1;  // the collider holding the node, or -1
    Index other = -1;     // the body whose surface holds the node, or -1
    GrabId grab;
    Vec3 anchor = Vec3::Zero();   // collider: where the node is held on its surface, collider frame (unit: m)
    SurfacePoint on;              // other body: where the node is held on its surface
    Vec3 normal = Vec3::UnitZ();  // outward normal at the target, world frame
    double margin = 0.0;          // the pair's margin (unit: m)
    double friction = 0.0;        // the pair's μ
    double penetration = 0.0;     // below the surface before this step's response (unit: m)
    bool slipping = false;
    // Edge–edge self-contact (header comment): the node is one end of an edge held off another edge,
    // its target the other edge's point `on` plus this offset (unit: m), not the margin along the normal.
    bool edge = false;
    Vec3 offset = Vec3::Zero();
    Vec3 slide = Vec3::Zero();    // the target's move along the surface this step, 0 when sticking (unit: m)
    Vec3 force = Vec3::Zero();    // the contact's force on the body after the last step (unit: N)
    Vec3 applied = Vec3::Zero();  // the force handed to `other` this step (unit: N)
  };
  // The contacts of a dynamic body (no grab_compliance) on one collider or other body, slid as a
  // whole: the patch's tangential force is held at μ × its normal force by moving every target by
  // the patch's velocity (the nodes keep moving with the body) plus a correction of the step's
  // displacement found from the patch's own response (a secant over the last two steps).
  struct Patch {
    Index collider = -1;
    Index other = -1;
    int count = 0;                   // contacts in it this step
    double normal_force = 0.0;       // Σ f_n of the last step (unit: N)
    Vec3 tangential = Vec3::Zero();  // Σ F_t of the last step (unit: N)
    double friction = 0.0;           // the pair's μ
    double margin = 0.0;             // the pair's margin (unit: m)
    bool slipping = false;
    Vec3 velocity = Vec3::Zero();         // the targets' move this step (unit: m per step)
    Vec3 change = Vec3::Zero();           // the move's change from the step before (unit: m per step)
    Vec3 last_change = Vec3::Zero();      // ... one step earlier (unit: m per step)
    Vec3 last_tangential = Vec3::Zero();  // Σ F_t one step earlier (unit: N)
    double stiffness = 0.0;               // ∂F_t/∂change, secant estimate (unit: N/m); 0: not yet known
  };
  struct Candidate {
    Index node = -1;
    Index collider = -1;
    Index other = -1;
    SurfaceDistance d;
    SurfacePoint on;
    bool edge = false;           // edge–edge self-contact: the target is d.point + offset
    Vec3 offset = Vec3::Zero();  // (unit: m)
  };
  struct PerBody {
    std::uint64_t version = ~std::uint64_t{0};
    std::vector<SurfacePoint> corner;  // per surface node, a (triangle, corner) naming it
    std::vector<std::int32_t> slot;    // per surface node, its contact or -1
    std::vector<std::uint8_t> unholdable;
    std::vector<Contact> contacts;
    std::vector<Patch> patches;
    std::vector<Candidate> candidates;
    bool on = false;    // contact enabled this step
    Aabb box;           // the surface's bounds this step (unit: m)
    double edge = 0.0;  // mean surface edge length at the last rebuild (unit: m)
    // The surface nodes where they were at the last detection (empty after a new topology or a pause):
    // where each goes next, x + (x − last), is tested too (header comment, "Caught before they arrive").
    std::vector<Vec3> last;
    // The surface as a master of body–body contact: built on a new topology, refitted every step it is
    // needed (`fresh`).
    std::unique_ptr<MeshDistance> surface;
    std::uint64_t surface_version = ~std::uint64_t{0};
    bool fresh = false;
    // Self-contact (header comment): on this step, the tree over the body's own triangles where they are
    // and where they were at the last detection (triangle k and k + count, over `swept`: the nodes now,
    // then as they were), the surface in its rest shape (for the neighbour rule), now and at the last
    // detection (for the side).
    bool self = false;
    TriangleBvh self_tree;
    std::uint64_t self_version = ~std::uint64_t{0};
    std::vector<Vec3> rest, now, previous, swept;
    // Edge–edge self-contact: the surface's edges (each once), each with a triangle that has it and its
    // two corners there, and a tree over their boxes (each edge where it is and where it was).
    struct Edge {
      Index a = -1, b = -1;
      Index triangle = -1;
      std::size_t ca = 0, cb = 0;
    };
    std::vector<Edge> edges;
    std::vector<Aabb> edge_boxes;
    BoxTree edge_tree;
  };
  std::vector<PerBody> bodies;
  std::vector<Pose> poses;   // per collider, at the step's end
  std::vector<Aabb> bounds;  // per collider, world frame
  double dt = 0.0;           // the step (unit: s)

  // The patch of pb's contacts on collider `collider` or other body `other` (made when new).
  static Patch& patch(PerBody& pb, Index collider, Index other) {
    for (Patch& p : pb.patches)
      if (p.collider == collider && p.other == other) return p;
    Patch p;
    p.collider = collider;
    p.other = other;
    pb.patches.push_back(p);
    return pb.patches.back();
  }
  // Stick or slip of a patch from its last forces, and its targets' move for this step.
  static void decide(Patch& p, double tol) {
    const double limit = p.friction * p.normal_force;
    const double ftn = p.tangential.norm();
    const auto stick = [&p] {
      // The targets stay where they are; a slide starts again from rest.
      Patch fresh;
      fresh.collider = p.collider;
      fresh.other = p.other;
      fresh.count = p.count;
      fresh.stiffness = p.stiffness;
      p = fresh;
    };
    // A patch at rest slips when its force leaves the cone; a sliding one keeps sliding (kinetic
    // friction −μ f_n along its velocity) until its velocity would turn back.
    if (!(p.normal_force > 0.0) || (!p.slipping && ftn <= (1.0 + tol) * limit)) {
      stick();
      return;
    }
    const Vec3 along = p.slipping && p.velocity.squaredNorm() > 0.0 ? Vec3(p.velocity.normalized())
                                                                    : Vec3(-p.tangential / ftn);
    // The wanted change of the patch's force: to −μ f_n along the slide.
    const Vec3 excess = -limit * along - p.tangential;
    if (p.slipping) {
      // Secant: the last change of the move changed Σ F_t by (F_t − last F_t). Taken only when that
      // change is large against the move's own size, so a step's wobble is not read as the response,
      // and only upwards: a body's elastic lag makes the response look stiffer than its inertia for a
      // few steps, and a too stiff estimate only slows the slide's convergence, a too soft one
      // overshoots.
      const Vec3 dc = p.change - p.last_change;
      const double k = (p.tangential - p.last_tangential).dot(dc) / std::max(dc.squaredNorm(), 1e-300);
      if (dc.norm() > 0.05 * p.change.norm() && k > p.stiffness)
        p.stiffness = p.stiffness > 0.0 ? std::min(k, 4.0 * p.stiffness) : k;
    }
    // First slip without an estimate: a tenth of a margin along the excess.
    Vec3 step = p.stiffness > 0.0 ? Vec3(excess / p.stiffness) : Vec3(0.1 * p.margin * excess.normalized());
    // At most one margin a step: a misread response never throws the patch off the surface.
    if (step.norm() > p.margin) step *= p.margin / step.norm();
    const Vec3 change = p.change + step;
    const Vec3 velocity = p.velocity + change;
    if (p.slipping && velocity.dot(p.velocity) <= 0.0) {
      stick();
      return;
    }
    p.last_change = p.change;
    p.last_tangential = p.tangential;
    p.change = change;
    p.velocity = velocity;
    p.slipping = true;
  }
  // Whether triangle t of the rest shape is a neighbour of node i for self-contact (header comment): i is
  // one of its corners, or it is closer to i than `skip` (unit: m).
  static bool neighbour(const PerBody& pb, const Tri& t, Index i, double skip) {
    if (t[0] == i || t[1] == i || t[2] == i) return true;
    const auto at = [&pb](Index k) -> const Vec3& { return pb.rest[static_cast<std::size_t>(k)]; };
    double u = 0.0, v = 0.0;
    const Vec3& p = at(i);
    return (closest_point_on_triangle(p, at(t[0]), at(t[1]), at(t[2]), u, v) - p).squaredNorm() < skip * skip;
  }
  // The rest distance below which a triangle is a node's neighbour for self-contact (unit: m): two mean
  // edges, or twice the reach on a mesh finer than it (header comment).
  static double skip_radius(const PerBody& pb, double reach) { return std::max(2.0 * reach, 2.0 * pb.edge); }
  // Self-contact candidates of body b, its surface at x with triangles tris, within `reach` (unit: m; the
  // body's margin twice): per free node, the deepest non-neighbouring triangle within the reach, or one
  // it crossed since the last detection (header comment).
  static void detect_self(PerBody& pb, Index b, std::span<const Vec3> x, std::span<const Tri> tris,
                          std::uint64_t version, double reach) {
    pb.now.assign(x.begin(), x.end());
    const bool rebuild = pb.self_version != version || pb.rest.size() != x.size();
    if (rebuild) {
      pb.self_version = version;
      pb.rest = pb.now;
    }
    if (pb.previous.size() != x.size()) pb.previous = pb.now;
    pb.swept.assign(pb.now.begin(), pb.now.end());
    pb.swept.insert(pb.swept.end(), pb.previous.begin(), pb.previous.end());
    if (rebuild) {
      std::vector<Tri> both(tris.begin(), tris.end());
      const Index n = static_cast<Index>(x.size());
      for (const Tri& t : tris) both.push_back({t[0] + n, t[1] + n, t[2] + n});
      pb.self_tree.build(pb.swept, both);
    } else {
      pb.self_tree.refit(pb.swept);
    }
    const std::vector<Vec3>& now = pb.now;
    const std::vector<Vec3>& before = pb.previous;
    const Index count = static_cast<Index>(tris.size());
    const double skip = skip_radius(pb, reach);
    std::vector<Index> seen;  // faces met where they are, for the node at hand (ascending)
    const auto normal_of = [](const std::vector<Vec3>& p, const Tri& t) {
      return Vec3((p[static_cast<std::size_t>(t[1])] - p[static_cast<std::size_t>(t[0])])
                      .cross(p[static_cast<std::size_t>(t[2])] - p[static_cast<std::size_t>(t[0])]));
    };
    for (std::size_t i = 0; i < x.size(); ++i) {
      if (pb.slot[i] >= 0 || pb.unholdable[i] || pb.corner[i].triangle < 0) continue;
      const Vec3& xi = now[i];
      const Vec3& xp = before[i];
      Aabb box;
      box.extend(xi);
      box.extend(xp);
      Candidate best;
      best.d.distance = std::numeric_limits<double>::infinity();
      seen.clear();
      // A face where it is or where it was near the node's sweep (ascending: a face's two copies are k
      // and k + count, so a face already seen now is skipped as it was).
      for (const Index hit : pb.self_tree.overlapping(box.inflated(reach))) {
        const Index k = hit % count;
        if (hit >= count && std::binary_search(seen.begin(), seen.end(), k)) continue;
        if (hit < count) seen.push_back(k);
        const Tri& t = tris[static_cast<std::size_t>(k)];
        if (neighbour(pb, t, static_cast<Index>(i), skip)) continue;
        const std::size_t t0 = static_cast<std::size_t>(t[0]), t1 = static_cast<std::size_t>(t[1]),
                          t2 = static_cast<std::size_t>(t[2]);
        double u = 0.0, v = 0.0;
        const Vec3 q = closest_point_on_triangle(xi, now[t0], now[t1], now[t2], u, v);
        const double d = (xi - q).norm();
        const Vec3 nn = normal_of(now, t);
        if (!(nn.squaredNorm() > 1e-300)) continue;  // collapsed
        const Vec3 np = normal_of(before, t);
        // Oriented as the triangle was at the last detection: a triangle that turned inside out since
        // (a crumpling membrane) has not been crossed by its nodes' neighbours.
        const Vec3 n = np.dot(nn) < 0.0 ? Vec3(-nn.normalized()) : Vec3(nn.normalized());
        // The node's last position carried along with the face's point: its path relative to the face.
        const Vec3 qp = (1.0 - u - v) * before[t0] + u * before[t1] + v * before[t2];
        const Vec3 from = xp + (q - qp);
        const double was = (from - q).dot(n), is = (xi - q).dot(n);
        // Through the face: the relative path meets its plane inside it.
        bool crossed = false;
        if (was * is < 0.0) {
          const Vec3 hit = from + (xi - from) * (was / (was - is));
          double hu = 0.0, hv = 0.0;
          crossed =
              (closest_point_on_triangle(hit, now[t0], now[t1], now[t2], hu, hv) - hit).norm() < 1e-6 * reach;
        }
        // Only a node above or below the face (its gap within 45° of the normal): a node beside an edge,
        // in the face's own layer (a compressed membrane), pushed along the face normal would be thrown
        // out of its layer.
        if (!crossed && !(d < reach && std::abs(is) >= std::sqrt(0.5) * d)) continue;
        const double side = was > 0.0 ? 1.0 : was < 0.0 ? -1.0 : (is < 0.0 ? -1.0 : 1.0);
        const double gap = side * is;  // below zero once through
        if (gap < best.d.distance) {
          best.node = static_cast<Index>(i);
          best.other = b;
          best.d = {gap, q, side * n};
          best.on = {k, u, v};
        }
      }
      if (best.node >= 0) pb.candidates.push_back(best);
    }
    detect_self_edges(pb, b, tris, rebuild, reach, skip);
    pb.previous.swap(pb.now);
  }
  // Edge–edge self-contact candidates of body b (header comment): per pair of surface edges that share no
  // node and are no nearer than `skip` at rest (unit: m), closer than `reach` (unit: m) above or below each
  // other, or whose paths over the step passed through each other: the ends of one edge (the slave),
  // each a candidate held off the other edge's closest point.
  static void detect_self_edges(PerBody& pb, Index b, std::span<const Tri> tris, bool rebuild, double reach,
                                double skip) {
    if (rebuild) {
      pb.edges.clear();
      for (std::size_t k = 0; k < tris.size(); ++k)
        for (std::size_t c = 0; c < 3; ++c) {
          const std::size_t d = (c + 1) % 3;
          const bool up = tris[k][c] < tris[k][d];
          pb.edges.push_back({up ? tris[k][c] : tris[k][d], up ? tris[k][d] : tris[k][c],
                              static_cast<Index>(k), up ? c : d, up ? d : c});
        }
      std::sort(pb.edges.begin(), pb.edges.end(), [](const PerBody::Edge& x, const PerBody::Edge& y) {
        return x.a != y.a ? x.a < y.a : x.b < y.b;
      });
      pb.edges.erase(std::unique(pb.edges.begin(), pb.edges.end(),
                                 [](const PerBody::Edge& x, const PerBody::Edge& y) {
                                   return x.a == y.a && x.b == y.b;
                                 }),
                     pb.edges.end());
    }
    // Each edge where it is and where it was, grown by half the reach: two boxes meet when the edges'
    // sweeps come within the reach of each other.
    pb.edge_boxes.resize(pb.edges.size());
    for (std::size_t k = 0; k < pb.edges.size(); ++k) {
      Aabb box;
      for (const Index i : {pb.edges[k].a, pb.edges[k].b}) {
        box.extend(pb.now[static_cast<std::size_t>(i)]);
        box.extend(pb.previous[static_cast<std::size_t>(i)]);
      }
      pb.edge_boxes[k] = box.inflated(0.5 * reach);
    }
    if (rebuild) {
      pb.edge_tree.build(pb.edge_boxes);
    } else {
      pb.edge_tree.refit(pb.edge_boxes);
    }
    const auto at = [](const std::vector<Vec3>& p, Index i) -> const Vec3& {
      return p[static_cast<std::size_t>(i)];
    };
    // A node held by an edge–edge contact: its edges are held already (tested again once it is let go).
    const auto edge_held = [&pb](Index i) {
      const std::int32_t k = pb.slot[static_cast<std::size_t>(i)];
      return k >= 0 && pb.contacts[static_cast<std::size_t>(k)].edge;
    };
    const auto holdable = [&pb](Index i) {
      const std::size_t k = static_cast<std::size_t>(i);
      return pb.slot[k] < 0 && !pb.unholdable[k] && pb.corner[k].triangle >= 0;
    };
    // The point at parameter w along edge e (from its end a) as a point of its triangle.
    const auto edge_point = [&pb](const PerBody::Edge& e, double w) {
      double weight[3] = {0.0, 0.0, 0.0};
      weight[e.ca] = 1.0 - w;
      weight[e.cb] = w;
      return SurfacePoint{e.triangle, weight[1], weight[2]};
    };
    pb.edge_tree.pairs(pb.edge_boxes, [&](Index ei, Index fi) {
      const PerBody::Edge& e = pb.edges[static_cast<std::size_t>(ei)];
      const PerBody::Edge& f = pb.edges[static_cast<std::size_t>(fi)];
      if (f.a == e.a || f.a == e.b || f.b == e.a || f.b == e.b || edge_held(e.a) || edge_held(e.b) ||
          edge_held(f.a) || edge_held(f.b))
        return;
      double s = 0.0, t = 0.0;
      if (segment_closest(at(pb.rest, e.a), at(pb.rest, e.b), at(pb.rest, f.a), at(pb.rest, f.b), s, t)
              .squaredNorm() < skip * skip)
        return;  // neighbours at rest
      const std::array<Vec3, 4> from{at(pb.previous, e.a), at(pb.previous, e.b), at(pb.previous, f.a),
                                     at(pb.previous, f.b)};
      const std::array<Vec3, 4> to{at(pb.now, e.a), at(pb.now, e.b), at(pb.now, f.a), at(pb.now, f.b)};
      const Vec3 r = segment_closest(to[0], to[1], to[2], to[3], s, t);
      const double distance = r.norm();
      const Vec3 across = (to[1] - to[0]).cross(to[3] - to[2]);
      // (Nearly) parallel edges: no crossing direction; node–face holds such layers.
      if (!(across.norm() > 1e-3 * (to[1] - to[0]).norm() * (to[3] - to[2]).norm())) return;
      // The common normal, oriented as at the last detection; `was` and `is`: the side of e's line from
      // f's then and now along it.
      const Vec3 then = (from[1] - from[0]).cross(from[3] - from[2]);
      const Vec3 axis = then.dot(across) < 0.0 ? Vec3(-across.normalized()) : Vec3(across.normalized());
      const double was = (from[0] - from[2]).dot(then.dot(across) < 0.0 ? Vec3(-then) : then),
                   is = r.dot(axis);
      // The relative path of the closest points (their last positions at the same parameters): a crossing
      // counts only along the normal, within 45° of it, as a node through a face's plane: two edges of one
      // compressed layer slide over each other in the layer's plane.
      const Vec3 path = r - ((from[0] + s * (from[1] - from[0])) - (from[2] + t * (from[3] - from[2])));
      const bool crossed = was * is < 0.0 && std::abs(path.dot(axis)) >= std::sqrt(0.5) * path.norm() &&
                           segments_pass(from, to, 1e-6 * reach);
      // Only one edge above or below the other (the gap within 45° of the common normal): two edges of
      // one layer of a compressed membrane would be thrown out of it.
      if (!crossed && !(distance < reach && std::abs(is) >= std::sqrt(0.5) * distance)) return;
      const double side = crossed ? (was > 0.0 ? 1.0 : -1.0) : (is < 0.0 ? -1.0 : 1.0);
      // A pair found more than the reach through is not held back: a pass that deep in one step is
      // rarer than two layers already through each other (a fold tighter than the neighbour radius)
      // moving, and holding those on their last side keeps them crossed.
      if (crossed && std::abs(is) > reach) return;
      const Vec3 normal = side * axis;  // from f towards e
      const double gap = side * is;     // below zero once through
      // The slave: the edge with more ends free to hold (ties: e).
      const int free_e = int(holdable(e.a)) + int(holdable(e.b)),
                free_f = int(holdable(f.a)) + int(holdable(f.b));
      if (free_e == 0 && free_f == 0) return;
      const bool e_slave = free_e >= free_f;
      const PerBody::Edge& slave = e_slave ? e : f;
      const PerBody::Edge& master = e_slave ? f : e;
      const double w = e_slave ? s : t;                    // the closest point's parameter on the slave
      const double wm = e_slave ? t : s;                   // ... and on the master
      const Vec3 push = e_slave ? normal : Vec3(-normal);  // the slave's way out
      const Vec3 q = at(pb.now, master.a) + wm * (at(pb.now, master.b) - at(pb.now, master.a));
      // The gap made up to the reach by moving the slave's held ends, each by its barycentric weight
      // over the sum of the held ends' squared weights, so the closest point moves by exactly that
      // (Bridson, Fedkiw & Anderson 2002's edge–edge weights, one side only). An end that carries
      // under a quarter of the point is not held.
      const double beta[2] = {1.0 - w, w};
      const Index ends[2] = {slave.a, slave.b};
      bool hold[2] = {false, false};
      double sum = 0.0;
      for (int k = 0; k < 2; ++k) {
        hold[k] = holdable(ends[k]) && beta[k] >= 0.25;
        if (hold[k]) sum += beta[k] * beta[k];
      }
      if (!(sum > 0.0)) return;
      const double make_up = reach - gap;
      for (int k = 0; k < 2; ++k) {
        if (!hold[k]) continue;
        Candidate c;
        c.node = ends[k];
        c.other = b;
        c.d = {gap, q, push};
        c.on = edge_point(master, wm);
        c.edge = true;
        c.offset = at(pb.now, ends[k]) + std::max(0.0, make_up) * (beta[k] / sum) * push - q;
        pb.candidates.push_back(c);
      }
    });
  }
  // Lets go of contact k of pb (swapped with the last).
  static void drop(PerBody& pb, std::size_t k, Body& body) {
    Contact& c = pb.contacts[k];
    body.release(c.grab);
    pb.slot[static_cast<std::size_t>(c.node)] = -1;
    if (k + 1 != pb.contacts.size()) {
      c = pb.contacts.back();
      pb.slot[static_cast<std::size_t>(c.node)] = static_cast<std::int32_t>(k);
    }
    pb.contacts.pop_back();
  }
  // The contact's force on the body after the last step (unit: N): minus the body's force on the grab.
  static Vec3 force(const Contact& c, const Body& body) { return -body.grab_reaction(c.grab); }
};

namespace {
const BodyContact kDefaultContact{};

double mean_edge(std::span<const Vec3> x, std::span<const Tri> tris) {
  double sum = 0.0;
  for (const Tri& t : tris)
    for (int c = 0; c < 3; ++c)
      sum += (x[static_cast<std::size_t>(t[static_cast<std::size_t>(c)])] -
              x[static_cast<std::size_t>(t[static_cast<std::size_t>((c + 1) % 3)])])
                 .norm();
  return tris.empty() ? 0.0 : sum / (3.0 * static_cast<double>(tris.size()));
}

// The unit normal of a body's surface triangle at positions x, or `fallback` for a collapsed one.
// Where surface node i goes next if it keeps the velocity of its last step: x + (x − last) (unit: m).
Vec3 ahead(std::span<const Vec3> x, std::span<const Vec3> last, std::size_t i) {
  return 2.0 * x[i] - last[i];
}

Vec3 face_normal(std::span<const Vec3> x, const Tri& t, const Vec3& fallback) {
  const Vec3 a = x[static_cast<std::size_t>(t[0])];
  const Vec3 n = (x[static_cast<std::size_t>(t[1])] - a).cross(x[static_cast<std::size_t>(t[2])] - a);
  const double length = n.norm();
  return length > 1e-300 ? Vec3(n / length) : fallback;
}
}  // namespace

Result<Index> World::add_collider(Collider collider) {
  if (Status s = validate(collider); !s.ok()) return Error{s.message()};
  colliders_.push_back(std::move(collider));
  return static_cast<Index>(colliders_.size() - 1);
}

Result<Index> World::add_instrument(Instrument instrument) {
  if (Status s = validate(instrument); !s.ok()) return Error{s.message()};
  for (const Collider& c : colliders_)
    if (c.name == instrument.name)
      return Error{"instrument \"" + instrument.name + "\": the name is taken by a collider"};
  if (instrument.device)
    for (const Instrument& other : instruments_)
      if (other.device)
        return Error{"instrument \"" + instrument.name + "\": the device already drives instrument \"" +
                     other.name + "\" (one device drives one instrument)"};
  InstrumentState st;
  st.tip = instrument.pose_at(time_);
  st.gap = instrument.jaws.opening;
  const std::vector<Collider> colliders = scene::instrument_colliders(instrument, st.tip, st.gap);
  for (const Collider& c : colliders) {
    Result<Index> collider = add_collider(c);
    if (!collider.ok()) {
      colliders_.resize(st.collider < 0 ? colliders_.size() : static_cast<std::size_t>(st.collider));
      return collider;
    }
    if (st.collider < 0) st.collider = collider.value();
  }
  st.colliders = static_cast<int>(colliders.size());
  instruments_.push_back(std::move(instrument));
  instrument_state_.push_back(st);
  return static_cast<Index>(instruments_.size() - 1);
}

Index World::find_instrument(std::string_view name) const {
  for (std::size_t i = 0; i < instruments_.size(); ++i)
    if (instruments_[i].name == name) return static_cast<Index>(i);
  return -1;
}

Index World::instrument_collider(Index i, int k) const {
  if (i < 0 || static_cast<std::size_t>(i) >= instruments_.size()) return -1;
  const InstrumentState& st = instrument_state_[static_cast<std::size_t>(i)];
  return k >= 0 && k < st.colliders ? st.collider + k : -1;
}

int World::instrument_collider_count(Index i) const {
  if (i < 0 || static_cast<std::size_t>(i) >= instruments_.size()) return 0;
  return instrument_state_[static_cast<std::size_t>(i)].colliders;
}

Index World::collider_instrument(Index c) const {
  for (std::size_t i = 0; i < instrument_state_.size(); ++i)
    if (c >= instrument_state_[i].collider &&
        c < instrument_state_[i].collider + instrument_state_[i].colliders)
      return static_cast<Index>(i);
  return -1;
}

Pose World::instrument_pose(Index i) const {
  if (i < 0 || static_cast<std::size_t>(i) >= instruments_.size()) return {};
  return instrument_state_[static_cast<std::size_t>(i)].tip;
}

Vec3 World::instrument_force(Index i) const {
  Vec3 f = Vec3::Zero();
  if (instrument_collider(i) < 0) return f;
  for (const ContactEvent& e : contact_events_)
    if (e.collider >= 0 && collider_instrument(e.collider) == i)
      f -= e.force;  // Newton's third law: the bodies push the instrument back
  return f;
}

int World::instrument_contacts(Index i) const {
  int n = 0;
  if (instrument_collider(i) < 0) return n;
  for (const ContactEvent& e : contact_events_)
    if (e.collider >= 0 && collider_instrument(e.collider) == i) n += e.contacts;
  return n;
}

void World::move_instrument(Index i, const Pose& tip) {
  if (i < 0 || static_cast<std::size_t>(i) >= instruments_.size() || !tip.position.allFinite() ||
      !tip.rotation.coeffs().allFinite())
    return;
  InstrumentState& st = instrument_state_[static_cast<std::size_t>(i)];
  st.moved = tip;
  st.moved.rotation.normalize();
  st.was_moved = true;
}

void World::close_jaws(Index i, bool closed) {
  if (i < 0 || static_cast<std::size_t>(i) >= instruments_.size() ||
      instruments_[static_cast<std::size_t>(i)].type != InstrumentType::grasper)
    return;
  instrument_state_[static_cast<std::size_t>(i)].jaws_command = closed ? 1 : 0;
}

// The grip of grasper i after the last step: the mean of its two jaws' forces on the bodies along
// their closing directions (unit: N); `contacts` counts the nodes they hold.
double World::jaw_grip(std::size_t i, int& contacts) const {
  const InstrumentState& st = instrument_state_[i];
  double grip = 0.0;
  contacts = 0;
  for (int k = 0; k < 2; ++k) {
    const Vec3 closing = jaw_closing_direction(st.tip, k);
    for (const ContactEvent& e : contact_events_)
      if (e.collider == st.collider + k) {
        grip += 0.5 * e.force.dot(closing);
        contacts += e.contacts;
      }
  }
  return grip;
}

GrasperState World::grasper_state(Index i) const {
  GrasperState out;
  if (i < 0 || static_cast<std::size_t>(i) >= instruments_.size() ||
      instruments_[static_cast<std::size_t>(i)].type != InstrumentType::grasper)
    return out;
  const InstrumentState& st = instrument_state_[static_cast<std::size_t>(i)];
  // A close_jaws command counts at once (the next step moves the jaws); else the last step's command.
  out.closed = st.jaws_command >= 0 ? st.jaws_command == 1 : st.closed;
  out.gap = st.gap;
  out.grip = jaw_grip(static_cast<std::size_t>(i), out.contacts);
  return out;
}

int World::scalpel_bodies_cut(Index i) const {
  if (i < 0 || static_cast<std::size_t>(i) >= instruments_.size()) return 0;
  return instrument_state_[static_cast<std::size_t>(i)].bodies_cut;
}

// Grasper i's gap for the step ending at t. Open: it widens at the jaws' speed to their opening.
// Closed: it narrows at that speed until the jaws push on something, then by the change that brings the
// grip (measured after the last step) to the jaws' grip force, from a secant estimate of the grip's
// answer to the gap over the last two steps. The estimate is kept within a factor 4 of the last one (a
// dynamic body's answer over one step mixes its inertia with its stiffness) and taken only from a move
// large against the margin's thousandth; each move is at most the jaws' speed × dt and half the
// correction the estimate asks for, so a misread answer slows the grip rather than throwing the jaws
// shut. The gap never goes below zero (the jaws meet).
void World::update_jaws(std::size_t i, double t) {
  const Instrument& in = instruments_[i];
  InstrumentState& st = instrument_state_[i];
  const GrasperJaws& jaws = in.jaws;
  st.closed = st.jaws_command >= 0 ? st.jaws_command == 1 : jaws.closed_at(t);
  const double most = jaws.speed * dt_;
  int contacts = 0;
  const double grip = jaw_grip(i, contacts);
  double close = 0.0;
  if (!st.closed) {
    close = -std::min(most, jaws.opening - st.gap);
    st.grip_stiffness = 0.0;
  } else if (contacts == 0 || !(grip > 0.0)) {
    close = most;
    st.grip_stiffness = 0.0;
  } else {
    if (st.last_grip > 0.0 && std::abs(st.last_close) > 1e-3 * in.margin) {
      const double k = (grip - st.last_grip) / st.last_close;
      if (k > 0.0)
        st.grip_stiffness =
            st.grip_stiffness > 0.0 ? std::clamp(k, 0.25 * st.grip_stiffness, 4.0 * st.grip_stiffness) : k;
    }
    close = st.grip_stiffness > 0.0 ? 0.5 * (jaws.grip - grip) / st.grip_stiffness
                                    : std::copysign(0.1 * in.margin, jaws.grip - grip);
    close = std::clamp(close, -most, most);
  }
  close = std::min(close, st.gap);  // the jaws meet at gap 0
  st.gap -= close;
  st.last_close = close;
  st.last_grip = st.closed && contacts > 0 ? grip : 0.0;
}

// Each instrument where it is at the step's end, t: a haptic binding's proxy, else where
// move_instrument put it, else its track; its colliders follow (no track of their own). A grasper's
// jaws close or open (update_jaws); a scalpel's edge, swept from its last place to this one, cuts every
// Cuttable body it reaches.
void World::place_instruments(double t) {
  for (std::size_t i = 0; i < instruments_.size(); ++i) {
    const Instrument& in = instruments_[i];
    InstrumentState& st = instrument_state_[i];
    Pose tip = st.was_moved ? st.moved : in.pose_at(t);
    for (const HapticBinding& h : haptic_)
      if (h.instrument == static_cast<Index>(i) && h.target.allFinite()) tip.position = h.target;
    if (in.type == InstrumentType::grasper) update_jaws(i, t);
    if (in.type == InstrumentType::scalpel) {
      const auto [a0, b0] = scalpel_edge(in, st.tip);
      const auto [a1, b1] = scalpel_edge(in, tip);
      st.bodies_cut = 0;
      for (auto& body : bodies_)
        if (Cuttable* cuttable = capability<Cuttable>(*body); cuttable && cuttable->cut({a0, b0, a1, b1}))
          ++st.bodies_cut;
    }
    st.tip = tip;
    const std::vector<Pose> poses = instrument_collider_poses(in, tip, st.gap);
    for (std::size_t k = 0; k < poses.size(); ++k)
      colliders_[static_cast<std::size_t>(st.collider) + k].pose = poses[k];
  }
}

Mat3 World::instrument_stiffness(Index i, bool& exact) const {
  exact = true;
  Mat3 k = Mat3::Zero();
  if (instrument_collider(i) < 0 || !contact_state_) return k;
  std::vector<GrabId> grabs;
  for (std::size_t b = 0; b < contact_state_->bodies.size() && b < bodies_.size(); ++b) {
    grabs.clear();
    for (const ContactState::Contact& contact : contact_state_->bodies[b].contacts)
      if (contact.collider >= 0 && collider_instrument(contact.collider) == i) grabs.push_back(contact.grab);
    if (grabs.empty()) continue;
    const Mat3 kb = bodies_[b]->grab_set_stiffness(grabs);
    if (kb.squaredNorm() == 0.0 || !kb.allFinite()) exact = false;
    k += kb;
  }
  return k;
}

void World::set_contact(Index b, const BodyContact& settings) {
  if (b < 0 || static_cast<std::size_t>(b) >= bodies_.size()) return;
  body_contact_.resize(bodies_.size());
  body_contact_[static_cast<std::size_t>(b)] = settings;
}

const BodyContact& World::contact(Index b) const {
  if (b < 0 || static_cast<std::size_t>(b) >= body_contact_.size()) return kDefaultContact;
  return body_contact_[static_cast<std::size_t>(b)];
}

bool World::contact_wanted() const {
  return !colliders_.empty() || bodies_.size() > 1 ||
         std::any_of(body_contact_.begin(), body_contact_.end(),
                     [](const BodyContact& c) { return c.enabled && c.self; });
}

// The master surface of body m refitted to this step's positions (built on a new topology); false when
// its surface cannot be built (no triangles, a collapsed triangle at build time).
bool World::contact_surface(std::size_t m) {
  ContactState::PerBody& pm = contact_state_->bodies[m];
  if (pm.fresh) return pm.surface != nullptr;
  pm.fresh = true;
  const Body& body = *bodies_[m];
  const auto x = body.surface_positions();
  if (!pm.surface || pm.surface_version != body.surface_topology_version() ||
      !pm.surface->update_positions(x)) {
    pm.surface_version = body.surface_topology_version();
    const auto tris = body.surface_triangles();
    Result<MeshDistance> built = MeshDistance::build(
        TriMesh{std::vector<Vec3>(x.begin(), x.end()), std::vector<Tri>(tris.begin(), tris.end())});
    pm.surface = built.ok() ? std::make_unique<MeshDistance>(std::move(built).value()) : nullptr;
  }
  return pm.surface != nullptr;
}

void World::contact_detect(double t) {
  if (!contact_state_) contact_state_ = std::make_shared<ContactState>();
  ContactState& cs = *contact_state_;
  cs.dt = dt_;
  cs.bodies.resize(bodies_.size());
  body_contact_.resize(bodies_.size());
  cs.poses.resize(colliders_.size());
  cs.bounds.resize(colliders_.size());
  for (std::size_t c = 0; c < colliders_.size(); ++c) {
    cs.poses[c] = colliders_[c].pose_at(t);
    cs.bounds[c] = colliders_[c].bounds(cs.poses[c]);
  }
  for (std::size_t b = 0; b < bodies_.size(); ++b) {
    ContactState::PerBody& pb = cs.bodies[b];
    Body& body = *bodies_[b];
    const BodyContact& settings = body_contact_[b];
    pb.candidates.clear();
    pb.fresh = false;
    const auto x = body.surface_positions();
    pb.on = settings.enabled;
    pb.self = pb.on && settings.self && body.takes_contact();
    if (!pb.self) pb.previous.clear();  // a side seen before a pause would be stale
    if (!pb.on || pb.version != body.surface_topology_version() || pb.corner.size() != x.size()) {
      // Off, or new topology (tearing, cutting): let go of every contact; rebuild the node map.
      for (const ContactState::Contact& c : pb.contacts) body.release(c.grab);
      pb.contacts.clear();
      if (!pb.on) {
        pb.version = ~std::uint64_t{0};  // rebuilt when switched on again
        pb.last.clear();
        continue;
      }
      pb.version = body.surface_topology_version();
      pb.last.clear();
      pb.corner.assign(x.size(), SurfacePoint{-1, 0.0, 0.0});
      const auto tris = body.surface_triangles();
      for (std::size_t k = 0; k < tris.size(); ++k)
        for (int c = 0; c < 3; ++c) {
          SurfacePoint& p = pb.corner[static_cast<std::size_t>(tris[k][static_cast<std::size_t>(c)])];
          if (p.triangle < 0) p = {static_cast<Index>(k), c == 1 ? 1.0 : 0.0, c == 2 ? 1.0 : 0.0};
        }
      pb.slot.assign(x.size(), -1);
      // A body that takes no response (an impact target) is only ever a surface others touch.
      pb.unholdable.assign(x.size(), body.takes_contact() ? 0 : 1);
      pb.edge = mean_edge(x, tris);
    }
    if (pb.last.size() != x.size()) pb.last.assign(x.begin(), x.end());
    pb.box = Aabb{};
    for (std::size_t i = 0; i < x.size(); ++i) {
      pb.box.extend(x[i]);
      pb.box.extend(ahead(x, pb.last, i));
    }
    // The contact forces of the last step, from the held nodes' motion, and how deep the nodes held
    // against colliders went before this step's response.
    for (ContactState::Contact& c : pb.contacts) {
      const Vec3 x0 = x[static_cast<std::size_t>(c.node)];
      c.force = ContactState::force(c, body);
      if (c.collider < 0) continue;
      const std::size_t ci = static_cast<std::size_t>(c.collider);
      c.penetration = std::max(0.0, -colliders_[ci].distance(cs.poses[ci], x0).distance);
    }
    // Broad phase by bounding boxes, then every free surface node inside the box.
    const bool cuttable = capability<Cuttable>(body) != nullptr;
    for (std::size_t c = 0; c < colliders_.size(); ++c) {
      const Collider& col = colliders_[c];
      const double margin = settings.margin + col.margin;
      const Aabb reach = cs.bounds[c].inflated(margin);
      if (!reach.overlaps(pb.box)) continue;
      // A scalpel's blade cuts a body that can be cut and does not push it: held ahead of the edge, the
      // tissue would be pushed away and never reached, and held on the flats, the faces of its own cut
      // would be kept from separating. It touches the other bodies like any collider.
      if (const Index in = collider_instrument(static_cast<Index>(c));
          cuttable && in >= 0 && instruments_[static_cast<std::size_t>(in)].type == InstrumentType::scalpel)
        continue;
      for (std::size_t i = 0; i < x.size(); ++i) {
        if (pb.slot[i] >= 0 || pb.unholdable[i] || pb.corner[i].triangle < 0) continue;
        const Vec3 next = ahead(x, pb.last, i);
        if (!reach.contains(x[i]) && !reach.contains(next)) continue;
        const SurfaceDistance d = col.distance(cs.poses[c], x[i]);
        if (d.distance < margin || col.distance(cs.poses[c], next).distance < margin)
          pb.candidates.push_back({static_cast<Index>(i), static_cast<Index>(c), -1, d, {}});
      }
    }
    // Self-contact: the body's own surface, the pair's margin twice the body's.
    if (pb.self)
      ContactState::detect_self(pb, static_cast<Index>(b), x, body.surface_triangles(),
                                body.surface_topology_version(), 2.0 * settings.margin);
  }
  // Body–body: held nodes' depth below their master's surface, then each overlapping pair's slave nodes
  // against its master's surface.
  for (std::size_t b = 0; b < bodies_.size(); ++b) {
    ContactState::PerBody& pb = cs.bodies[b];
    const auto x = bodies_[b]->surface_positions();
    for (ContactState::Contact& c : pb.contacts) {
      if (c.other < 0) continue;
      if (c.other == static_cast<Index>(b)) {
        // Self-contact: below its triangle on the side it is held on; an edge–edge one: behind where it is
        // held off the other edge's point, along the pair's normal (its end need not be above that point).
        const auto tris = bodies_[b]->surface_triangles();
        if (static_cast<std::size_t>(c.on.triangle) >= tris.size()) continue;
        const Vec3 at = point_on(x, tris, c.on);
        if (c.edge) {
          c.penetration = std::max(0.0, (at + c.offset - x[static_cast<std::size_t>(c.node)]).dot(c.normal));
          continue;
        }
        Vec3 n = face_normal(x, tris[static_cast<std::size_t>(c.on.triangle)], c.normal);
        if (n.dot(c.normal) < 0.0) n = -n;
        c.penetration = std::max(0.0, -(x[static_cast<std::size_t>(c.node)] - at).dot(n));
        continue;
      }
      const std::size_t m = static_cast<std::size_t>(c.other);
      if (!cs.bodies[m].on || !contact_surface(m)) continue;
      const std::optional<SurfaceDistance> d =
          cs.bodies[m].surface->query(x[static_cast<std::size_t>(c.node)]);
      c.penetration = d ? std::max(0.0, -d->distance) : 0.0;
    }
  }
  for (std::size_t a = 0; a < bodies_.size(); ++a) {
    for (std::size_t b = a + 1; b < bodies_.size(); ++b) {
      ContactState::PerBody& pa = cs.bodies[a];
      ContactState::PerBody& pbb = cs.bodies[b];
      if (!pa.on || !pbb.on || !body_contact_[a].bodies || !body_contact_[b].bodies) continue;
      const double margin = body_contact_[a].margin + body_contact_[b].margin;
      if (!pa.box.inflated(margin).overlaps(pbb.box)) continue;
      const bool a_holds = bodies_[a]->takes_contact(), b_holds = bodies_[b]->takes_contact();
      if (!a_holds && !b_holds) continue;
      // The slave: the finer surface (ties: the lower index), never a body that takes no response.
      const bool a_slave = !b_holds || (a_holds && pa.edge <= pbb.edge);
      const std::size_t s = a_slave ? a : b, m = a_slave ? b : a;
      if (!contact_surface(m)) continue;
      ContactState::PerBody& ps = cs.bodies[s];
      const MeshDistance& surface = *cs.bodies[m].surface;
      const Aabb reach = cs.bodies[m].box.inflated(margin);
      const auto x = bodies_[s]->surface_positions();
      for (std::size_t i = 0; i < x.size(); ++i) {
        if (ps.slot[i] >= 0 || ps.unholdable[i] || ps.corner[i].triangle < 0) continue;
        const Vec3 next = ahead(x, ps.last, i);
        if (!reach.contains(x[i]) && !reach.contains(next)) continue;
        NearestHit hit;
        const std::optional<SurfaceDistance> d =
            surface.query(x[i], std::numeric_limits<double>::infinity(), &hit);
        const auto caught = [&] {
          if (d->distance < margin) return true;
          const std::optional<SurfaceDistance> later = surface.query(next);
          return later && later->distance < margin;
        };
        if (d && caught())
          ps.candidates.push_back(
              {static_cast<Index>(i), -1, static_cast<Index>(m), *d, {hit.triangle, hit.u, hit.v}});
      }
    }
  }
  for (std::size_t b = 0; b < bodies_.size(); ++b) {
    ContactState::PerBody& pb = cs.bodies[b];
    if (!pb.on) continue;
    const auto x = bodies_[b]->surface_positions();
    pb.last.assign(x.begin(), x.end());
  }
}

void World::contact_solve(double /*t*/) {
  ContactState& cs = *contact_state_;
  const double tol = contact_solver_.tolerance;
  const double relaxation = contact_solver_.relaxation;
  for (std::size_t b = 0; b < bodies_.size(); ++b) {
    ContactState::PerBody& pb = cs.bodies[b];
    if (pb.contacts.empty() && pb.candidates.empty()) continue;
    Body& body = *bodies_[b];
    // The active set from the last step's forces: adhesive contacts released, contacts whose master
    // went away dropped.
    for (std::size_t k = 0; k < pb.contacts.size();) {
      ContactState::Contact& c = pb.contacts[k];
      if (c.other >= 0) {
        // The master switched off, re-connected its surface, or can no longer give it.
        // Self-contact: the body switched it off.
        const ContactState::PerBody& pm = cs.bodies[static_cast<std::size_t>(c.other)];
        const std::size_t triangles = bodies_[static_cast<std::size_t>(c.other)]->surface_triangles().size();
        const bool gone = c.other == static_cast<Index>(b) ? !pb.self : !pm.on || !pm.surface || !pm.fresh;
        if (gone || static_cast<std::size_t>(c.on.triangle) >= triangles) {
          ContactState::drop(pb, k, body);
          continue;
        }
      }
      const Vec3 f = c.force;
      // A node of a sliding patch stays held while it pulls: releasing the trailing edge of a
      // sliding block, whose front is dragged along, was measured to rock it onto its front edge.
      const bool self = c.other == static_cast<Index>(b);
      const bool sliding = !self && body.grab_compliance(c.grab).squaredNorm() == 0.0 &&
                           cs.patch(pb, c.collider, c.other).slipping;
      if (!sliding && f.dot(c.normal) < -tol * f.norm()) {
        ContactState::drop(pb, k, body);
        continue;
      }
      ++k;
    }
    // Stick or slip. A body that reports its compliance (quasi-static: its force follows the held
    // position) decides per contact; a body without one (dynamic) slides each patch as a whole.
    for (ContactState::Patch& patch : pb.patches) {
      patch.count = 0;
      patch.normal_force = 0.0;
      patch.tangential.setZero();
    }
    for (ContactState::Contact& c : pb.contacts) {
      if (c.other == static_cast<Index>(b)) continue;  // self-contact sticks (below)
      const Vec3 f = c.force;
      const double fn = f.dot(c.normal);
      const Vec3 ft = f - fn * c.normal;
      const Mat3 compliance = body.grab_compliance(c.grab);
      c.slide.setZero();
      if (compliance.squaredNorm() == 0.0) {
        ContactState::Patch& patch = cs.patch(pb, c.collider, c.other);
        ++patch.count;
        patch.normal_force += fn;
        patch.tangential += ft;
        patch.friction = c.friction;
        patch.margin = c.margin;
        continue;
      }
      const double limit = c.friction * fn;
      const double ftn = ft.norm();
      c.slipping = ftn > (1.0 + tol) * limit;
      // F_t cut back to μ·f_n along itself: ΔF = (μ f_n/|F_t| − 1)·F_t, the target moved by C·ΔF.
      if (c.slipping) c.slide = compliance * ((limit / ftn - 1.0) * ft);
    }
    for (std::size_t p = 0; p < pb.patches.size();) {
      ContactState::Patch& patch = pb.patches[p];
      if (patch.count == 0) {
        patch = pb.patches.back();
        pb.patches.pop_back();
        continue;
      }
      cs.decide(patch, tol);
      ++p;
    }
    for (ContactState::Contact& c : pb.contacts) {
      if (c.other == static_cast<Index>(b)) {
        // Self-contact sticks (header comment): a patch's rigid slide means nothing for two layers of
        // one body, whose forces cancel in the patch's sums.
        c.slipping = false;
        c.slide.setZero();
        continue;
      }
      if (body.grab_compliance(c.grab).squaredNorm() == 0.0) {
        const ContactState::Patch& patch = cs.patch(pb, c.collider, c.other);
        c.slipping = patch.slipping;
        c.slide = patch.slipping ? patch.velocity : Vec3::Zero();
      }
      c.slide -= c.slide.dot(c.normal) * c.normal;
      if (!c.slipping) continue;
      if (c.collider >= 0) {
        c.anchor += cs.poses[static_cast<std::size_t>(c.collider)].direction_to_local(c.slide);
      } else {
        // Slid along the master's surface: the nearest surface point to the shifted one.
        const Body& master = *bodies_[static_cast<std::size_t>(c.other)];
        const Vec3 p = point_on(master.surface_positions(), master.surface_triangles(), c.on) + c.slide;
        NearestHit hit;
        if (cs.bodies[static_cast<std::size_t>(c.other)].surface->query(
                p, std::numeric_limits<double>::infinity(), &hit))
          c.on = {hit.triangle, hit.u, hit.v};
      }
    }
    // Targets on the collider surface where it is at the step's end, or on the master's surface where
    // it is now, plus the margin. A contact that slid over an edge of its collider (its surface normal
    // turned by more than 45° in one slide: off a box's face, a jaw's end) lets go: held on by the next
    // face, it would be pulled round the edge with a force the step never saw; detection catches the
    // node again where it still touches.
    for (std::size_t k = 0; k < pb.contacts.size();) {
      ContactState::Contact& c = pb.contacts[k];
      if (c.collider >= 0) {
        const std::size_t ci = static_cast<std::size_t>(c.collider);
        const Pose& pose = cs.poses[ci];
        const SurfaceDistance s = colliders_[ci].distance(pose, pose.to_world(c.anchor));
        if (c.slipping && s.normal.dot(c.normal) < std::sqrt(0.5)) {
          ContactState::drop(pb, k, body);
          continue;
        }
        c.anchor = pose.to_local(s.point);
        c.normal = s.normal;
        body.move_grab(c.grab, s.point + c.margin * s.normal);
        c.applied.setZero();
        ++k;
        continue;
      }
      Body& master = *bodies_[static_cast<std::size_t>(c.other)];
      const auto xm = master.surface_positions();
      const auto tm = master.surface_triangles();
      if (c.edge) {
        // Edge–edge self-contact: held where it was put, relative to the other edge's point.
        body.move_grab(c.grab, point_on(xm, tm, c.on) + c.offset);
      } else {
        const Vec3 fn = face_normal(xm, tm[static_cast<std::size_t>(c.on.triangle)], c.normal);
        // Self-contact: on the side it is held on, the normal kept continuous with the last step's (a
        // triangle turned inside out does not throw the node through it).
        c.normal = c.other == static_cast<Index>(b) && fn.dot(c.normal) < 0.0 ? Vec3(-fn) : fn;
        body.move_grab(c.grab, point_on(xm, tm, c.on) + c.margin * c.normal);
      }
      // Newton's third law, one step late and under-relaxed: the master takes the force it took last
      // step moved by ω towards minus the force the slave felt (header comment: the stability condition).
      c.applied += relaxation * (-c.force - c.applied);
      master.apply_force(c.on, c.applied);
      ++k;
    }
    // New contacts, the deepest surface first for a node that meets two.
    std::sort(pb.candidates.begin(), pb.candidates.end(), [](const auto& x, const auto& y) {
      return x.node != y.node ? x.node < y.node : x.d.distance < y.d.distance;
    });
    const double mu_body = contact(static_cast<Index>(b)).friction;
    const double margin_body = contact(static_cast<Index>(b)).margin;
    for (const ContactState::Candidate& cand : pb.candidates) {
      const std::size_t i = static_cast<std::size_t>(cand.node);
      if (pb.slot[i] >= 0 || pb.unholdable[i]) continue;
      const GrabId id = body.grab_patch(pb.corner[i], 0.0);
      if (!id.valid()) {
        // Fixed, or held by another grab: the body keeps it (retried after a topology change).
        pb.unholdable[i] = 1;
        continue;
      }
      const auto held = body.grab_nodes(id);
      if (!held.empty() && (held.size() != 1 || held.front() != cand.node)) {
        // The body held another node than asked for: not a contact of this node.
        body.release(id);
        pb.unholdable[i] = 1;
        continue;
      }
      ContactState::Contact c;
      c.node = cand.node;
      c.collider = cand.collider;
      c.other = cand.other;
      c.grab = id;
      c.penetration = std::max(0.0, -cand.d.distance);
      Vec3 target;
      if (cand.collider >= 0) {
        const Collider& col = colliders_[static_cast<std::size_t>(cand.collider)];
        const Pose& pose = cs.poses[static_cast<std::size_t>(cand.collider)];
        c.anchor = pose.to_local(cand.d.point);
        c.normal = cand.d.normal;
        c.margin = margin_body + col.margin;
        c.friction = std::sqrt(mu_body * col.friction);
        target = cand.d.point + c.margin * cand.d.normal;
      } else {
        const Body& master = *bodies_[static_cast<std::size_t>(cand.other)];
        const BodyContact& other = contact(cand.other);
        c.on = cand.on;
        // Self-contact: the face normal on the side the node came from (detect_self).
        c.normal = cand.other == static_cast<Index>(b)
                       ? cand.d.normal
                       : face_normal(master.surface_positions(),
                                     master.surface_triangles()[static_cast<std::size_t>(cand.on.triangle)],
                                     cand.d.normal);
        c.margin = margin_body + other.margin;
        c.friction = std::sqrt(mu_body * other.friction);
        c.edge = cand.edge;
        c.offset = cand.offset;
        target = cand.d.point + (cand.edge ? cand.offset : Vec3(c.margin * c.normal));
      }
      body.move_grab(id, target);
      pb.slot[i] = static_cast<std::int32_t>(pb.contacts.size());
      pb.contacts.push_back(c);
    }
  }
}

void World::contact_report() {
  contact_events_.clear();
  contact_points_.clear();
  if (!contact_state_) return;
  const ContactState& cs = *contact_state_;
  for (std::size_t b = 0; b < cs.bodies.size() && b < bodies_.size(); ++b) {
    const ContactState::PerBody& pb = cs.bodies[b];
    if (pb.contacts.empty()) continue;
    const Body& body = *bodies_[b];
    const auto x = body.surface_positions();
    // One event per collider, then per other body, that holds some of this body's nodes.
    const std::size_t pairs = colliders_.size() + bodies_.size();
    for (std::size_t p = 0; p < pairs; ++p) {
      const bool is_collider = p < colliders_.size();
      const Index col = is_collider ? static_cast<Index>(p) : -1;
      const Index other = is_collider ? -1 : static_cast<Index>(p - colliders_.size());  // b: self-contact
      ContactEvent e;
      e.body = static_cast<Index>(b);
      e.collider = col;
      e.other_body = other;
      Vec3 tangential = Vec3::Zero();
      for (const ContactState::Contact& c : pb.contacts) {
        if (c.collider != col || c.other != other) continue;
        const Vec3 f = ContactState::force(c, body);
        const double fn = f.dot(c.normal);
        const Vec3 ft = f - fn * c.normal;
        ++e.contacts;
        (c.slipping ? e.slipping : e.sticking) += 1;
        e.normal_force += fn;
        tangential += ft;
        e.force += f;
        e.force_on_other += c.applied;
        e.max_penetration = std::max(e.max_penetration, c.penetration);
        e.position += x[static_cast<std::size_t>(c.node)];
        contact_points_.push_back({e.body, c.node, c.collider, c.other, c.on,
                                   x[static_cast<std::size_t>(c.node)], c.normal, f, fn, c.penetration,
                                   c.slipping});
      }
      if (e.contacts == 0) continue;
      e.tangential_force = tangential.norm();
      e.position /= e.contacts;
      contact_events_.push_back(e);
      events_.push_back({e.body, time_, ContactEvent::category, e.brief()});
    }
  }
}

}  // namespace pliant::scene
