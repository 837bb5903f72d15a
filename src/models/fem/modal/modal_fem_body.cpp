// ModalFemBody: building the reduced body, spring grabs and the step (the exact modal step, or backward
// Euler on the modal equations while springs couple the modes).
#include "pliant/models/fem/modal/modal_fem_body.hpp"

#include "models/fem/implicit/surface_load_check.hpp"
#include "pliant/core/hash.hpp"

#include <algorithm>
#include <cmath>

namespace pliant::fem {

namespace {

// The per-body settings that need no asset, checked before a basis is computed for them; the
// Rayleigh and gravity messages are the force model's.
Status check_body_settings(const ModalFemDef& def) {
  if (!(def.dt > 0.0) || !std::isfinite(def.dt))
    return Error{"fem modal: the step must be a finite number > 0 s"};
  if (!(std::isfinite(def.rayleigh_alpha) && def.rayleigh_alpha >= 0.0 && std::isfinite(def.rayleigh_beta) &&
        def.rayleigh_beta >= 0.0))
    return Error{"fem body: Rayleigh alpha and beta must be finite and >= 0"};
  if (!def.gravity.allFinite()) return Error{"fem body: gravity must be finite"};
  return {};
}

}  // namespace

Result<ModalFemBody> ModalFemBody::build(std::shared_ptr<const ModalFemAsset> asset, ModalFemDef def) {
  if (!asset) return Error{"fem modal: no asset (null)"};
  if (Status ok = check_body_settings(def); !ok) return ok.error();
  const TetMesh& rest = asset->rest();
  const std::size_t n_nodes = rest.node_count();
  if (Status loads = check_surface_loads(def.surface_loads, n_nodes); !loads.ok()) return loads.error();
  ModalFemBody b;
  b.asset_ = std::move(asset);
  const ModalBasis& basis = b.asset_->basis();
  const std::vector<Index>& surface_node = b.asset_->surface_nodes();
  b.xs_ = b.asset_->surface().positions;
  b.us_.assign(b.xs_.size(), Vec3::Zero());
  b.body_def_ = {.modes = 0,
                 .dt = def.dt,
                 .rayleigh_alpha = def.rayleigh_alpha,
                 .rayleigh_beta = def.rayleigh_beta,
                 .warping = def.warping,
                 .output_nodes = surface_node};
  Result<ModalBody> mb = ModalBody::build(rest, basis, b.body_def_);
  if (!mb.ok()) return Error{"fem modal: " + mb.message()};
  b.body_.emplace(std::move(mb).value());
  const auto n = static_cast<Eigen::Index>(n_nodes);
  const Eigen::Index r = basis.mode_count();
  // Gravity's modal force Φᵀ (M g), projected once at rest (M g = m_i g per node for either mass).
  Eigen::VectorXd weight = Eigen::VectorXd::Zero(3 * n);
  for (Eigen::Index i = 0; i < n; ++i)
    weight.segment<3>(3 * i) = b.asset_->node_masses()[static_cast<std::size_t>(i)] * def.gravity;
  b.gravity_ = basis.shapes.transpose() * weight;
  b.out_shapes_.resize(3 * static_cast<Eigen::Index>(surface_node.size()), r);
  for (std::size_t k = 0; k < surface_node.size(); ++k)
    b.out_shapes_.middleRows(3 * static_cast<Eigen::Index>(k), 3) =
        basis.shapes.middleRows(3 * surface_node[k], 3);
  b.out_rates_.resize(b.out_shapes_.rows());
  b.omega_ = basis.angular_frequencies();
  b.damping_ = (def.rayleigh_alpha + def.rayleigh_beta * b.omega_.array().square()).matrix();
  b.system_.resize(r, r);
  // Factored once (of the identity) so that the LLT is fully initialised: moving an LLT that never
  // computed reads its uninitialised status (UBSan: an invalid ComputationInfo), and build() moves it.
  b.llt_.emplace(Eigen::MatrixXd::Identity(r, r));
  b.rhs_.resize(r);
  b.q_next_.resize(r);
  b.scratch_.resize(r);
  b.pending_.assign(n_nodes, Vec3::Zero());
  b.loads_ = std::move(def.surface_loads);
  std::vector<char> loaded(n_nodes, 0);
  for (const SurfaceLoad& load : b.loads_)
    for (const Tri& tri : load.triangles)
      for (Index i : tri) loaded[static_cast<std::size_t>(i)] = 1;
  for (std::size_t i = 0; i < loaded.size(); ++i)
    if (loaded[i]) b.load_nodes_.push_back(static_cast<Index>(i));
  b.load_x_.assign(n_nodes, Vec3::Zero());
  b.load_f_.assign(n_nodes, Vec3::Zero());
  b.touched_.reserve(n_nodes);
  b.all_x_.assign(n_nodes, Vec3::Zero());
  b.dt_ = def.dt;
  return b;
}

Result<ModalFemBody> ModalFemBody::build(const TetMesh& rest, std::vector<materials::Material> materials,
                                         const ModalFemAssetDef& basis, ModalFemDef def) {
  if (Status ok = check_body_settings(def); !ok) return ok.error();
  Result<std::shared_ptr<const ModalFemAsset>> asset =
      ModalFemAsset::build(rest, std::move(materials), basis);
  if (!asset.ok()) return asset.error();
  return build(std::move(asset).value(), std::move(def));
}

// ---- grabs and forces ----

bool ModalFemBody::surface_node_free(Index sn) const {
  const std::vector<Index>& surface_node = asset_->surface_nodes();
  if (sn < 0 || static_cast<std::size_t>(sn) >= surface_node.size()) return false;
  return !asset_->fixed()[static_cast<std::size_t>(surface_node[static_cast<std::size_t>(sn)])];
}

GrabId ModalFemBody::grab(std::span<const Index> nodes, const Vec3& point) {
  if (nodes.empty()) return {};
  for (Index sn : nodes)
    if (!surface_node_free(sn)) return {};
  const Eigen::Index r = basis().mode_count();
  Slot s;
  s.point = point;
  s.target = point;
  s.sum_shapes = Eigen::MatrixXd::Zero(r, 3);
  s.gram = Eigen::MatrixXd::Zero(r, r);
  s.grab_force = Eigen::VectorXd::Zero(r);
  s.force = Eigen::VectorXd::Zero(r);
  const Eigen::VectorXd& q = body_->amplitudes();
  for (Index sn : nodes) {
    const Index vn = asset_->surface_nodes()[static_cast<std::size_t>(sn)];
    const auto rows = basis().shapes.middleRows(3 * vn, 3);
    const Vec3 u = rows * q;
    s.nodes.push_back(sn);
    s.volume_nodes.push_back(vn);
    s.held.push_back(rest().positions[static_cast<std::size_t>(vn)] + u);
    s.sum_shapes += rows.transpose();
    s.gram += rows.transpose() * rows;
    s.grab_force += rows.transpose() * u;
  }
  const double trace = s.gram.trace();
  if (!(trace > 0.0)) return {};
  const double omega = std::max(omega_.size() > 0 ? omega_[omega_.size() - 1] : 0.0, 1.0 / dt_);
  s.stiffness = kModalGrabStiffnessFactor * omega * omega * 3.0 * static_cast<double>(nodes.size()) / trace;
  const GrabId id = slots_.acquire();
  slots_[id] = std::move(s);
  return id;
}

std::span<const Index> ModalFemBody::grab_nodes(GrabId id) const {
  const Slot* s = slots_.find(id);
  return s ? std::span<const Index>(s->nodes) : std::span<const Index>();
}

void ModalFemBody::move_grab(GrabId id, const Vec3& target) {
  if (Slot* s = slots_.find(id); s && target.allFinite()) s->target = target;
}

void ModalFemBody::release(GrabId id) {
  Slot* s = slots_.find(id);
  if (!s) return;
  slots_.release(id);
  s->reaction.setZero();
  pending_released_.push_back({id, s->nodes.front(), s->target});
}

Vec3 ModalFemBody::grab_reaction(GrabId id) const {
  const Slot* s = slots_.find(id);
  return s ? s->reaction : Vec3::Zero();
}

void ModalFemBody::add_surface_force(Index sn, const Vec3& f) {
  if (sn < 0 || static_cast<std::size_t>(sn) >= asset_->surface_nodes().size() || !f.allFinite()) return;
  const auto vn = static_cast<std::size_t>(asset_->surface_nodes()[static_cast<std::size_t>(sn)]);
  if (pending_[vn].isZero(0.0)) touched_.push_back(static_cast<Index>(vn));
  pending_[vn] += f;
}

// ---- the step ----

// The step's modal forces: gravity, the pending point forces, and the pressure on the current
// (reconstructed, warped when the body warps) triangles and traction per rest area, as node forces held
// over the step, projected onto the modes like point forces. Another step length first rebuilds the
// step coefficients (allocates once), the state kept.
void ModalFemBody::project_forces(double dt) {
  if (dt != dt_) {
    ModalBodyDef def = body_def_;
    def.dt = dt;
    Result<ModalBody> next = ModalBody::build(rest(), basis(), def);
    if (!next.ok()) return;
    const Eigen::VectorXd q = body_->amplitudes(), v = body_->rates();
    body_.emplace(std::move(next).value());
    body_->set_state(q, v);
    dt_ = dt;
  }
  ModalBody& b = *body_;
  b.set_modal_forces(gravity_);
  for (Index i : touched_) {
    b.add_point_force(i, pending_[static_cast<std::size_t>(i)]);
    pending_[static_cast<std::size_t>(i)].setZero();
  }
  touched_.clear();
  if (loads_.empty()) return;
  for (Index i : load_nodes_) {
    const auto is = static_cast<std::size_t>(i);
    load_x_[is] = rest().positions[is] + b.node_displacement(i);
    load_f_[is].setZero();
  }
  add_surface_load_forces(loads_, rest().positions, load_x_, load_f_);
  for (Index i : load_nodes_) b.add_point_force(i, load_f_[static_cast<std::size_t>(i)]);
}

// Springs couple the modes: backward Euler on q̈ + D q̇ + Ω² q = g + Σ k (Φ_Pᵀ (d + u_P,0) - G q),
// (I + h D + h² (Ω² + Σ k G)) q̇' = q̇ + h (g + Σ k (Φ_Pᵀ d + Φ_Pᵀ u_P,0 - G q) - Ω² q), q' = q + h q̇'.
void ModalFemBody::step_with_springs(double h) {
  ModalBody& b = *body_;
  const Eigen::VectorXd& q = b.amplitudes();
  const Eigen::VectorXd& v = b.rates();
  system_.setZero();
  system_.diagonal() = (1.0 + h * damping_.array() + h * h * omega_.array().square()).matrix();
  rhs_ = v + h * (b.modal_forces() - (omega_.array().square() * q.array()).matrix());
  slots_.for_each([&](Slot& s) {
    system_ += (h * h * s.stiffness) * s.gram;
    const Vec3 d = s.target - s.point;
    s.force.noalias() = s.sum_shapes * d;
    s.force += s.grab_force;
    s.force.noalias() -= s.gram * q;
    rhs_ += (h * s.stiffness) * s.force;
  });
  llt_->compute(system_);
  llt_->solveInPlace(rhs_);
  q_next_ = q + h * rhs_;
  scratch_ = rhs_;
  b.set_state(q_next_, scratch_);
}

void ModalFemBody::advance(double dt) {
  project_forces(dt);
  if (slots_.empty()) {
    body_->step();
    return;
  }
  step_with_springs(dt);
}

// The spring's pull on the tool: k Σ (xᵢ - tᵢ), xᵢ the linear position of a patch node.
void ModalFemBody::update_reactions() {
  const Eigen::VectorXd& q = body_->amplitudes();
  slots_.for_each([&](Slot& s) {
    s.reaction.setZero();
    for (std::size_t j = 0; j < s.volume_nodes.size(); ++j) {
      const Index vn = s.volume_nodes[j];
      const Vec3 x =
          rest().positions[static_cast<std::size_t>(vn)] + basis().shapes.middleRows(3 * vn, 3) * q;
      s.reaction += x - (s.held[j] + s.target - s.point);
    }
    s.reaction *= s.stiffness;
  });
}

void ModalFemBody::step(double dt, Profile& profile) {
  released_.swap(pending_released_);
  pending_released_.clear();
  warning_.reset();
  Stopwatch watch;
  if (dt > 0.0 && std::isfinite(dt)) advance(dt);
  profile.record("fem.modal_step", watch.ms());
  watch.reset();
  const ModalBody& m = *body_;
  m.reconstruct(us_);
  const std::vector<Vec3>& x0 = asset_->surface().positions;
  for (std::size_t k = 0; k < xs_.size(); ++k) xs_[k] = x0[k] + us_[k];
  update_reactions();
  profile.record("fem.reconstruct", watch.ms());
  if (!(m.amplitudes().allFinite() && m.rates().allFinite()))
    warning_ = FemSolverWarning{0, -1.0, 0.0, false};
}

// ---- output ----

void ModalFemBody::surface_speeds(std::span<double> out) const {
  if (out.size() != xs_.size()) return;
  out_rates_.noalias() = out_shapes_ * body_->rates();
  for (std::size_t k = 0; k < xs_.size(); ++k)
    out[k] = out_rates_.segment<3>(3 * static_cast<Eigen::Index>(k)).norm();
}

std::span<const Vec3> ModalFemBody::node_positions() const {
  const std::vector<Vec3>& x0 = rest().positions;
  for (std::size_t i = 0; i < all_x_.size(); ++i)
    all_x_[i] = x0[i] + body_->node_displacement(static_cast<Index>(i));
  return all_x_;
}

std::uint64_t ModalFemBody::state_hash() const {
  const Eigen::VectorXd& q = body_->amplitudes();
  const Eigen::VectorXd& v = body_->rates();
  return Hasher()
      .add(std::span<const double>(q.data(), static_cast<std::size_t>(q.size())))
      .add(std::span<const double>(v.data(), static_cast<std::size_t>(v.size())))
      .add(xs_)
      .value();
}

}  // namespace pliant::fem
