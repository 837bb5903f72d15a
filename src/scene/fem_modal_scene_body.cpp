// The fem family's modal bodies: a fem::ModalBody behind the surface contract (fem_modal_scene_body.hpp).
#include "fem_modal_reader.hpp"
#include "soft_grab_patch.hpp"

#include "pliant/core/hash.hpp"
#include "pliant/core/topology.hpp"
#include "pliant/io/vtu.hpp"
#include "pliant/models/fem/fem_body.hpp"
#include "pliant/models/fem/fem_force_model.hpp"
#include "pliant/models/fem/modal_analysis.hpp"
#include "pliant/models/fem/modal_body.hpp"
#include "pliant/scene/capabilities.hpp"
#include "pliant/scene/fem_modal_scene_body.hpp"

#include <fmt/format.h>
#include <Eigen/Cholesky>

#include <algorithm>
#include <cmath>
#include <optional>

namespace pliant::scene {
namespace detail {
namespace {

class FemModalSceneBody final : public Body, public InteriorOutput {
 public:
  static Result<std::unique_ptr<FemModalSceneBody>> build(std::string name, const TetMesh& rest,
                                                          std::vector<materials::Material> materials,
                                                          fem::FemBodyDef def, const FemModalDef& modal,
                                                          double dt) {
    if (!(dt > 0.0) || !std::isfinite(dt)) return Error{"fem modal: the step must be a finite number > 0 s"};
    def.element = fem::ElementKind::linear;
    std::sort(def.fixed_nodes.begin(), def.fixed_nodes.end());
    def.fixed_nodes.erase(std::unique(def.fixed_nodes.begin(), def.fixed_nodes.end()), def.fixed_nodes.end());
    // The force model checks the mesh, materials, damping and gravity, and gives the lumped masses.
    Result<fem::FemForceModel> model = fem::FemForceModel::build(rest, materials, def);
    if (!model.ok()) return Error{model.message()};
    fem::ModalAnalysisDef ad;
    ad.modes = modal.modes;
    ad.shift = modal.shift;
    Result<fem::ModalBasis> basis = fem::modal_analysis(
        rest, materials, def.fixed_nodes, ad,
        def.mass == fem::MassKind::consistent ? fem::ModalMass::consistent : fem::ModalMass::lumped);
    if (!basis.ok()) return Error{"fem modal: " + basis.message()};
    auto body = std::unique_ptr<FemModalSceneBody>(new FemModalSceneBody(std::move(name)));
    FemModalSceneBody& b = *body;
    b.rest_ = rest;
    b.basis_ = std::move(basis).value();
    BoundarySurface boundary = extract_boundary(rest);
    b.surface_ = std::move(boundary.mesh);
    b.surface_node_ = std::move(boundary.volume_node);
    b.xs_ = b.surface_.positions;
    b.us_.assign(b.xs_.size(), Vec3::Zero());
    b.body_def_ = {.modes = 0,
                   .dt = dt,
                   .rayleigh_alpha = def.rayleigh_alpha,
                   .rayleigh_beta = def.rayleigh_beta,
                   .warping = modal.warping,
                   .output_nodes = b.surface_node_};
    Result<fem::ModalBody> mb = fem::ModalBody::build(rest, b.basis_, b.body_def_);
    if (!mb.ok()) return Error{"fem modal: " + mb.message()};
    b.body_.emplace(std::move(mb).value());
    const auto n = static_cast<Eigen::Index>(rest.node_count());
    const Eigen::Index r = b.basis_.mode_count();
    // Gravity's modal force Φᵀ (M g), projected once at rest (M g = m_i g per node for either mass).
    Eigen::VectorXd weight = Eigen::VectorXd::Zero(3 * n);
    for (Eigen::Index i = 0; i < n; ++i)
      weight.segment<3>(3 * i) = model->mass()[static_cast<std::size_t>(i)] * def.gravity;
    b.gravity_ = b.basis_.shapes.transpose() * weight;
    b.out_shapes_.resize(3 * static_cast<Eigen::Index>(b.surface_node_.size()), r);
    for (std::size_t k = 0; k < b.surface_node_.size(); ++k)
      b.out_shapes_.middleRows(3 * static_cast<Eigen::Index>(k), 3) =
          b.basis_.shapes.middleRows(3 * b.surface_node_[k], 3);
    b.out_rates_.resize(b.out_shapes_.rows());
    b.omega_ = b.basis_.angular_frequencies();
    b.damping_ = (def.rayleigh_alpha + def.rayleigh_beta * b.omega_.array().square()).matrix();
    b.system_.resize(r, r);
    b.llt_.emplace(r);
    b.rhs_.resize(r);
    b.q_next_.resize(r);
    b.scratch_.resize(r);
    b.fixed_.assign(rest.node_count(), 0);
    for (Index i : def.fixed_nodes) b.fixed_[static_cast<std::size_t>(i)] = 1;
    b.pending_.assign(rest.node_count(), Vec3::Zero());
    b.loads_ = def.surface_loads;
    std::vector<char> loaded(rest.node_count(), 0);
    for (const fem::SurfaceLoad& load : b.loads_)
      for (const Tri& tri : load.triangles)
        for (Index i : tri) loaded[static_cast<std::size_t>(i)] = 1;
    for (std::size_t i = 0; i < loaded.size(); ++i)
      if (loaded[i]) b.load_nodes_.push_back(static_cast<Index>(i));
    b.load_x_.assign(rest.node_count(), Vec3::Zero());
    b.load_f_.assign(rest.node_count(), Vec3::Zero());
    b.touched_.reserve(rest.node_count());
    b.all_x_.assign(rest.node_count(), Vec3::Zero());
    b.adjacency_ = vertex_adjacency(static_cast<Index>(b.xs_.size()), unique_edges(b.surface_.triangles));
    b.dt_ = dt;
    return body;
  }

  const std::string& name() const override { return name_; }
  std::string_view family() const override { return "fem"; }
  std::span<const Vec3> surface_positions() const override { return xs_; }
  std::span<const Vec3> surface_rest_positions() const override { return surface_.positions; }
  std::span<const Index> surface_nodes() const override { return surface_node_; }
  std::span<const Tri> surface_triangles() const override { return surface_.triangles; }

  GrabId grab(const SurfacePoint& p) override { return grab_patch(p, kDefaultGrabRadius); }

  // The surface nodes within the radius of the picked point, connected to the handle over the surface,
  // each tied by a spring to its target (its linear position at grab time moved with the handle).
  GrabId grab_patch(const SurfacePoint& p, double radius) override {
    if (!on_surface(p) || std::isnan(radius)) return {};
    Vec3 point;
    const std::vector<Index> nodes = soft_grab_patch(
        std::span<const Vec3>(xs_), std::span<const Tri>(surface_.triangles), adjacency_, p, radius,
        [&](Index sn) { return free_surface_node(sn); }, [&](Index sn) { return default_radius(sn); },
        &point);
    if (nodes.empty()) return {};
    const Eigen::Index r = basis_.mode_count();
    Slot s;
    s.active = true;
    s.point = point;
    s.target = point;
    s.sum_shapes = Eigen::MatrixXd::Zero(r, 3);
    s.gram = Eigen::MatrixXd::Zero(r, r);
    s.grab_force = Eigen::VectorXd::Zero(r);
    s.force = Eigen::VectorXd::Zero(r);
    const Eigen::VectorXd& q = body_->amplitudes();
    for (Index sn : nodes) {
      const Index vn = surface_node_[static_cast<std::size_t>(sn)];
      const auto rows = basis_.shapes.middleRows(3 * vn, 3);
      const Vec3 u = rows * q;
      s.nodes.push_back(sn);
      s.volume_nodes.push_back(vn);
      s.held.push_back(rest_.positions[static_cast<std::size_t>(vn)] + u);
      s.sum_shapes += rows.transpose();
      s.gram += rows.transpose() * rows;
      s.grab_force += rows.transpose() * u;
    }
    const double trace = s.gram.trace();
    if (!(trace > 0.0)) return {};
    const double omega = std::max(omega_.size() > 0 ? omega_[omega_.size() - 1] : 0.0, 1.0 / dt_);
    s.stiffness = kModalGrabStiffnessFactor * omega * omega * 3.0 * static_cast<double>(nodes.size()) / trace;
    std::size_t slot = 0;
    while (slot < slots_.size() && slots_[slot].active) ++slot;
    if (slot == slots_.size()) slots_.push_back({});
    s.generation = slots_[slot].generation + 1;
    slots_[slot] = std::move(s);
    return {static_cast<std::int32_t>(slot), slots_[slot].generation};
  }
  bool soft_grabs() const override { return true; }
  std::span<const Index> grab_nodes(GrabId id) const override {
    return live(id) ? std::span<const Index>(slots_[static_cast<std::size_t>(id.slot)].nodes)
                    : std::span<const Index>();
  }
  void move_grab(GrabId id, const Vec3& target) override {
    if (live(id) && target.allFinite()) slots_[static_cast<std::size_t>(id.slot)].target = target;
  }
  void release(GrabId id) override {
    if (!live(id)) return;
    Slot& s = slots_[static_cast<std::size_t>(id.slot)];
    s.active = false;
    s.reaction.setZero();
    incoming_.push(GrabReleased{id, s.nodes.front(), s.target});
  }
  Vec3 grab_reaction(GrabId id) const override {
    return live(id) ? slots_[static_cast<std::size_t>(id.slot)].reaction : Vec3::Zero();
  }

  void apply_force(const SurfacePoint& p, const Vec3& force) override {
    if (!on_surface(p) || !force.allFinite()) return;
    const Tri& t = surface_.triangles[static_cast<std::size_t>(p.triangle)];
    const double w[3] = {1.0 - p.u - p.v, p.u, p.v};
    for (int c = 0; c < 3; ++c) {
      const auto vn =
          static_cast<std::size_t>(surface_node_[static_cast<std::size_t>(t[static_cast<std::size_t>(c)])]);
      if (pending_[vn].isZero(0.0)) touched_.push_back(static_cast<Index>(vn));
      pending_[vn] += w[c] * force;
    }
  }

  void step(double dt, Profile& profile) override {
    events_.swap(incoming_);
    incoming_.clear();
    Stopwatch watch;
    if (dt > 0.0 && std::isfinite(dt)) advance(dt);
    profile.record("fem.modal_step", watch.ms());
    watch.reset();
    const fem::ModalBody& m = *body_;
    m.reconstruct(us_);
    for (std::size_t k = 0; k < xs_.size(); ++k) xs_[k] = surface_.positions[k] + us_[k];
    const Eigen::VectorXd& q = m.amplitudes();
    for (Slot& s : slots_) {
      if (!s.active) continue;
      // The spring's pull on the tool: k Σ (xᵢ - tᵢ), xᵢ the linear position of a patch node.
      s.reaction.setZero();
      for (std::size_t j = 0; j < s.volume_nodes.size(); ++j) {
        const Index vn = s.volume_nodes[j];
        const Vec3 x =
            rest_.positions[static_cast<std::size_t>(vn)] + basis_.shapes.middleRows(3 * vn, 3) * q;
        s.reaction += x - (s.held[j] + s.target - s.point);
      }
      s.reaction *= s.stiffness;
    }
    profile.record("fem.reconstruct", watch.ms());
    const bool finite = q.allFinite() && m.rates().allFinite();
    if (!finite) events_.push(fem::FemSolverWarning{0, -1.0, 0.0, false});
  }
  const EventLog& events() const override { return events_; }

  std::span<const FieldInfo> fields() const override {
    static constexpr FieldInfo kFields[] = {{"displacement", "m"}, {"speed", "m/s"}};
    return kFields;
  }
  void fill_field(std::size_t index, std::span<double> out) const override {
    if (index > 1 || out.size() != xs_.size()) return;
    if (index == 0) {
      for (std::size_t k = 0; k < xs_.size(); ++k) out[k] = us_[k].norm();
      return;
    }
    out_rates_.noalias() = out_shapes_ * body_->rates();
    for (std::size_t k = 0; k < xs_.size(); ++k)
      out[k] = out_rates_.segment<3>(3 * static_cast<Eigen::Index>(k)).norm();
  }
  std::uint64_t state_hash() const override {
    const Eigen::VectorXd& q = body_->amplitudes();
    const Eigen::VectorXd& v = body_->rates();
    return Hasher()
        .add(std::span<const double>(q.data(), static_cast<std::size_t>(q.size())))
        .add(std::span<const double>(v.data(), static_cast<std::size_t>(v.size())))
        .add(xs_)
        .value();
  }

  // The whole volume from the full reconstruction (warped when the body warps): point data
  // "displacement" (m) and "velocity" (m/s, of the linear reconstruction).
  std::string_view interior_name() const override { return "volume"; }
  std::span<const Vec3> interior_points() const override {
    for (std::size_t i = 0; i < all_x_.size(); ++i)
      all_x_[i] = rest_.positions[i] + body_->node_displacement(static_cast<Index>(i));
    return all_x_;
  }
  Status write_interior_vtu(const std::filesystem::path& path) const override {
    const std::span<const Vec3> x = interior_points();
    const TetMesh mesh{std::vector<Vec3>(x.begin(), x.end()), rest_.tets};
    io::Field u{"displacement", 3, std::vector<double>(3 * x.size())};
    io::Field v{"velocity", 3, std::vector<double>(3 * x.size())};
    const Eigen::VectorXd velocity = basis_.shapes * body_->rates();
    for (std::size_t i = 0; i < x.size(); ++i) {
      for (int k = 0; k < 3; ++k) {
        u.values[3 * i + static_cast<std::size_t>(k)] = x[i][k] - rest_.positions[i][k];
        v.values[3 * i + static_cast<std::size_t>(k)] = velocity[3 * static_cast<Eigen::Index>(i) + k];
      }
    }
    return io::write_vtu(path, mesh, {std::move(u), std::move(v)}, {});
  }

 private:
  explicit FemModalSceneBody(std::string name) : name_(std::move(name)) {}

  struct Slot {
    bool active = false;
    std::uint32_t generation = 0;
    std::vector<Index> nodes;         // surface nodes, the handle first
    std::vector<Index> volume_nodes;  // the same nodes in the mesh's numbering
    std::vector<Vec3> held;           // linear positions of the patch nodes at grab time (unit: m)
    Vec3 point = Vec3::Zero();        // the picked point at grab time (unit: m)
    Vec3 target = Vec3::Zero();       // its target (unit: m)
    Vec3 reaction = Vec3::Zero();     // force of the body on the tool after the last step (unit: N)
    double stiffness = 0.0;           // k of every patch node's spring (unit: N/m)
    Eigen::MatrixXd sum_shapes;       // Σ Φᵢᵀ over the patch, r × 3
    Eigen::MatrixXd gram;             // Σ Φᵢᵀ Φᵢ, r × r
    Eigen::VectorXd grab_force;       // Σ Φᵢᵀ uᵢ at grab time, r
    Eigen::VectorXd force;            // scratch, r
  };

  bool on_surface(const SurfacePoint& p) const {
    return p.triangle >= 0 && static_cast<std::size_t>(p.triangle) < surface_.triangles.size();
  }
  bool live(GrabId id) const {
    return id.slot >= 0 && static_cast<std::size_t>(id.slot) < slots_.size() &&
           slots_[static_cast<std::size_t>(id.slot)].active &&
           slots_[static_cast<std::size_t>(id.slot)].generation == id.generation;
  }
  bool free_surface_node(Index sn) const {
    return !fixed_[static_cast<std::size_t>(surface_node_[static_cast<std::size_t>(sn)])];
  }
  // Twice the mean length of the surface edges at the node (unit: m).
  double default_radius(Index sn) const {
    const auto a = static_cast<std::size_t>(sn);
    double sum = 0.0;
    int count = 0;
    for (Index e = adjacency_.offsets[a]; e < adjacency_.offsets[a + 1]; ++e, ++count)
      sum +=
          (xs_[static_cast<std::size_t>(adjacency_.neighbors[static_cast<std::size_t>(e)])] - xs_[a]).norm();
    return count > 0 ? 2.0 * sum / count : 0.0;
  }

  void advance(double dt) {
    fem::ModalBody& m = *body_;
    if (dt != dt_) {
      // Another step length: new step coefficients (allocates once), the state kept.
      fem::ModalBodyDef def = body_def_;
      def.dt = dt;
      Result<fem::ModalBody> next = fem::ModalBody::build(rest_, basis_, def);
      if (!next.ok()) return;
      const Eigen::VectorXd q = m.amplitudes(), v = m.rates();
      body_.emplace(std::move(next).value());
      body_->set_state(q, v);
      dt_ = dt;
    }
    fem::ModalBody& b = *body_;
    b.set_modal_forces(gravity_);
    for (Index i : touched_) {
      b.add_point_force(i, pending_[static_cast<std::size_t>(i)]);
      pending_[static_cast<std::size_t>(i)].setZero();
    }
    touched_.clear();
    if (!loads_.empty()) {
      // Pressure on the current (reconstructed, warped when the body warps) triangles and traction per
      // rest area, as node forces held over the step, projected onto the modes like point forces.
      for (Index i : load_nodes_) {
        const auto is = static_cast<std::size_t>(i);
        load_x_[is] = rest_.positions[is] + b.node_displacement(i);
        load_f_[is].setZero();
      }
      fem::add_surface_load_forces(loads_, rest_.positions, load_x_, load_f_);
      for (Index i : load_nodes_) b.add_point_force(i, load_f_[static_cast<std::size_t>(i)]);
    }
    if (std::none_of(slots_.begin(), slots_.end(), [](const Slot& s) { return s.active; })) {
      b.step();
      return;
    }
    // Springs couple the modes: backward Euler on q̈ + D q̇ + Ω² q = g + Σ k (Φ_Pᵀ (d + u_P,0) - G q),
    // (I + h D + h² (Ω² + Σ k G)) q̇' = q̇ + h (g + Σ k (Φ_Pᵀ d + Φ_Pᵀ u_P,0 - G q) - Ω² q), q' = q + h q̇'.
    const double h = dt;
    const Eigen::VectorXd& q = b.amplitudes();
    const Eigen::VectorXd& v = b.rates();
    system_.setZero();
    system_.diagonal() = (1.0 + h * damping_.array() + h * h * omega_.array().square()).matrix();
    rhs_ = v + h * (b.modal_forces() - (omega_.array().square() * q.array()).matrix());
    for (Slot& s : slots_) {
      if (!s.active) continue;
      system_ += (h * h * s.stiffness) * s.gram;
      const Vec3 d = s.target - s.point;
      s.force.noalias() = s.sum_shapes * d;
      s.force += s.grab_force;
      s.force.noalias() -= s.gram * q;
      rhs_ += (h * s.stiffness) * s.force;
    }
    llt_->compute(system_);
    llt_->solveInPlace(rhs_);
    q_next_ = q + h * rhs_;
    scratch_ = rhs_;
    b.set_state(q_next_, scratch_);
  }

  std::string name_;
  TetMesh rest_;
  fem::ModalBasis basis_;
  fem::ModalBodyDef body_def_;
  std::optional<fem::ModalBody> body_;
  double dt_ = 0.0;
  Eigen::VectorXd gravity_, omega_, damping_, rhs_, q_next_, scratch_;
  Eigen::MatrixXd out_shapes_, system_;
  std::optional<Eigen::LLT<Eigen::MatrixXd>> llt_;
  mutable Eigen::VectorXd out_rates_;
  TriMesh surface_;
  std::vector<Index> surface_node_;
  std::vector<Vec3> xs_, us_, pending_;
  std::vector<fem::SurfaceLoad> loads_;  // pressure and traction (fem_force_model.hpp)
  std::vector<Index> load_nodes_;        // the nodes they load, ascending
  std::vector<Vec3> load_x_, load_f_;    // per node: current position and load force (loaded nodes only)
  mutable std::vector<Vec3> all_x_;
  std::vector<Index> touched_;
  std::vector<char> fixed_;
  Adjacency adjacency_;
  std::vector<Slot> slots_;
  EventLog events_, incoming_;
};

}  // namespace

std::unique_ptr<Body> make_fem_modal_body(const JsonReader& settings, const TetMesh& mesh,
                                          std::vector<materials::Material> materials, fem::FemBodyDef def,
                                          const BodyInputs& in) {
  const JsonReader j = settings.at("modal");
  j.expect_object({"modes", "warping", "shift"});
  if (auto v = settings.find("element")) {
    if (def.element != fem::ElementKind::linear && def.element != fem::ElementKind::corotational)
      v->fail(
          "a modal body is linear elasticity about the rest shape: \"element\" must be linear or "
          "corotational");
  }
  for (const char* key : {"integrator", "dt", "solver"}) {
    if (auto v = settings.find(key))
      v->fail(fmt::format("a modal body steps by the exact modal step: remove \"{}\"", key));
  }
  FemModalDef modal;
  modal.modes = static_cast<Index>(j.at("modes").integer(1, 100000));
  if (auto v = j.find("warping")) modal.warping = v->boolean();
  if (auto v = j.find("shift")) modal.shift = v->number();
  Result<std::unique_ptr<FemModalSceneBody>> built =
      FemModalSceneBody::build(in.name, mesh, std::move(materials), std::move(def), modal, in.time_step);
  if (!built.ok()) j.fail(built.message());
  return std::move(built).value();
}

}  // namespace detail

Result<std::unique_ptr<Body>> make_fem_modal_scene_body(std::string name, const TetMesh& rest,
                                                        std::vector<materials::Material> materials,
                                                        fem::FemBodyDef def, FemModalDef modal, double dt) {
  Result<std::unique_ptr<detail::FemModalSceneBody>> built = detail::FemModalSceneBody::build(
      std::move(name), rest, std::move(materials), std::move(def), modal, dt);
  if (!built.ok()) return Error{built.message()};
  return std::unique_ptr<Body>(std::move(built).value());
}

}  // namespace pliant::scene
