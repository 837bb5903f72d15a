// The World's contact stages against rigid colliders (contact.hpp): detection, the active set with
// Coulomb friction, and the per-pair events. No code here names a family: a contact is a grab of one
// surface node (Body::grab_patch with radius 0), which every family that takes contact holds in its own
// implicit solve, and its reaction (Body::grab_reaction) is the contact force.
//
// Why a grab and not a penalty: an explicit penalty force k·depth is stable only for k < m/dt², far too
// soft at dt = 1/60 s on a stiff organ; a held node is treated implicitly by every family, exactly by
// a Green body (Nikitina et al. 2003; James & Pai 1999).
//
// Friction, per contact, from the reaction F of the last step (normal part f_n = F·n, tangential F_t):
//   f_n < −tol·|F|                 the body pulls away: released
//   |F_t| ≤ (1 + tol)·μ·f_n        stick: the target stays where the node touched (collider frame)
//   otherwise                      slip: the wanted change of force is ΔF = (μ f_n/|F_t| − 1)·F_t; moving
//                                  a held target by Δx changes its force by C⁻¹Δx (C = grab_compliance),
//                                  so the target slides by the tangential part of C·ΔF. A body that
//                                  reports no compliance gets a secant estimate from its last slide (a
//                                  one-margin first try).
// The decisions use the reaction of the previous step: a one-step lag, as in any active-set scheme
// that does not re-solve within the step. A slide restarts from rest each step (the target does not
// carry the node's tangential velocity), so a dynamic body slides slower than Coulomb's law says.
#include "pliant/scene/world.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pliant::scene {

struct World::ContactState {
  struct Contact {
    Index node = -1;
    Index collider = -1;
    GrabId grab;
    Vec3 anchor = Vec3::Zero();   // where the node is held on the surface, collider frame (unit: m)
    Vec3 normal = Vec3::UnitZ();  // outward normal at the target, world frame
    double margin = 0.0;          // the pair's margin (unit: m)
    double friction = 0.0;        // the pair's μ
    double penetration = 0.0;     // below the surface before this step's response (unit: m)
    bool slipping = false;
    double compliance = 0.0;              // secant estimate (unit: m/N) for a body without grab_compliance
    Vec3 slide = Vec3::Zero();            // the target's last slide, 0 when sticking (unit: m)
    Vec3 last_tangential = Vec3::Zero();  // F_t when it was decided (unit: N)
  };
  struct Candidate {
    Index node = -1;
    Index collider = -1;
    SurfaceDistance d;
  };
  struct PerBody {
    std::uint64_t version = ~std::uint64_t{0};
    std::vector<SurfacePoint> corner;  // per surface node, a (triangle, corner) naming it
    std::vector<std::int32_t> slot;    // per surface node, its contact or -1
    std::vector<std::uint8_t> unholdable;
    std::vector<Contact> contacts;
    std::vector<Candidate> candidates;
  };
  std::vector<PerBody> bodies;
  std::vector<Pose> poses;   // per collider, at the step's end
  std::vector<Aabb> bounds;  // per collider, world frame
};

namespace {
const BodyContact kDefaultContact{};
}

Result<Index> World::add_collider(Collider collider) {
  if (Status s = validate(collider); !s.ok()) return Error{s.message()};
  colliders_.push_back(std::move(collider));
  return static_cast<Index>(colliders_.size() - 1);
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

void World::contact_detect(double t) {
  if (!contact_state_) contact_state_ = std::make_shared<ContactState>();
  ContactState& cs = *contact_state_;
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
    const auto x = body.surface_positions();
    const bool on = settings.enabled && body.takes_contact();
    if (!on || pb.version != body.surface_topology_version() || pb.corner.size() != x.size()) {
      // Off, or new topology (tearing, cutting): let go of every contact; rebuild the node map.
      for (const ContactState::Contact& c : pb.contacts) body.release(c.grab);
      pb.contacts.clear();
      if (!on) {
        pb.version = ~std::uint64_t{0};  // rebuilt when switched on again
        continue;
      }
      pb.version = body.surface_topology_version();
      pb.corner.assign(x.size(), SurfacePoint{-1, 0.0, 0.0});
      const auto tris = body.surface_triangles();
      for (std::size_t k = 0; k < tris.size(); ++k)
        for (int c = 0; c < 3; ++c) {
          SurfacePoint& p = pb.corner[static_cast<std::size_t>(tris[k][static_cast<std::size_t>(c)])];
          if (p.triangle < 0) p = {static_cast<Index>(k), c == 1 ? 1.0 : 0.0, c == 2 ? 1.0 : 0.0};
        }
      pb.slot.assign(x.size(), -1);
      pb.unholdable.assign(x.size(), 0);
    }
    // How deep the held nodes went before this step's response.
    for (ContactState::Contact& c : pb.contacts) {
      const std::size_t ci = static_cast<std::size_t>(c.collider);
      const SurfaceDistance d = colliders_[ci].distance(cs.poses[ci], x[static_cast<std::size_t>(c.node)]);
      c.penetration = std::max(0.0, -d.distance);
    }
    // Broad phase by bounding boxes, then every free surface node inside the box.
    Aabb box;
    for (const Vec3& p : x) box.extend(p);
    for (std::size_t c = 0; c < colliders_.size(); ++c) {
      const Collider& col = colliders_[c];
      const double margin = settings.margin + col.margin;
      const Aabb reach = cs.bounds[c].inflated(margin);
      if (!reach.overlaps(box)) continue;
      for (std::size_t i = 0; i < x.size(); ++i) {
        if (pb.slot[i] >= 0 || pb.unholdable[i] || pb.corner[i].triangle < 0 || !reach.contains(x[i]))
          continue;
        const SurfaceDistance d = col.distance(cs.poses[c], x[i]);
        if (d.distance < margin) pb.candidates.push_back({static_cast<Index>(i), static_cast<Index>(c), d});
      }
    }
  }
}

void World::contact_solve(double /*t*/) {
  ContactState& cs = *contact_state_;
  const double tol = contact_solver_.tolerance;
  for (std::size_t b = 0; b < bodies_.size(); ++b) {
    ContactState::PerBody& pb = cs.bodies[b];
    if (pb.contacts.empty() && pb.candidates.empty()) continue;
    Body& body = *bodies_[b];
    // The active set from the last step's reactions.
    for (std::size_t k = 0; k < pb.contacts.size();) {
      ContactState::Contact& c = pb.contacts[k];
      const Vec3 f = -body.grab_reaction(c.grab);  // the collider's force on the body
      const double fn = f.dot(c.normal);
      if (fn < -tol * f.norm()) {
        body.release(c.grab);
        pb.slot[static_cast<std::size_t>(c.node)] = -1;
        if (k + 1 != pb.contacts.size()) {
          c = pb.contacts.back();
          pb.slot[static_cast<std::size_t>(c.node)] = static_cast<std::int32_t>(k);
        }
        pb.contacts.pop_back();
        continue;
      }
      const Vec3 ft = f - fn * c.normal;
      const double limit = c.friction * fn;
      const double ftn = ft.norm();
      c.slipping = ftn > (1.0 + tol) * limit;
      if (c.slipping) {
        // F_t cut back to μ·f_n along itself: ΔF = (μ f_n/|F_t| − 1)·F_t, the target moved by C·ΔF.
        const Vec3 df = (limit / ftn - 1.0) * ft;
        const Mat3 compliance = body.grab_compliance(c.grab);
        Vec3 shift;
        if (compliance.squaredNorm() > 0.0) {
          shift = compliance * df;
        } else {
          // Secant: the last slide changed F_t by (ft − last F_t).
          const double moved = c.slide.squaredNorm();
          const double response = c.slide.dot(ft - c.last_tangential);
          if (moved > 0.0 && response > 0.0) c.compliance = moved / response;
          shift = c.compliance > 0.0 ? Vec3(c.compliance * df) : Vec3(c.margin * df.normalized());
        }
        shift -= shift.dot(c.normal) * c.normal;
        c.slide = shift;
        c.last_tangential = ft;
        c.anchor += cs.poses[static_cast<std::size_t>(c.collider)].direction_to_local(shift);
      } else {
        c.slide.setZero();
      }
      ++k;
    }
    // Targets on the collider surface where it is at the step's end, plus the margin.
    for (ContactState::Contact& c : pb.contacts) {
      const std::size_t ci = static_cast<std::size_t>(c.collider);
      const Pose& pose = cs.poses[ci];
      const SurfaceDistance s = colliders_[ci].distance(pose, pose.to_world(c.anchor));
      c.anchor = pose.to_local(s.point);
      c.normal = s.normal;
      body.move_grab(c.grab, s.point + c.margin * s.normal);
    }
    // New contacts, the deepest collider first for a node that meets two.
    std::sort(pb.candidates.begin(), pb.candidates.end(), [](const auto& a, const auto& b) {
      return a.node != b.node ? a.node < b.node : a.d.distance < b.d.distance;
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
      const Collider& col = colliders_[static_cast<std::size_t>(cand.collider)];
      const Pose& pose = cs.poses[static_cast<std::size_t>(cand.collider)];
      ContactState::Contact c;
      c.node = cand.node;
      c.collider = cand.collider;
      c.grab = id;
      c.anchor = pose.to_local(cand.d.point);
      c.normal = cand.d.normal;
      c.margin = margin_body + col.margin;
      c.friction = std::sqrt(mu_body * col.friction);
      c.penetration = std::max(0.0, -cand.d.distance);
      body.move_grab(id, cand.d.point + c.margin * cand.d.normal);
      pb.slot[i] = static_cast<std::int32_t>(pb.contacts.size());
      pb.contacts.push_back(c);
    }
  }
}

void World::contact_report() {
  contact_events_.clear();
  if (!contact_state_) return;
  const ContactState& cs = *contact_state_;
  for (std::size_t b = 0; b < cs.bodies.size() && b < bodies_.size(); ++b) {
    const ContactState::PerBody& pb = cs.bodies[b];
    const Body& body = *bodies_[b];
    const auto x = body.surface_positions();
    for (std::size_t col = 0; col < colliders_.size(); ++col) {
      ContactEvent e;
      e.body = static_cast<Index>(b);
      e.collider = static_cast<Index>(col);
      Vec3 tangential = Vec3::Zero();
      for (const ContactState::Contact& c : pb.contacts) {
        if (static_cast<std::size_t>(c.collider) != col) continue;
        const Vec3 f = -body.grab_reaction(c.grab);
        const double fn = f.dot(c.normal);
        const Vec3 ft = f - fn * c.normal;
        ++e.contacts;
        (c.slipping ? e.slipping : e.sticking) += 1;
        e.normal_force += fn;
        tangential += ft;
        e.force += f;
        e.max_penetration = std::max(e.max_penetration, c.penetration);
        e.position += x[static_cast<std::size_t>(c.node)];
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
