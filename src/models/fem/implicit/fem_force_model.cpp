// The dynamic FEM body over dynamics::ForceModel: per-tet stresses into per-tet slots, then a per-node
// gather in incidence order (deterministic for any thread count).
#include "pliant/models/fem/implicit/fem_force_model.hpp"
#include "models/fem/implicit/surface_load_check.hpp"

#include "core/parallel_for.hpp"
#include "models/fem/elements/corotational_lanes.hpp"
#include "models/fem/implicit/tet_materials_check.hpp"
#include "pliant/core/threads.hpp"
#include "pliant/models/fem/assembly/assembly.hpp"
#include "pliant/models/fem/elements/hyperelastic_tet.hpp"
#include "pliant/models/fem/elements/polar_decomposition.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

namespace pliant::fem {

namespace {

// Below this many tets the OpenMP team costs more than it saves.
constexpr Index kParallelTets = 2048;

Mat3 linear_stress(const Mat3& strain, double lambda, double mu) {
  return lambda * strain.trace() * Mat3::Identity() + 2.0 * mu * strain;
}

Mat3 sym(const Mat3& A) { return 0.5 * (A + A.transpose()); }

bool is_hyperelastic(ElementKind kind) {
  return kind == ElementKind::stvk || kind == ElementKind::stable_neo_hookean;
}

Hyperelastic hyperelastic_of(ElementKind kind) {
  return kind == ElementKind::stvk ? Hyperelastic::stvk : Hyperelastic::stable_neo_hookean;
}

// Σ_b q_b ∇N_bᵀ = [q1-q0, q2-q0, q3-q0] Dm⁻¹ for a per-node field q.
Mat3 field_gradient(std::span<const Vec3> q, const Tet& tet, const Mat3& dm_inverse) {
  const Vec3& q0 = q[static_cast<std::size_t>(tet[0])];
  Mat3 D;
  D.col(0) = q[static_cast<std::size_t>(tet[1])] - q0;
  D.col(1) = q[static_cast<std::size_t>(tet[2])] - q0;
  D.col(2) = q[static_cast<std::size_t>(tet[3])] - q0;
  return D * dm_inverse;
}

// Tet t's slot for node a in the lane array of slots (corotational_lanes.hpp), and its rotated
// gradients in theirs.
Vec3 slot_at(const std::vector<double>& slots, std::size_t t, int a) {
  const std::size_t k = detail::lane_index(t, detail::kSlotValues, 3 * a);
  return {slots[k], slots[k + detail::kTetLanes], slots[k + 2 * detail::kTetLanes]};
}
void set_slot(std::vector<double>& slots, std::size_t t, int a, const Vec3& value) {
  const std::size_t k = detail::lane_index(t, detail::kSlotValues, 3 * a);
  for (int r = 0; r < 3; ++r) slots[k + static_cast<std::size_t>(r * detail::kTetLanes)] = value[r];
}
Mat3 gradients_at(const std::vector<double>& lanes, std::size_t t) {
  Mat3 H;
  for (int c = 0; c < 3; ++c)
    for (int r = 0; r < 3; ++r) H(r, c) = lanes[detail::lane_index(t, detail::kMatrixValues, 3 * c + r)];
  return H;
}
void set_gradients(std::vector<double>& lanes, std::size_t t, const Mat3& H) {
  for (int c = 0; c < 3; ++c)
    for (int r = 0; r < 3; ++r) lanes[detail::lane_index(t, detail::kMatrixValues, 3 * c + r)] = H(r, c);
}

// Tet t's slots from W: node a = 1..3 from W's columns, node 0 = -(their sum).
void set_slots(std::vector<double>& slots, std::size_t t, const Mat3& W) {
  set_slot(slots, t, 0, -(W.col(0) + W.col(1) + W.col(2)));
  for (int a = 1; a < 4; ++a) set_slot(slots, t, a, W.col(a - 1));
}

// The four node slots of one tet: -V P ∇N_a.
void write_slots(const Mat3& P, const Mat3& dm_inverse, double volume, std::vector<double>& slots,
                 std::size_t t) {
  set_slots(slots, t, -volume * P * dm_inverse.transpose());
}

// R K0 Rᵀ of a linear (R = I) or corotational tet, built from the rotated shape gradients h_a = R ∇N_a:
// block ab = V (λ h_a h_bᵀ + μ h_b h_aᵀ + μ (∇N_a·∇N_b) I), the blocks of tet_stiffness (linear_tet.hpp)
// rotated, without the 12×12 products of corotational_stiffness.
Mat12 warped_stiffness(const Eigen::Matrix<double, 3, 4>& g, const Eigen::Matrix<double, 3, 4>& h,
                       const materials::Material& mat, double volume) {
  const double lambda = volume * mat.lambda, mu = volume * mat.mu;
  Mat12 K;
  for (int a = 0; a < 4; ++a)
    for (int b = a; b < 4; ++b) {
      Mat3 block = lambda * h.col(a) * h.col(b).transpose() + mu * h.col(b) * h.col(a).transpose();
      block.diagonal().array() += mu * g.col(a).dot(g.col(b));
      K.block<3, 3>(3 * a, 3 * b) = block;
      if (b != a) K.block<3, 3>(3 * b, 3 * a) = block.transpose();
    }
  return K;
}

// The rotated shape gradients [R ∇N_1, R ∇N_2, R ∇N_3] = R Dm⁻ᵀ of a corotational tet.
Mat3 rotated_gradients(const Mat3& R, const Mat3& dm_inverse) { return R * dm_inverse.transpose(); }

}  // namespace

const char* element_kind_name(ElementKind kind) {
  switch (kind) {
    case ElementKind::linear:
      return "linear";
    case ElementKind::corotational:
      return "corotational";
    case ElementKind::stvk:
      return "stvk";
    case ElementKind::stable_neo_hookean:
      return "neo_hookean";
  }
  return "unknown";
}

const char* mass_kind_name(MassKind kind) { return kind == MassKind::consistent ? "consistent" : "lumped"; }

Result<ElementKind> parse_element_kind(std::string_view name) {
  if (name == "linear") return ElementKind::linear;
  if (name == "corotational") return ElementKind::corotational;
  if (name == "stvk") return ElementKind::stvk;
  if (name == "neo_hookean" || name == "stable_neo_hookean") return ElementKind::stable_neo_hookean;
  return Error{"unknown element \"" + std::string(name) + "\" (linear, corotational, stvk, neo_hookean)"};
}

Result<FemForceModel> FemForceModel::build(const TetMesh& rest,
                                           std::span<const materials::Material> materials,
                                           const FemBodyDef& def) {
  auto shape = build_rest_shape(rest);
  if (!shape) return Error{"fem body: " + shape.message()};
  const std::size_t nt = rest.tet_count(), n = rest.node_count();
  if (Status s = detail::check_tet_materials(materials, nt); !s.ok()) return Error{s.message()};
  if (!(std::isfinite(def.rayleigh_alpha) && def.rayleigh_alpha >= 0.0 && std::isfinite(def.rayleigh_beta) &&
        def.rayleigh_beta >= 0.0))
    return Error{"fem body: Rayleigh alpha and beta must be finite and >= 0"};
  if (!def.gravity.allFinite()) return Error{"fem body: gravity must be finite"};
  if (def.mass != MassKind::lumped && def.mass != MassKind::consistent)
    return Error{"fem body: unknown mass kind (lumped, consistent)"};
  if (!def.tet_elements.empty() && def.tet_elements.size() != nt)
    return Error{"fem body: " + std::to_string(def.tet_elements.size()) + " tet elements for " +
                 std::to_string(nt) + " tets (give none or one per tet)"};
  for (Index node : def.fixed_nodes)
    if (node < 0 || static_cast<std::size_t>(node) >= n)
      return Error{"fem body: fixed node " + std::to_string(node) + " out of range (" + std::to_string(n) +
                   " nodes)"};
  if (Status loads = check_surface_loads(def.surface_loads, n); !loads.ok()) return loads.error();

  FemForceModel m;
  m.def_ = def;
  m.rest_ = rest.positions;
  m.tets_ = rest.tets;
  m.shape_ = std::move(shape.value());
  m.material_.resize(nt);
  for (std::size_t t = 0; t < nt; ++t) m.material_[t] = materials.size() == 1 ? materials[0] : materials[t];
  if (def.tet_elements.empty())
    m.kind_.assign(nt, def.element);
  else
    m.kind_ = def.tet_elements;
  for (ElementKind kind : m.kind_) {
    m.any_corotational_ = m.any_corotational_ || kind == ElementKind::corotational;
    m.any_hyperelastic_ = m.any_hyperelastic_ || is_hyperelastic(kind);
  }
  m.corotational_group_.assign((nt + detail::kTetLanes - 1) / detail::kTetLanes, 1);
  for (std::size_t t = 0; t < nt; ++t)
    if (m.kind_[t] != ElementKind::corotational) m.corotational_group_[t / detail::kTetLanes] = 0;

  m.mass_.assign(n, 0.0);
  m.rest_diagonal_.assign(n, 0.0);
  std::vector<Index> count(n + 1, 0);
  for (std::size_t t = 0; t < nt; ++t) {
    const materials::Material& mat = m.material_[t];
    const double V = m.shape_.volume[t];
    const Eigen::Matrix<double, 3, 4> g = shape_gradients(m.shape_.dm_inverse[t]);
    for (int a = 0; a < 4; ++a) {
      const auto i = static_cast<std::size_t>(rest.tets[t][a]);
      m.mass_[i] += 0.25 * mat.density * V;
      // trace/3 of K_aa = V (λ g gᵀ + μ g gᵀ + μ |g|² I)
      m.rest_diagonal_[i] += V * g.col(a).squaredNorm() * ((mat.lambda + mat.mu) / 3.0 + mat.mu);
      ++count[i + 1];
    }
  }
  m.inverse_mass_.resize(n);
  for (std::size_t i = 0; i < n; ++i) m.inverse_mass_[i] = 1.0 / m.mass_[i];  // every node is in a tet
  for (Index node : def.fixed_nodes) m.inverse_mass_[static_cast<std::size_t>(node)] = 0.0;

  m.incident_offsets_.assign(n + 1, 0);
  for (std::size_t i = 0; i < n; ++i) m.incident_offsets_[i + 1] = m.incident_offsets_[i] + count[i + 1];
  m.incident_slots_.resize(4 * nt);
  std::vector<Index> fill(m.incident_offsets_.begin(), m.incident_offsets_.end() - 1);
  for (std::size_t t = 0; t < nt; ++t)
    for (int a = 0; a < 4; ++a)
      m.incident_slots_[static_cast<std::size_t>(fill[static_cast<std::size_t>(rest.tets[t][a])]++)] =
          static_cast<Index>(detail::lane_index(t, detail::kSlotValues, 3 * a));

  m.point_force_.assign(n, Vec3::Zero());
  const std::size_t groups = m.corotational_group_.size();
  m.slots_.assign(groups * detail::kTetLanes * detail::kSlotValues, 0.0);
  if (m.any_corotational_) {
    m.rotated_.assign(groups * detail::kTetLanes * detail::kMatrixValues, 0.0);
    m.node_tet_.assign(n, -1);
    m.node_dm_.assign(n, Mat3::Identity());
    for (std::size_t t = nt; t-- > 0;)  // the lowest corotational tet of each node
      if (m.kind_[t] == ElementKind::corotational)
        for (Index a : m.tets_[t]) m.node_tet_[static_cast<std::size_t>(a)] = static_cast<Index>(t);
    for (std::size_t i = 0; i < n; ++i)
      if (m.node_tet_[i] >= 0)
        m.node_dm_[i] = m.shape_.dm_inverse[static_cast<std::size_t>(m.node_tet_[i])].inverse();
    // The lane kernels' rest data, padded to whole groups with the last tet.
    m.lane_tets_.resize(groups * detail::kTetLanes);
    m.lane_dm_inverse_.assign(groups * detail::kTetLanes * detail::kMatrixValues, 0.0);
    m.moduli_.assign(groups * detail::kTetLanes * detail::kModuliValues, 0.0);
    for (std::size_t lane = 0; lane < m.lane_tets_.size(); ++lane) {
      const std::size_t t = std::min(lane, nt - 1);
      m.lane_tets_[lane] = m.tets_[t];
      for (int c = 0; c < 3; ++c)
        for (int r = 0; r < 3; ++r)
          m.lane_dm_inverse_[detail::lane_index(lane, detail::kMatrixValues, 3 * c + r)] =
              m.shape_.dm_inverse[t](r, c);
      m.moduli_[detail::lane_index(lane, detail::kModuliValues, 0)] =
          -m.shape_.volume[t] * m.material_[t].lambda;
      m.moduli_[detail::lane_index(lane, detail::kModuliValues, 1)] = -m.shape_.volume[t] * m.material_[t].mu;
    }
  }
  if (m.any_hyperelastic_) m.dpdf_.assign(nt, Mat9::Zero());
  m.cached_x_.assign(n, Vec3::Zero());
  return m;
}

Status FemForceModel::set_held_nodes(std::span<const Index> held) {
  const std::size_t n = rest_.size();
  for (Index node : held)
    if (node < 0 || static_cast<std::size_t>(node) >= n)
      return Error{"fem body: held node " + std::to_string(node) + " out of range (" + std::to_string(n) +
                   " nodes)"};
  for (std::size_t i = 0; i < n; ++i) inverse_mass_[i] = 1.0 / mass_[i];
  for (Index node : def_.fixed_nodes) inverse_mass_[static_cast<std::size_t>(node)] = 0.0;
  for (Index node : held) inverse_mass_[static_cast<std::size_t>(node)] = 0.0;
  return {};
}

void FemForceModel::clear_point_forces() {
  for (Vec3& f : point_force_) f.setZero();
}

void FemForceModel::update_cache(std::span<const Vec3> x, bool with_dpdf) const {
  const bool need_rotation = any_corotational_, need_dpdf = any_hyperelastic_ && with_dpdf;
  if (!need_rotation && !need_dpdf) return;
  const bool same =
      x.size() == cached_x_.size() && std::memcmp(x.data(), cached_x_.data(), x.size() * sizeof(Vec3)) == 0;
  if (same && (!need_rotation || rotation_valid_) && (!need_dpdf || dpdf_valid_)) return;
  const auto nt = static_cast<Index>(tets_.size());
  const auto groups = static_cast<Index>(corotational_group_.size());
  const int team = nt > kParallelTets ? solver_threads() : 1;
  const detail::LaneKernel kernel = detail::best_lane_kernel();
  parallel_for(groups, team, [&](Index g) {
    const Index first = g * detail::kTetLanes;
    const int count = static_cast<int>(std::min<Index>(detail::kTetLanes, nt - first));
    if (corotational_group_[static_cast<std::size_t>(g)]) {
      detail::corotational_forces(lane_data(), x.data(), nullptr, 0.0, first, count, rotated_.data(), nullptr,
                                  kernel);
      return;
    }
    for (Index t = first; t < first + count; ++t) {
      const auto ts = static_cast<std::size_t>(t);
      const ElementKind kind = kind_[ts];
      if (kind == ElementKind::linear || (is_hyperelastic(kind) && !need_dpdf)) continue;
      const Mat3 F = field_gradient(x, tets_[ts], shape_.dm_inverse[ts]);
      if (is_hyperelastic(kind))
        dpdf_[ts] = first_piola_derivative(hyperelastic_of(kind), F, material_[ts], Definiteness::projected);
      else
        set_gradients(rotated_, ts, rotated_gradients(extract_rotation(F), shape_.dm_inverse[ts]));
    }
  });
  std::copy(x.begin(), x.end(), cached_x_.begin());
  rotation_valid_ = need_rotation;
  dpdf_valid_ = need_dpdf;
}

void FemForceModel::gather(double scale, std::span<Vec3> y) const {
  const auto n = static_cast<Index>(rest_.size());
  const int team = tets_.size() > kParallelTets ? solver_threads() : 1;
  parallel_for(n, team, [&](Index i) {
    double sum[3] = {0.0, 0.0, 0.0};
    for (Index k = incident_offsets_[i]; k < incident_offsets_[i + 1]; ++k) {
      const double* s = &slots_[static_cast<std::size_t>(incident_slots_[static_cast<std::size_t>(k)])];
      for (int r = 0; r < 3; ++r) sum[r] += s[r * detail::kTetLanes];
    }
    y[static_cast<std::size_t>(i)] += scale * Vec3(sum[0], sum[1], sum[2]);
  });
}

void FemForceModel::tet_stiffness_products(std::span<const Vec3> p) const {
  const auto nt = static_cast<Index>(tets_.size());
  const auto groups = static_cast<Index>(corotational_group_.size());
  const int team = nt > kParallelTets ? solver_threads() : 1;
  const detail::LaneKernel kernel = detail::best_lane_kernel();
  parallel_for(groups, team, [&](Index g) {
    const Index first = g * detail::kTetLanes;
    const int count = static_cast<int>(std::min<Index>(detail::kTetLanes, nt - first));
    if (corotational_group_[static_cast<std::size_t>(g)])
      detail::corotational_products(lane_data(), rotated_.data(), p.data(), first, slots_.data(), kernel);
    else
      for (Index t = first; t < first + count; ++t) tet_stiffness_product(p, t);
  });
}

void FemForceModel::tet_stiffness_product(std::span<const Vec3> p, Index t) const {
  const auto ts = static_cast<std::size_t>(t);
  const materials::Material& mat = material_[ts];
  const ElementKind kind = kind_[ts];
  if (kind == ElementKind::corotational) {
    // With H = [R ∇N_1 R ∇N_2 R ∇N_3] and E = Σ_b p_b (R ∇N_b)ᵀ = dF Rᵀ: Rᵀ dF = Rᵀ E R, so
    // R σ(sym(Rᵀ dF)) ∇N_a = (λ tr(E) I + 2μ sym(E)) R ∇N_a and the slots are
    // -V (λ tr(E) I + 2μ sym(E)) H: no rotation of dF and back, about half the work.
    const Mat3 H = gradients_at(rotated_, ts);
    const Tet& tet = tets_[ts];
    const Vec3& p0 = p[static_cast<std::size_t>(tet[0])];
    Mat3 D;
    D.col(0) = p[static_cast<std::size_t>(tet[1])] - p0;
    D.col(1) = p[static_cast<std::size_t>(tet[2])] - p0;
    D.col(2) = p[static_cast<std::size_t>(tet[3])] - p0;
    const Mat3 E = D * H.transpose();
    const double V = shape_.volume[ts];
    Mat3 M = (-V * mat.mu) * (E + E.transpose());
    M.diagonal().array() += -V * mat.lambda * E.trace();
    set_slots(slots_, ts, M * H);
    return;
  }
  const Mat3& dminv = shape_.dm_inverse[ts];
  const Mat3 dF = field_gradient(p, tets_[ts], dminv);
  Mat3 dP;
  if (kind == ElementKind::linear)
    dP = linear_stress(sym(dF), mat.lambda, mat.mu);
  else
    Eigen::Map<Vec9>(dP.data()) = dpdf_[ts] * Eigen::Map<const Vec9>(dF.data());
  write_slots(dP, dminv, shape_.volume[ts], slots_, ts);
}

detail::TetLaneData FemForceModel::lane_data() const {
  return {lane_tets_.data(), lane_dm_inverse_.data(), moduli_.data()};
}

void FemForceModel::tet_force(std::span<const Vec3> x, std::span<const Vec3> v, double beta, Index t) const {
  const auto ts = static_cast<std::size_t>(t);
  const Tet& tet = tets_[ts];
  const Mat3& dminv = shape_.dm_inverse[ts];
  const materials::Material& mat = material_[ts];
  const Mat3 F = field_gradient(x, tet, dminv);
  const ElementKind kind = kind_[ts];
  Mat3 P;
  switch (kind) {
    case ElementKind::linear: {
      P = linear_stress(sym(F) - Mat3::Identity(), mat.lambda, mat.mu);
      if (beta != 0.0) P += beta * linear_stress(sym(field_gradient(v, tet, dminv)), mat.lambda, mat.mu);
      break;
    }
    case ElementKind::corotational: {
      const Mat3 R = extract_rotation(F);
      set_gradients(rotated_, ts, rotated_gradients(R, dminv));
      Mat3 strain = sym(R.transpose() * F) - Mat3::Identity();
      if (beta != 0.0) strain += beta * sym(R.transpose() * field_gradient(v, tet, dminv));
      P = R * linear_stress(strain, mat.lambda, mat.mu);
      break;
    }
    case ElementKind::stvk:
    case ElementKind::stable_neo_hookean: {
      P = first_piola(hyperelastic_of(kind), F, mat);
      if (beta != 0.0) {
        dpdf_[ts] = first_piola_derivative(hyperelastic_of(kind), F, mat, Definiteness::projected);
        const Mat3 dF = field_gradient(v, tet, dminv);
        Mat3 dP;
        Eigen::Map<Vec9>(dP.data()) = dpdf_[ts] * Eigen::Map<const Vec9>(dF.data());
        P += beta * dP;
      }
      break;
    }
  }
  write_slots(P, dminv, shape_.volume[ts], slots_, ts);
}

void FemForceModel::forces(std::span<const Vec3> x, std::span<const Vec3> v, std::span<Vec3> f) const {
  forces(x, v, f, 0.0);
}

void FemForceModel::forces(std::span<const Vec3> x, std::span<const Vec3> v, std::span<Vec3> f,
                           double extra_beta) const {
  const double beta = def_.rayleigh_beta + extra_beta;
  const bool consistent_damping = def_.mass == MassKind::consistent && def_.rayleigh_alpha != 0.0;
  const auto nt = static_cast<Index>(tets_.size());
  const auto groups = static_cast<Index>(corotational_group_.size());
  const int team = nt > kParallelTets ? solver_threads() : 1;
  const detail::LaneKernel kernel = detail::best_lane_kernel();
  parallel_for(groups, team, [&](Index g) {
    const Index first = g * detail::kTetLanes;
    const int count = static_cast<int>(std::min<Index>(detail::kTetLanes, nt - first));
    if (corotational_group_[static_cast<std::size_t>(g)])
      detail::corotational_forces(lane_data(), x.data(), v.data(), beta, first, count, rotated_.data(),
                                  slots_.data(), kernel);
    for (Index t = first; t < first + count; ++t) {
      const auto ts = static_cast<std::size_t>(t);
      if (!corotational_group_[static_cast<std::size_t>(g)]) tet_force(x, v, beta, t);
      if (consistent_damping) {
        // -α M_t v over the tet: ρV/20 (v_a + Σ_b v_b) at node a.
        const Tet& tet = tets_[ts];
        const double c = -def_.rayleigh_alpha * material_[ts].density * shape_.volume[ts] / 20.0;
        Vec3 sum = Vec3::Zero();
        for (int a = 0; a < 4; ++a) sum += v[static_cast<std::size_t>(tet[a])];
        for (int a = 0; a < 4; ++a)
          set_slot(slots_, ts, a, slot_at(slots_, ts, a) + c * (v[static_cast<std::size_t>(tet[a])] + sum));
      }
    }
  });
  if (any_corotational_ || (any_hyperelastic_ && beta != 0.0)) {
    std::copy(x.begin(), x.end(), cached_x_.begin());
    rotation_valid_ = any_corotational_;
    dpdf_valid_ = any_hyperelastic_ && beta != 0.0;
  }
  const std::size_t n = rest_.size();
  // Gravity M g: the consistent rows sum to the lumped masses, so both kinds give m_i g for a constant g.
  const double alpha = def_.mass == MassKind::lumped ? def_.rayleigh_alpha : 0.0;  // else in the slots
  for (std::size_t i = 0; i < n; ++i) f[i] = mass_[i] * (def_.gravity - alpha * v[i]) + point_force_[i];
  add_surface_loads(x, f);
  gather(1.0, f);
}

void FemForceModel::add_surface_loads(std::span<const Vec3> x, std::span<Vec3> f) const {
  add_surface_load_forces(def_.surface_loads, rest_, x, f);
}

Status check_surface_loads(std::span<const SurfaceLoad> loads, std::size_t node_count) {
  for (std::size_t l = 0; l < loads.size(); ++l) {
    const SurfaceLoad& load = loads[l];
    if (!std::isfinite(load.pressure) || !load.traction.allFinite())
      return Error{"fem body: surface load " + std::to_string(l) + ": pressure and traction must be finite"};
    for (const Tri& tri : load.triangles)
      for (Index node : tri)
        if (node < 0 || static_cast<std::size_t>(node) >= node_count)
          return Error{"fem body: surface load " + std::to_string(l) + ": node " + std::to_string(node) +
                       " out of range (" + std::to_string(node_count) + " nodes)"};
  }
  return {};
}

void add_surface_load_forces(std::span<const SurfaceLoad> loads, std::span<const Vec3> rest,
                             std::span<const Vec3> x, std::span<Vec3> f) {
  for (const SurfaceLoad& load : loads) {
    for (const Tri& tri : load.triangles) {
      const auto i0 = static_cast<std::size_t>(tri[0]), i1 = static_cast<std::size_t>(tri[1]),
                 i2 = static_cast<std::size_t>(tri[2]);
      Vec3 corner = Vec3::Zero();
      if (load.pressure != 0.0) corner -= load.pressure / 6.0 * (x[i1] - x[i0]).cross(x[i2] - x[i0]);
      if (!load.traction.isZero(0.0))
        corner += (0.5 / 3.0) * (rest[i1] - rest[i0]).cross(rest[i2] - rest[i0]).norm() * load.traction;
      f[i0] += corner;
      f[i1] += corner;
      f[i2] += corner;
    }
  }
}

void FemForceModel::add_mass_product(std::span<const Vec3> p, double scale, std::span<Vec3> y) const {
  if (def_.mass == MassKind::lumped) {
    for (std::size_t i = 0; i < mass_.size(); ++i) y[i] += (scale * mass_[i]) * p[i];
    return;
  }
  const auto nt = static_cast<Index>(tets_.size());
  const int team = nt > kParallelTets ? solver_threads() : 1;
  parallel_for(nt, team, [&](Index t) {
    const auto ts = static_cast<std::size_t>(t);
    const Tet& tet = tets_[ts];
    const double c = material_[ts].density * shape_.volume[ts] / 20.0;
    Vec3 sum = Vec3::Zero();
    for (int a = 0; a < 4; ++a) sum += p[static_cast<std::size_t>(tet[a])];
    for (int a = 0; a < 4; ++a) set_slot(slots_, ts, a, c * (p[static_cast<std::size_t>(tet[a])] + sum));
  });
  gather(scale, y);
}

void FemForceModel::add_stiffness_product(std::span<const Vec3> x, std::span<const Vec3> p, double scale,
                                          std::span<Vec3> y) const {
  update_cache(x, true);
  tet_stiffness_products(p);
  gather(-scale, y);  // slots hold -K p
}

void FemForceModel::node_rotations(std::span<const Vec3> x, std::span<Mat3> out) const {
  if (!any_corotational_) {
    for (Mat3& R : out) R.setIdentity();
    return;
  }
  update_cache(x, false);
  for (std::size_t i = 0; i < out.size(); ++i) {
    const Index t = node_tet_[i];
    out[i] = t < 0 ? Mat3::Identity()
                   : Mat3(gradients_at(rotated_, static_cast<std::size_t>(t)) * node_dm_[i].transpose());
  }
}

void FemForceModel::add_damping_product(std::span<const Vec3> x, std::span<const Vec3> p, double scale,
                                        std::span<Vec3> y) const {
  if (def_.rayleigh_beta == 0.0) return;
  add_stiffness_product(x, p, scale * def_.rayleigh_beta, y);
}

void FemForceModel::add_jacobi_diagonal(std::span<const Vec3>, double beta_k, double beta_d,
                                        std::span<double> diagonal) const {
  const double w = beta_k + beta_d * def_.rayleigh_beta;
  for (std::size_t i = 0; i < rest_diagonal_.size(); ++i) diagonal[i] += w * rest_diagonal_[i];
}

double FemForceModel::elastic_energy(std::span<const Vec3> x) const {
  double energy = 0.0;
  for (std::size_t t = 0; t < tets_.size(); ++t) {
    const Mat3& dminv = shape_.dm_inverse[t];
    const Mat3 F = field_gradient(x, tets_[t], dminv);
    const materials::Material& mat = material_[t];
    const double V = shape_.volume[t];
    const ElementKind kind = kind_[t];
    switch (kind) {
      case ElementKind::linear:
      case ElementKind::corotational: {
        const Mat3 R = kind == ElementKind::linear ? Mat3::Identity() : extract_rotation(F);
        const Mat3 strain = sym(R.transpose() * F) - Mat3::Identity();
        energy += 0.5 * V * (linear_stress(strain, mat.lambda, mat.mu).cwiseProduct(strain)).sum();
        break;
      }
      case ElementKind::stvk:
      case ElementKind::stable_neo_hookean:
        energy += V * energy_density(hyperelastic_of(kind), F, mat);
        break;
    }
  }
  return energy;
}

double FemForceModel::kinetic_energy(std::span<const Vec3> v) const {
  double energy = 0.0;
  if (def_.mass == MassKind::consistent) {
    // ½ Σ_t ρV/20 (Σ_a |v_a|² + |Σ_a v_a|²)
    for (std::size_t t = 0; t < tets_.size(); ++t) {
      Vec3 sum = Vec3::Zero();
      double squares = 0.0;
      for (Index a : tets_[t]) {
        sum += v[static_cast<std::size_t>(a)];
        squares += v[static_cast<std::size_t>(a)].squaredNorm();
      }
      energy += 0.5 * tet_mass(static_cast<Index>(t)) / 20.0 * (squares + sum.squaredNorm());
    }
    return energy;
  }
  for (std::size_t i = 0; i < mass_.size(); ++i) energy += 0.5 * mass_[i] * v[i].squaredNorm();
  return energy;
}

Mat12 FemForceModel::element_stiffness(std::span<const Vec3> x, Index t) const {
  const auto ts = static_cast<std::size_t>(t);
  const Mat3& dminv = shape_.dm_inverse[ts];
  const materials::Material& mat = material_[ts];
  const double V = shape_.volume[ts];
  const ElementKind kind = kind_[ts];
  if (is_hyperelastic(kind)) {
    const Mat3 F = field_gradient(x, tets_[ts], dminv);
    const Mat9 A = first_piola_derivative(hyperelastic_of(kind), F, mat, Definiteness::projected);
    const Mat9x12 J = deformation_gradient_jacobian(dminv);
    return V * J.transpose() * A * J;
  }
  const Mat3 R =
      kind == ElementKind::linear ? Mat3::Identity() : extract_rotation(field_gradient(x, tets_[ts], dminv));
  const Eigen::Matrix<double, 3, 4> g = shape_gradients(dminv);
  return warped_stiffness(g, R * g, mat, V);
}

void FemForceModel::element_stiffnesses(std::span<const Vec3> x, std::span<Mat12> out) const {
  update_cache(x, true);
  const auto nt = static_cast<Index>(tets_.size());
  const int team = nt > kParallelTets ? solver_threads() : 1;
  parallel_for(nt, team, [&](Index t) {
    const auto ts = static_cast<std::size_t>(t);
    const Mat3& dminv = shape_.dm_inverse[ts];
    const double V = shape_.volume[ts];
    const ElementKind kind = kind_[ts];
    if (is_hyperelastic(kind)) {
      const Mat9x12 J = deformation_gradient_jacobian(dminv);
      out[ts] = V * J.transpose() * dpdf_[ts] * J;
    } else {
      const Eigen::Matrix<double, 3, 4> g = shape_gradients(dminv);
      Eigen::Matrix<double, 3, 4> h = g;
      if (kind == ElementKind::corotational) {
        h.rightCols<3>() = gradients_at(rotated_, ts);
        h.col(0) = -(h.col(1) + h.col(2) + h.col(3));
      }
      out[ts] = warped_stiffness(g, h, material_[ts], V);
    }
  });
}

}  // namespace pliant::fem
