#include "pliant/models/fem/modal/modal_body.hpp"

#include "linalg/panel_gemv.hpp"
#include "pliant/models/fem/modal/modal_warping.hpp"

#include <cmath>
#include <string>

namespace pliant::fem {

Result<ModalBody> ModalBody::build(const TetMesh& mesh, const ModalBasis& basis, const ModalBodyDef& def) {
  const Index n = static_cast<Index>(mesh.node_count());
  if (basis.shapes.rows() != 3 * static_cast<Eigen::Index>(n) ||
      basis.shapes.cols() != basis.eigenvalues.size())
    return Error{"modal body: basis has " + std::to_string(basis.shapes.rows()) + " rows and " +
                 std::to_string(basis.shapes.cols()) + " shapes for " + std::to_string(n) + " nodes and " +
                 std::to_string(basis.eigenvalues.size()) + " eigenvalues"};
  const Index available = basis.mode_count();
  const Index r = def.modes == 0 ? available : def.modes;
  if (r < 1 || r > available)
    return Error{"modal body: " + std::to_string(def.modes) + " modes asked, the basis holds " +
                 std::to_string(available)};
  if (!(def.dt > 0.0) || !std::isfinite(def.dt))
    return Error{"modal body: dt must be positive and finite (unit: s)"};
  if (!(def.rayleigh_alpha >= 0.0) || !(def.rayleigh_beta >= 0.0) || !std::isfinite(def.rayleigh_alpha) ||
      !std::isfinite(def.rayleigh_beta))
    return Error{"modal body: rayleigh_alpha and rayleigh_beta must be finite and ≥ 0"};
  for (Index node : def.output_nodes)
    if (node < 0 || node >= n)
      return Error{"modal body: output node " + std::to_string(node) + " out of range (" + std::to_string(n) +
                   " nodes)"};

  ModalBody b;
  b.node_count_ = n;
  b.dt_ = def.dt;
  b.warping_ = def.warping;
  b.shapes_ = basis.shapes.leftCols(r);
  b.omega_ = basis.eigenvalues.head(r).cwiseMax(0.0).cwiseSqrt();
  b.coefficients_.resize(static_cast<std::size_t>(r));
  for (Index j = 0; j < r; ++j) {
    const double k = b.omega_[j] * b.omega_[j];
    b.coefficients_[static_cast<std::size_t>(j)] =
        exact_modal_step(k, def.rayleigh_alpha + def.rayleigh_beta * k, def.dt);
  }
  if (def.output_nodes.empty()) {
    b.output_nodes_.resize(static_cast<std::size_t>(n));
    for (Index i = 0; i < n; ++i) b.output_nodes_[static_cast<std::size_t>(i)] = i;
  } else {
    b.output_nodes_ = def.output_nodes;
  }
  const Eigen::Index out = static_cast<Eigen::Index>(b.output_nodes_.size());
  Eigen::MatrixXd rows(3 * out, r);
  auto pack = [&](const RowMatrix& field, std::vector<double>& d, std::vector<float>& f,
                  std::vector<std::uint16_t>& h, Eigen::VectorXf& scales) {
    for (Eigen::Index k = 0; k < out; ++k)
      rows.middleRows(3 * k, 3) =
          field.middleRows(3 * static_cast<Eigen::Index>(b.output_nodes_[static_cast<std::size_t>(k)]), 3);
    if (def.half_precision_output)
      h = linalg::detail::pack_panels_half(rows, scales);
    else if (def.single_precision_output)
      f = linalg::detail::pack_panels<float>(rows);
    else
      d = linalg::detail::pack_panels<double>(rows);
  };
  pack(b.shapes_, b.output_shapes_, b.output_shapes_f_, b.output_shapes_h_, b.shape_scales_);
  b.linear_.resize(3 * out);
  if (b.warping_) {
    b.rotations_ = modal_rotation_field(mesh, basis.shapes.leftCols(r));
    pack(b.rotations_, b.output_rotations_, b.output_rotations_f_, b.output_rotations_h_, b.rotation_scales_);
    b.theta_.resize(3 * out);
  }
  if (def.single_precision_output || def.half_precision_output) b.q_f_.resize(r);
  b.q_ = Eigen::VectorXd::Zero(r);
  b.v_ = Eigen::VectorXd::Zero(r);
  b.g_ = Eigen::VectorXd::Zero(r);
  return b;
}

Mat3 ModalBody::node_rotation(Eigen::Index row) const {
  const Vec3 theta = rotations_.middleRows(row, 3) * q_;
  return rotation_from_vector(theta);
}

void ModalBody::set_forces(std::span<const Vec3> forces) {
  if (forces.size() != static_cast<std::size_t>(node_count_)) return;
  if (!warping_) {
    g_.noalias() =
        shapes_.transpose() * Eigen::Map<const Eigen::VectorXd>(forces.data()->data(), 3 * node_count_);
    return;
  }
  g_.setZero();
  for (Index i = 0; i < node_count_; ++i) {
    const Vec3& f = forces[static_cast<std::size_t>(i)];
    if (f.isZero(0.0)) continue;
    add_point_force(i, f);
  }
}

void ModalBody::set_modal_forces(const Eigen::VectorXd& modal_forces) {
  if (modal_forces.size() == g_.size()) g_ = modal_forces;
}

void ModalBody::add_point_force(Index node, const Vec3& force) {
  if (node < 0 || node >= node_count_) return;
  const Eigen::Index row = 3 * static_cast<Eigen::Index>(node);
  const Vec3 local = warping_ ? Vec3(node_rotation(row).transpose() * force) : force;
  g_.noalias() += shapes_.middleRows(row, 3).transpose() * local;
}

void ModalBody::clear_forces() { g_.setZero(); }

void ModalBody::step() {
  const Eigen::Index r = q_.size();
  for (Eigen::Index j = 0; j < r; ++j) {
    const ModalStepCoefficients& c = coefficients_[static_cast<std::size_t>(j)];
    const double q = q_[j], v = v_[j], g = g_[j];
    q_[j] = c.qq * q + c.qv * v + c.gq * g;
    v_[j] = c.vq * q + c.vv * v + c.gv * g;
  }
  time_ += dt_;
}

void ModalBody::reconstruct(std::span<Vec3> displacements) const {
  if (displacements.size() != output_nodes_.size()) return;
  const auto rows = 3 * static_cast<Eigen::Index>(displacements.size());
  const Eigen::Index r = q_.size();
  double* u = displacements.data()->data();
  double* linear = warping_ ? linear_.data() : u;
  if (!output_shapes_h_.empty()) {
    q_f_ = q_.cast<float>().cwiseProduct(shape_scales_);
    linalg::detail::panel_gemv(output_shapes_h_.data(), rows, r, q_f_.data(), linear);
    if (warping_) {
      q_f_ = q_.cast<float>().cwiseProduct(rotation_scales_);
      linalg::detail::panel_gemv(output_rotations_h_.data(), rows, r, q_f_.data(), theta_.data());
    }
  } else if (!output_shapes_f_.empty()) {
    q_f_ = q_.cast<float>();
    linalg::detail::panel_gemv(output_shapes_f_.data(), rows, r, q_f_.data(), linear);
    if (warping_) linalg::detail::panel_gemv(output_rotations_f_.data(), rows, r, q_f_.data(), theta_.data());
  } else {
    linalg::detail::panel_gemv(output_shapes_.data(), rows, r, q_.data(), linear);
    if (warping_) linalg::detail::panel_gemv(output_rotations_.data(), rows, r, q_.data(), theta_.data());
  }
  if (!warping_) return;
  for (std::size_t k = 0; k < displacements.size(); ++k) {
    const Eigen::Index row = 3 * static_cast<Eigen::Index>(k);
    displacements[k] = modal_warp(theta_.segment<3>(row), linear_.segment<3>(row));
  }
}

Vec3 ModalBody::node_displacement(Index node) const {
  const Eigen::Index row = 3 * static_cast<Eigen::Index>(node);
  const Vec3 linear = shapes_.middleRows(row, 3) * q_;
  if (!warping_) return linear;
  return modal_warp(rotations_.middleRows(row, 3) * q_, linear);
}

void ModalBody::set_state(const Eigen::VectorXd& amplitudes, const Eigen::VectorXd& rates) {
  if (amplitudes.size() != q_.size() || rates.size() != v_.size()) return;
  q_ = amplitudes;
  v_ = rates;
}

void ModalBody::set_state_from_weighted(const Eigen::VectorXd& mass_times_u,
                                        const Eigen::VectorXd& mass_times_v) {
  if (mass_times_u.size() != shapes_.rows() || mass_times_v.size() != shapes_.rows()) return;
  q_.noalias() = shapes_.transpose() * mass_times_u;
  v_.noalias() = shapes_.transpose() * mass_times_v;
}

double ModalBody::energy() const {
  return 0.5 * v_.squaredNorm() + 0.5 * (omega_.array() * q_.array()).square().sum();
}

}  // namespace pliant::fem
