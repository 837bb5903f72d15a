// Run-time superposition of a Green's function asset (Nikitina et al. 2003; Bro-Nielsen & Cotin 1996
// for the grab system; Kabsch 1976 / Horn 1987 for the rotation fit). See green_body.hpp.
#include "pliant/models/green/green_body.hpp"

#include "pliant/core/topology.hpp"

#include <Eigen/SVD>

#include <algorithm>
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
  std::vector<Index> nodes;
  std::vector<std::size_t> owner;
  std::vector<Vec3> offsets;
  for (std::size_t m = 0; m < grabs.size(); ++m) {
    const Grab& g = grabs[m];
    if (!g.target.allFinite()) return Error{"green: grab " + std::to_string(m) + " has a non-finite target"};
    for (std::size_t p = 0; p <= g.patch.size(); ++p) {
      const Index n = p == 0 ? g.node : g.patch[p - 1].node;
      const Vec3 offset = p == 0 ? Vec3::Zero() : g.patch[p - 1].offset;
      if (n < 0 || n >= ns_)
        return Error{"green: grab on surface node " + std::to_string(n) + ", but the surface has " +
                     std::to_string(ns_) + " nodes"};
      if (constrained[static_cast<std::size_t>(n)])
        return Error{"green: grab on surface node " + std::to_string(n) +
                     ", which is fixed or part of a control element"};
      if (seen[static_cast<std::size_t>(n)]++)
        return Error{"green: surface node " + std::to_string(n) + " grabbed twice"};
      if (!offset.allFinite())
        return Error{"green: grab " + std::to_string(m) + " holds surface node " + std::to_string(n) +
                     " at a non-finite offset"};
      nodes.push_back(n);
      owner.push_back(m);
      offsets.push_back(offset);
    }
  }
  const Eigen::Index k3 = static_cast<Eigen::Index>(3 * nodes.size());
  const Eigen::Index m3 = static_cast<Eigen::Index>(3 * grabs.size());
  const Eigen::Index n3 = 3 * ns_;
  // C = G_GG and G_SG, from the packed store.
  Eigen::MatrixXd C(k3, k3);
  g_sg_.resize(n3, k3);
  for (std::size_t b = 0; b < nodes.size(); ++b) {
    asset_->surface_block().node_columns(nodes[b], g_sg_.col(static_cast<Eigen::Index>(3 * b)).data());
    for (std::size_t a = 0; a < nodes.size(); ++a)
      C.block<3, 3>(static_cast<Eigen::Index>(3 * a), static_cast<Eigen::Index>(3 * b)) =
          g_sg_.block<3, 3>(3 * nodes[a], static_cast<Eigen::Index>(3 * b));
  }
  if (k3 > 0) {
    grab_factor_.compute(C);
    if (grab_factor_.info() != Eigen::Success || !(grab_factor_.vectorD().minCoeff() > 0))
      return Error{
          "green: the grab set's compliance block is singular (grabs too close to the fixed nodes?)"};
    const Eigen::MatrixXd W = grab_factor_.solve(g_sg_.transpose()).transpose();
    Eigen::MatrixXd W_sum = Eigen::MatrixXd::Zero(n3, m3);
    for (std::size_t b = 0; b < nodes.size(); ++b)
      W_sum.middleCols<3>(static_cast<Eigen::Index>(3 * owner[b])) +=
          W.middleCols<3>(static_cast<Eigen::Index>(3 * b));
    w_ = W.cast<float>();
    w_sum_ = W_sum.cast<float>();
  } else {
    w_.resize(n3, 0);
    w_sum_.resize(n3, 0);
  }
  held_node_ = std::move(nodes);
  held_grab_ = std::move(owner);
  held_offset_ = std::move(offsets);
  // Each grab's patch compliance in the body frame, computed once per grab set: the haptic snapshot
  // reads it after every step, and a step must not allocate.
  grab_compliance_.assign(grabs.size(), Mat3::Zero());
  if (k3 > 0) {
    for (std::size_t m = 0; m < grabs.size(); ++m) {
      // Stiffness of the rigid patch: the total force Σ f_i for a unit translation of every held
      // node of grab m, the others held: S C⁻¹ Sᵀ; the compliance is its inverse.
      Eigen::MatrixXd St = Eigen::MatrixXd::Zero(k3, 3);
      for (std::size_t k = 0; k < held_node_.size(); ++k)
        if (held_grab_[k] == m) St.block<3, 3>(static_cast<Eigen::Index>(3 * k), 0).setIdentity();
      const Mat3 stiffness = St.transpose() * grab_factor_.solve(St);
      grab_compliance_[m] = stiffness.inverse();
    }
  }
  state_.grabs.assign(grabs.begin(), grabs.end());
  state_.grab_forces.assign(grabs.size(), Vec3::Zero());
  handle_.setZero(m3);
  handle_applied_.setZero(m3);
  node_part_.setZero(k3);
  node_applied_.setZero(k3);
  residual_.setZero(k3);
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

Result<std::size_t> GreenBody::add_pressure_load(std::span<const Index> triangles) {
  const TriMesh& surface = asset_->surface();
  if (triangles.empty()) return Error{"green: a pressure load needs at least one surface triangle"};
  std::vector<Vec3> load(static_cast<std::size_t>(ns_), Vec3::Zero());
  double area = 0.0;
  for (Index t : triangles) {
    if (t < 0 || static_cast<std::size_t>(t) >= surface.triangles.size())
      return Error{"green: pressure triangle " + std::to_string(t) + " out of range (the surface has " +
                   std::to_string(surface.triangles.size()) + ")"};
    const Tri& tri = surface.triangles[static_cast<std::size_t>(t)];
    const auto at = [&](int c) -> const Vec3& { return surface.positions[static_cast<std::size_t>(tri[c])]; };
    const Vec3 area_normal = 0.5 * (at(1) - at(0)).cross(at(2) - at(0));  // |.| = area, along n
    area += area_normal.norm();
    for (int c = 0; c < 3; ++c) load[static_cast<std::size_t>(tri[c])] -= area_normal / 3.0;
  }
  if (!(area > 0.0)) return Error{"green: the pressure triangles have zero area"};
  Eigen::VectorXd u = Eigen::VectorXd::Zero(3 * ns_);
  for (Index j = 0; j < ns_; ++j) {
    const std::size_t jn = static_cast<std::size_t>(j);
    if (!load[jn].isZero(0.0) && !asset_->constrained()[jn]) add_green_column(j, load[jn], u.data());
  }
  pressure_response_.push_back(std::move(u));
  pressure_now_.push_back(0.0);
  pressure_applied_.push_back(0.0);
  return pressure_response_.size() - 1;
}

void GreenBody::add_green_column(Index j, const Vec3& v, double* u) const {
  asset_->surface_block().add_column(j, v, u);
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
  // One handle point per grab, soft or not (its handle node): a patch translates with its handle, so
  // its nodes would only fit a rigid translation of the whole body (fixed nodes included) to it.
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
  // Loads: the body force in the solve frame (a body-fixed response), pressures as set.
  const Vec3 b = Rt * body_force_now_;
  if (const Vec3 db = b - body_force_applied_; !db.isZero(0.0)) {
    const float* response = asset_->body_force_response();
    for (int k = 0; k < 3; ++k) {
      const float* col = response + static_cast<std::size_t>(k) * static_cast<std::size_t>(n3);
      const double d = db[k];
      for (Eigen::Index i = 0; i < n3; ++i) u_force_[i] += col[i] * d;
    }
    body_force_applied_ = b;
  }
  for (std::size_t l = 0; l < pressure_now_.size(); ++l) {
    const double dp = pressure_now_[l] - pressure_applied_[l];
    if (dp == 0.0) continue;
    u_force_ += dp * pressure_response_[l];
    pressure_applied_[l] = pressure_now_[l];
  }
  state_.profile.record("forces", clock.ms());
  clock.reset();

  // Grabs: residual r = d − u_base(G) in the solve frame, as handle parts h and node parts e;
  // u_grab = W̄ h + W e, updated by the parts that changed (a moved handle: one rank-3 update).
  compute_residual_parts();
  if (grabs_dirty_) {
    if (held_node_.empty()) {
      u_grab_.setZero();
    } else {
      u_grab_.noalias() = w_sum_.cast<double>() * handle_;
      u_grab_.noalias() += w_.cast<double>() * node_part_;
    }
    handle_applied_ = handle_;
    node_applied_ = node_part_;
    grabs_dirty_ = false;
  } else {
    const auto rank3 = [&](const Eigen::MatrixXf& w, Eigen::Index o, const Vec3& d) {
      const float* w0 = w.data() + o * n3;
      const float* w1 = w0 + n3;
      const float* w2 = w1 + n3;
      const double d0 = d[0], d1 = d[1], d2 = d[2];
      double* u = u_grab_.data();
      for (Eigen::Index i = 0; i < n3; ++i) u[i] += w0[i] * d0 + w1[i] * d1 + w2[i] * d2;
    };
    for (Eigen::Index o = 0; o < handle_.size(); o += 3) {
      const Vec3 dh = handle_.segment<3>(o) - handle_applied_.segment<3>(o);
      if (dh.isZero(0.0)) continue;
      rank3(w_sum_, o, dh);
      handle_applied_.segment<3>(o) = handle_.segment<3>(o);
    }
    for (Eigen::Index o = 0; o < node_part_.size(); o += 3) {
      const Vec3 de = node_part_.segment<3>(o) - node_applied_.segment<3>(o);
      if (de.isZero(0.0)) continue;
      rank3(w_, o, de);
      node_applied_.segment<3>(o) = node_part_.segment<3>(o);
    }
  }
  if (!held_node_.empty()) {
    grab_force_solve_ = grab_factor_.solve(residual_);
    for (std::size_t m = 0; m < state_.grabs.size(); ++m) state_.grab_forces[m].setZero();
    for (std::size_t k = 0; k < held_node_.size(); ++k)
      state_.grab_forces[held_grab_[k]] += R * grab_force_solve_.segment<3>(static_cast<Eigen::Index>(3 * k));
  }
  state_.profile.record("grabs", clock.ms());
  clock.reset();

  // One fused pass: total displacement and positions (the rotation only when one was fitted).
  const auto& rest = asset_->surface().positions;
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

void GreenBody::compute_residual_parts() {
  const Mat3 Rt = state_.rotation.transpose();
  const auto& rest = asset_->surface().positions;
  for (std::size_t m = 0; m < state_.grabs.size(); ++m) {
    const Grab& g = state_.grabs[m];
    handle_.segment<3>(static_cast<Eigen::Index>(3 * m)) =
        Rt * (g.target - target_centroid_) + rest_centroid_ - rest[static_cast<std::size_t>(g.node)];
  }
  for (std::size_t k = 0; k < held_node_.size(); ++k) {
    const Index i = held_node_[k];
    const std::size_t m = held_grab_[k];
    const Index handle = state_.grabs[m].node;
    const Eigen::Index o = static_cast<Eigen::Index>(3 * k);
    // For the handle node itself the offsets cancel exactly: e = −u_base.
    Vec3 e = -u_control_.segment<3>(3 * i) - u_force_.segment<3>(3 * i);
    if (i != handle)
      e +=
          Rt * held_offset_[k] - (rest[static_cast<std::size_t>(i)] - rest[static_cast<std::size_t>(handle)]);
    node_part_.segment<3>(o) = e;
    residual_.segment<3>(o) = handle_.segment<3>(static_cast<Eigen::Index>(3 * m)) + e;
  }
}

void GreenBody::update_grab_forces() {
  if (held_node_.empty()) return;
  compute_residual_parts();
  grab_force_solve_ = grab_factor_.solve(residual_);
  const Mat3& R = state_.rotation;
  for (std::size_t m = 0; m < state_.grabs.size(); ++m) state_.grab_forces[m].setZero();
  for (std::size_t k = 0; k < held_node_.size(); ++k)
    state_.grab_forces[held_grab_[k]] += R * grab_force_solve_.segment<3>(static_cast<Eigen::Index>(3 * k));
}

Mat3 GreenBody::grab_compliance(std::size_t index) const {
  if (index >= grab_compliance_.size()) return Mat3::Zero();
  const Mat3& R = state_.rotation;
  return R * grab_compliance_[index] * R.transpose();
}

Mat3 GreenBody::grab_set_stiffness(std::span<const std::size_t> grabs) const {
  const Eigen::Index k3 = static_cast<Eigen::Index>(3 * held_node_.size());
  if (k3 == 0 || grabs.empty()) return Mat3::Zero();
  Eigen::MatrixXd St = Eigen::MatrixXd::Zero(k3, 3);
  bool any = false;
  for (std::size_t k = 0; k < held_node_.size(); ++k) {
    if (std::find(grabs.begin(), grabs.end(), held_grab_[k]) == grabs.end()) continue;
    St.block<3, 3>(static_cast<Eigen::Index>(3 * k), 0).setIdentity();
    any = true;
  }
  if (!any) return Mat3::Zero();
  const Mat3 stiffness = St.transpose() * grab_factor_.solve(St);
  const Mat3& R = state_.rotation;
  return R * stiffness * R.transpose();
}

Mat3 GreenBody::local_compliance(Index n) const {
  const Mat3& R = state_.rotation;
  for (std::size_t k = 0; k < held_node_.size(); ++k)
    if (held_node_[k] == n) return grab_compliance(held_grab_[k]);
  Mat3 c = asset_->green_block(n, n);
  if (!held_node_.empty()) {
    // G(n, G) C⁻¹ G(G, n) = W_n G_SG(n)ᵀ (a 3 × 3 product; no temporary matrix).
    c.noalias() -= w_.middleRows(3 * n, 3).cast<double>() * g_sg_.middleRows(3 * n, 3).transpose();
  }
  return R * c * R.transpose();
}

double mean_surface_edge_length(const GreenAsset& asset, Index node) {
  const auto& x = asset.surface().positions;
  double sum = 0.0;
  int count = 0;
  for (const Tri& t : asset.surface().triangles) {
    for (int c = 0; c < 3; ++c) {
      if (t[c] != node) continue;
      // Each edge at the node lies in two triangles of a closed surface: both counted, same mean.
      sum += (x[static_cast<std::size_t>(t[(c + 1) % 3])] - x[static_cast<std::size_t>(node)]).norm();
      sum += (x[static_cast<std::size_t>(t[(c + 2) % 3])] - x[static_cast<std::size_t>(node)]).norm();
      count += 2;
    }
  }
  return count > 0 ? sum / count : 0.0;
}

std::vector<Index> surface_patch(const GreenAsset& asset, std::span<const Vec3> positions, Index node,
                                 const Vec3& center, double radius) {
  const std::size_t ns = static_cast<std::size_t>(asset.surface_node_count());
  std::vector<Index> patch = {node};
  if (!(radius > 0.0) || node < 0 || static_cast<std::size_t>(node) >= ns || positions.size() != ns)
    return patch;
  const double r2 = radius * radius;
  const auto inside = [&](Index i) {
    return (positions[static_cast<std::size_t>(i)] - center).squaredNorm() <= r2;
  };
  const Adjacency adjacency =
      vertex_adjacency(asset.surface_node_count(), unique_edges(asset.surface().triangles));
  // Breadth-first over surface edges, through nodes inside the ball (constrained ones included, so
  // a fixed node does not cut the patch in two, but only free nodes are held).
  std::vector<std::uint8_t> visited(ns, 0);
  std::vector<Index> queue = {node};
  visited[static_cast<std::size_t>(node)] = 1;
  for (std::size_t q = 0; q < queue.size(); ++q) {
    const Index i = queue[q];
    for (Index a = adjacency.offsets[static_cast<std::size_t>(i)];
         a < adjacency.offsets[static_cast<std::size_t>(i) + 1]; ++a) {
      const Index j = adjacency.neighbors[static_cast<std::size_t>(a)];
      if (visited[static_cast<std::size_t>(j)] || !inside(j)) continue;
      visited[static_cast<std::size_t>(j)] = 1;
      queue.push_back(j);
      if (!asset.constrained()[static_cast<std::size_t>(j)]) patch.push_back(j);
    }
  }
  std::sort(patch.begin() + 1, patch.end());
  return patch;
}

Grab hold_in_place(std::span<const Index> nodes, std::span<const Vec3> positions) {
  Grab g;
  if (nodes.empty()) return g;
  g.node = nodes[0];
  g.target = positions[static_cast<std::size_t>(nodes[0])];
  for (std::size_t k = 1; k < nodes.size(); ++k)
    g.patch.push_back({nodes[k], positions[static_cast<std::size_t>(nodes[k])] - g.target});
  return g;
}

}  // namespace pliant::green
