// Run-time superposition of a Green's function asset (seed 000; Bro-Nielsen & Cotin 1996 for the
// grab system; Kabsch 1976 / Horn 1987 for the rotation fit). See green_body.hpp.
#include "pliant/models/green/green_body.hpp"

#include <Eigen/SVD>

#include <string>

namespace pliant::green {

bool fit_rotation_from_moments(double n, const Vec3& sum_p, const Vec3& sum_q, const Mat3& sum_pq,
                               Mat3& rotation) {
  rotation.setIdentity();
  if (n < 3) return false;
  const Vec3 pbar = sum_p / n;
  const Vec3 qbar = sum_q / n;
  const Mat3 H = sum_pq - n * pbar * qbar.transpose();  // Σ (p − p̄)(q − q̄)ᵀ
  Eigen::JacobiSVD<Mat3> svd(H, Eigen::ComputeFullU | Eigen::ComputeFullV);
  const Vec3 s = svd.singularValues();
  if (!(s[0] > 0) || s[1] <= 1e-9 * s[0]) return false;  // collinear: rotation about the line undefined
  Mat3 D = Mat3::Identity();
  D(2, 2) = (svd.matrixV() * svd.matrixU().transpose()).determinant() < 0 ? -1.0 : 1.0;
  rotation = svd.matrixV() * D * svd.matrixU().transpose();
  return true;
}

GreenBody::GreenBody(std::shared_ptr<const GreenAsset> asset, GreenDef def)
    : asset_(std::move(asset)), def_(def), ns_(asset_->surface_node_count()) {
  const std::size_t ns = static_cast<std::size_t>(ns_);
  const std::size_t ne = asset_->control_elements().size();
  state_.positions = asset_->surface().positions;
  state_.control_transforms.assign(ne, Eigen::Matrix4d::Identity());
  force_now_.assign(ns, Vec3::Zero());
  force_applied_.assign(ns, Vec3::Zero());
  force_listed_.assign(ns, 0);
  force_nodes_.reserve(ns);
  control_applied_.assign(ne, Eigen::Matrix<double, 12, 1>::Zero());
  u_control_.setZero(3 * ns_);
  u_force_.setZero(3 * ns_);
  u_grab_.setZero(3 * ns_);
  u_total_.setZero(3 * ns_);
  w_.resize(3 * ns_, 0);
  for (const char* name : {"control", "forces", "grabs", "surface"}) state_.profile.record(name, 0.0);
}

Status GreenBody::set_grabs(std::span<const Grab> grabs) {
  const auto& constrained = asset_->constrained();
  std::vector<std::uint8_t> seen(static_cast<std::size_t>(ns_), 0);
  for (const Grab& g : grabs) {
    if (g.node < 0 || g.node >= ns_)
      return Error{"green: grab on surface node " + std::to_string(g.node) + ", but the surface has " +
                   std::to_string(ns_) + " nodes"};
    if (constrained[static_cast<std::size_t>(g.node)])
      return Error{"green: grab on surface node " + std::to_string(g.node) +
                   ", which is fixed or part of a control element"};
    if (seen[static_cast<std::size_t>(g.node)]++)
      return Error{"green: surface node " + std::to_string(g.node) + " grabbed twice"};
  }
  const Eigen::Index k3 = static_cast<Eigen::Index>(3 * grabs.size());
  const Eigen::Index n3 = 3 * ns_;
  // C = G_GG and G_SG, from the packed store.
  Eigen::MatrixXd C(k3, k3);
  g_sg_.resize(n3, k3);
  for (std::size_t b = 0; b < grabs.size(); ++b) {
    for (Index i = 0; i < ns_; ++i)
      g_sg_.block<3, 3>(3 * i, static_cast<Eigen::Index>(3 * b)) = asset_->green_block(i, grabs[b].node);
    for (std::size_t a = 0; a < grabs.size(); ++a)
      C.block<3, 3>(static_cast<Eigen::Index>(3 * a), static_cast<Eigen::Index>(3 * b)) =
          g_sg_.block<3, 3>(3 * grabs[a].node, static_cast<Eigen::Index>(3 * b));
  }
  if (k3 > 0) {
    grab_factor_.compute(C);
    if (grab_factor_.info() != Eigen::Success || !(grab_factor_.vectorD().minCoeff() > 0))
      return Error{
          "green: the grab set's compliance block is singular (grabs too close to the fixed nodes?)"};
    const Eigen::MatrixXd W = grab_factor_.solve(g_sg_.transpose()).transpose();
    w_ = W.cast<float>();
  } else {
    w_.resize(n3, 0);
  }
  state_.grabs.assign(grabs.begin(), grabs.end());
  state_.grab_forces.assign(grabs.size(), Vec3::Zero());
  residual_.setZero(k3);
  residual_applied_.setZero(k3);
  grab_force_solve_.setZero(k3);
  grabs_dirty_ = true;
  return {};
}

void GreenBody::set_force(Index surface_node, const Vec3& force) {
  const std::size_t n = static_cast<std::size_t>(surface_node);
  force_now_[n] = force;
  if (!force_listed_[n]) {
    force_listed_[n] = 1;
    force_nodes_.push_back(surface_node);  // capacity reserved for all surface nodes: no allocation
  }
}

void GreenBody::clear_forces() {
  for (Index n : force_nodes_) force_now_[static_cast<std::size_t>(n)].setZero();
}

// u += G(:, j) v, reading the packed lower triangle: for i < j the stored block is G(j, i) = G(i, j)ᵀ
// (row j of the packing, contiguous); for i ≥ j it is G(i, j) itself (column j, stride 9(i+1)).
void GreenBody::add_green_column(Index j, const Vec3& v, double* u) const {
  const float* block = asset_->block();
  const float v0 = static_cast<float>(v[0]), v1 = static_cast<float>(v[1]), v2 = static_cast<float>(v[2]);
  const std::size_t jj = static_cast<std::size_t>(j);
  const float* row = block + 9 * (jj * (jj + 1) / 2);
  for (std::size_t i = 0; i < jj; ++i) {
    const float* p = row + 9 * i;
    u[3 * i + 0] += p[0] * v0 + p[3] * v1 + p[6] * v2;
    u[3 * i + 1] += p[1] * v0 + p[4] * v1 + p[7] * v2;
    u[3 * i + 2] += p[2] * v0 + p[5] * v1 + p[8] * v2;
  }
  const std::size_t ns = static_cast<std::size_t>(ns_);
  for (std::size_t i = jj; i < ns; ++i) {
    const float* p = block + 9 * (i * (i + 1) / 2 + jj);
    u[3 * i + 0] += p[0] * v0 + p[1] * v1 + p[2] * v2;
    u[3 * i + 1] += p[3] * v0 + p[4] * v1 + p[5] * v2;
    u[3 * i + 2] += p[6] * v0 + p[7] * v1 + p[8] * v2;
  }
}

void GreenBody::fit_rotation() {
  state_.rotation.setIdentity();
  rest_centroid_.setZero();
  target_centroid_.setZero();
  if (!def_.rotation_correction) return;
  double n = 0;
  Vec3 sp = Vec3::Zero(), sq = Vec3::Zero();
  Mat3 spq = Mat3::Zero();
  const auto& rest = asset_->surface().positions;
  for (const Grab& g : state_.grabs) {
    const Vec3& p = rest[static_cast<std::size_t>(g.node)];
    n += 1;
    sp += p;
    sq += g.target;
    spq += p * g.target.transpose();
  }
  const auto& elements = asset_->control_elements();
  for (std::size_t e = 0; e < elements.size(); ++e) {
    const ControlElement& ce = elements[e];
    const Mat3 M = state_.control_transforms[e].topLeftCorner<3, 3>();
    const Vec3 t = state_.control_transforms[e].topRightCorner<3, 1>();
    n += ce.count;
    sp += ce.sum;
    sq += M * ce.sum + ce.count * t;
    spq += ce.sum_outer * M.transpose() + ce.sum * t.transpose();
  }
  if (n < def_.min_rotation_handles) return;
  Mat3 R;
  if (!fit_rotation_from_moments(n, sp, sq, spq, R)) return;
  state_.rotation = R;
  rest_centroid_ = sp / n;
  target_centroid_ = sq / n;
}

void GreenBody::update() {
  Stopwatch clock;
  fit_rotation();
  const Mat3& R = state_.rotation;
  const Mat3 Rt = R.transpose();
  const Eigen::Index n3 = 3 * ns_;

  // Control elements: coefficients in the solve frame, x -> Rᵀ(M X + t − q̄) + p̄.
  const auto& elements = asset_->control_elements();
  for (std::size_t e = 0; e < elements.size(); ++e) {
    const Mat3 M = Rt * state_.control_transforms[e].topLeftCorner<3, 3>() - Mat3::Identity();
    const Vec3 t =
        Rt * (state_.control_transforms[e].topRightCorner<3, 1>() - target_centroid_) + rest_centroid_;
    Eigen::Matrix<double, 12, 1> c;
    c.head<3>() = t;
    for (int r = 0; r < 3; ++r)
      for (int col = 0; col < 3; ++col) c[3 + 3 * r + col] = M(r, col);
    const Eigen::Matrix<double, 12, 1> dc = c - control_applied_[e];
    if (dc.isZero(0.0)) continue;
    control_applied_[e] = c;
    const float* U = asset_->control_response(e);
    for (int k = 0; k < 12; ++k) {
      if (dc[k] == 0.0) continue;
      const float* col = U + static_cast<std::size_t>(k) * static_cast<std::size_t>(n3);
      const double d = dc[k];
      for (Eigen::Index i = 0; i < n3; ++i) u_control_[i] += col[i] * d;
    }
  }
  state_.profile.record("control", clock.ms());
  clock.reset();

  // External forces, rotated into the solve frame; nodes whose force is zero again leave the list.
  std::size_t kept = 0;
  for (std::size_t a = 0; a < force_nodes_.size(); ++a) {
    const Index j = force_nodes_[a];
    const std::size_t jn = static_cast<std::size_t>(j);
    const Vec3 f = Rt * force_now_[jn];
    const Vec3 df = f - force_applied_[jn];
    if (!df.isZero(0.0)) {
      add_green_column(j, df, u_force_.data());
      force_applied_[jn] = f;
    }
    if (force_now_[jn].isZero(0.0)) {
      force_listed_[jn] = 0;
    } else {
      force_nodes_[kept++] = j;
    }
  }
  force_nodes_.resize(kept);
  state_.profile.record("forces", clock.ms());
  clock.reset();

  // Grabs: residual r = d − u_base(G) in the solve frame; u_grab = W r, updated by the changed parts.
  const auto& rest = asset_->surface().positions;
  for (std::size_t m = 0; m < state_.grabs.size(); ++m) {
    const Index g = state_.grabs[m].node;
    const Vec3 target = Rt * (state_.grabs[m].target - target_centroid_) + rest_centroid_;
    const Vec3 d = target - rest[static_cast<std::size_t>(g)];
    residual_.segment<3>(static_cast<Eigen::Index>(3 * m)) =
        d - u_control_.segment<3>(3 * g) - u_force_.segment<3>(3 * g);
  }
  if (grabs_dirty_) {
    if (state_.grabs.empty())
      u_grab_.setZero();
    else
      u_grab_.noalias() = w_.cast<double>() * residual_;
    residual_applied_ = residual_;
    grabs_dirty_ = false;
  } else {
    for (std::size_t m = 0; m < state_.grabs.size(); ++m) {
      const Eigen::Index o = static_cast<Eigen::Index>(3 * m);
      const Vec3 dr = residual_.segment<3>(o) - residual_applied_.segment<3>(o);
      if (dr.isZero(0.0)) continue;
      const float* w0 = w_.data() + o * n3;
      const float* w1 = w0 + n3;
      const float* w2 = w1 + n3;
      const double d0 = dr[0], d1 = dr[1], d2 = dr[2];
      double* u = u_grab_.data();
      for (Eigen::Index i = 0; i < n3; ++i) u[i] += w0[i] * d0 + w1[i] * d1 + w2[i] * d2;
      residual_applied_.segment<3>(o) = residual_.segment<3>(o);
    }
  }
  if (!state_.grabs.empty()) {
    grab_force_solve_ = grab_factor_.solve(residual_);
    for (std::size_t m = 0; m < state_.grabs.size(); ++m)
      state_.grab_forces[m] = R * grab_force_solve_.segment<3>(static_cast<Eigen::Index>(3 * m));
  }
  state_.profile.record("grabs", clock.ms());
  clock.reset();

  // One fused pass: total displacement and positions (the rotation only when one was fitted).
  const double* uc = u_control_.data();
  const double* uf = u_force_.data();
  const double* ug = u_grab_.data();
  double* ut = u_total_.data();
  for (Eigen::Index k = 0; k < n3; ++k) ut[k] = uc[k] + uf[k] + ug[k];
  Vec3* positions = state_.positions.data();
  if (R.isIdentity(0.0) && rest_centroid_ == target_centroid_) {
    for (Index i = 0; i < ns_; ++i)
      positions[i] = rest[static_cast<std::size_t>(i)] + u_total_.segment<3>(3 * i);
  } else {
    for (Index i = 0; i < ns_; ++i) {
      const Vec3 x = rest[static_cast<std::size_t>(i)] + u_total_.segment<3>(3 * i);
      positions[i] = R * (x - rest_centroid_) + target_centroid_;
    }
  }
  state_.profile.record("surface", clock.ms());
}

void GreenBody::update_grab_forces() {
  const Mat3& R = state_.rotation;
  const Mat3 Rt = R.transpose();
  const auto& rest = asset_->surface().positions;
  for (std::size_t m = 0; m < state_.grabs.size(); ++m) {
    const Index g = state_.grabs[m].node;
    const Vec3 target = Rt * (state_.grabs[m].target - target_centroid_) + rest_centroid_;
    residual_.segment<3>(static_cast<Eigen::Index>(3 * m)) = target - rest[static_cast<std::size_t>(g)] -
                                                             u_control_.segment<3>(3 * g) -
                                                             u_force_.segment<3>(3 * g);
  }
  if (state_.grabs.empty()) return;
  grab_force_solve_ = grab_factor_.solve(residual_);
  for (std::size_t m = 0; m < state_.grabs.size(); ++m)
    state_.grab_forces[m] = R * grab_force_solve_.segment<3>(static_cast<Eigen::Index>(3 * m));
}

Mat3 GreenBody::local_compliance(Index n) const {
  const Mat3& R = state_.rotation;
  for (std::size_t m = 0; m < state_.grabs.size(); ++m) {
    if (state_.grabs[m].node != n) continue;
    // Schur complement identity: the compliance of grab m with the others held is ((C⁻¹)_mm)⁻¹.
    Eigen::MatrixXd E = Eigen::MatrixXd::Zero(3 * static_cast<Eigen::Index>(state_.grabs.size()), 3);
    E.block<3, 3>(static_cast<Eigen::Index>(3 * m), 0).setIdentity();
    const Mat3 cinv = grab_factor_.solve(E).block<3, 3>(static_cast<Eigen::Index>(3 * m), 0);
    return R * cinv.inverse() * R.transpose();
  }
  Mat3 c = asset_->green_block(n, n);
  if (!state_.grabs.empty()) {
    // G(n, G) C⁻¹ G(G, n) = W_n G_SG(n)ᵀ.
    const Eigen::MatrixXd Wn = w_.middleRows(3 * n, 3).cast<double>();
    c -= Wn * g_sg_.middleRows(3 * n, 3).transpose();
  }
  return R * c * R.transpose();
}

}  // namespace pliant::green
