// The nine Table 2.1 methods behind MethodStepper (see the header for the papers).
#include "pliant/models/springs/methods.hpp"

#include "pliant/models/springs/interaction_ordered.hpp"

#include <vector>

namespace pliant::springs {

std::string_view method_name(Method method) {
  switch (method) {
    case Method::mass_spring:
      return "mass_spring";
    case Method::interaction_ordered:
      return "interaction_ordered";
    case Method::provot:
      return "provot";
    case Method::wagner:
      return "wagner";
    case Method::enhanced_chainmail:
      return "enhanced_chainmail";
    case Method::dragnet:
      return "dragnet";
    case Method::lr_mass_spring:
      return "lr_mass_spring";
    case Method::length_correction_mass_spring:
      return "length_correction_mass_spring";
    case Method::dragnet_mass_spring:
      return "dragnet_mass_spring";
  }
  return "unknown";
}

std::optional<Method> method_from_name(std::string_view name) {
  for (Method m : all_methods)
    if (method_name(m) == name) return m;
  return std::nullopt;
}

bool method_is_dynamic(Method method) {
  switch (method) {
    case Method::mass_spring:
    case Method::interaction_ordered:
    case Method::lr_mass_spring:
    case Method::length_correction_mass_spring:
    case Method::dragnet_mass_spring:
      return true;
    default:
      return false;
  }
}

MethodStepper::MethodStepper(const MethodDef& def)
    : def_(def),
      integrator_(IntegratorDef{.scheme = def.scheme, .dt = def.dt}),
      dragnet_(DragnetDef{.factor = def.dragnet_factor}),
      chainmail_(def.chainmail) {}

bool method_uses_interaction_order(Method method) {
  return method == Method::interaction_ordered || method == Method::lr_mass_spring;
}

void MethodStepper::set_interaction(const SpringMesh& mesh, std::span<const Index> nodes) {
  if (nodes.data() != interaction_.data()) interaction_.assign(nodes.begin(), nodes.end());
  drop_missing_interaction(mesh);
  refresh_for(mesh);
}

void MethodStepper::remap_interaction(const SpringMesh& mesh, std::span<const Index> node_map) {
  std::size_t kept = 0;
  for (Index v : interaction_) {
    const Index w =
        v >= 0 && static_cast<std::size_t>(v) < node_map.size() ? node_map[static_cast<std::size_t>(v)] : -1;
    if (w >= 0) interaction_[kept++] = w;
  }
  interaction_.resize(kept);
  drop_missing_interaction(mesh);
  refresh_for(mesh);
}

void MethodStepper::drop_missing_interaction(const SpringMesh& mesh) {
  const Index n = mesh.node_count();
  std::erase_if(interaction_, [n](Index v) { return v < 0 || v >= n; });
}

void MethodStepper::refresh_for(const SpringMesh& mesh) {
  // Only the interaction-ordered methods read the breadth-first order; the others would pay a
  // traversal of the whole mesh for nothing after every tear.
  if (method_uses_interaction_order(def_.method))
    breadth_first_order(mesh, interaction_, order_, seen_);
  else
    order_.clear();
  before_.resize(mesh.position.size());  // scratch: written before it is read
  topology_version_ = mesh.topology_version;
  node_count_ = mesh.position.size();
}

void MethodStepper::correct(SpringMesh& mesh) {
  switch (def_.method) {
    case Method::provot:
    case Method::lr_mass_spring:
    case Method::length_correction_mass_spring:
      provot_pass(mesh, def_.provot_factor);
      return;
    case Method::wagner: {
      Vec3 centre = Vec3::Zero();
      for (Index v : interaction_) centre += mesh.position[static_cast<std::size_t>(v)];
      if (!interaction_.empty()) centre /= static_cast<double>(interaction_.size());
      wagner_.pass(mesh, centre);
      return;
    }
    case Method::enhanced_chainmail:
      chainmail_.pass(mesh, interaction_);
      return;
    case Method::dragnet:
    case Method::dragnet_mass_spring:
      dragnet_.pass(mesh, interaction_);
      return;
    default:
      return;
  }
}

void MethodStepper::step(SpringMesh& mesh, const Loads& user_loads) {
  Loads loads = user_loads;
  loads.mass_damping += def_.mass_damping;
  const std::size_t n = mesh.position.size();
  // Topology changed (tearing) since the interaction was set: refresh. Interaction nodes beyond the
  // mesh are dropped here, so a caller that forgot remap_interaction never makes a pass read past
  // the node arrays (the crash a deletion-torn grab used to cause inside Dragnet::pass).
  if (node_count_ != n || topology_version_ != mesh.topology_version) {
    drop_missing_interaction(mesh);
    refresh_for(mesh);
  }
  const Method m = def_.method;
  if (!method_is_dynamic(m)) {
    correct(mesh);
    return;
  }
  const bool combined = m != Method::mass_spring && m != Method::interaction_ordered;
  const auto integrate = [&] {
    if (m == Method::interaction_ordered || m == Method::lr_mass_spring)
      interaction_ordered_step(mesh, order_, def_.dt, loads);
    else
      integrator_.step(mesh, loads);
  };
  const auto correct_coupled = [&] {
    if (def_.coupling == CorrectionCoupling::positions) {
      correct(mesh);  // plastic: positions only, the velocities keep what the forces gave them
      return;
    }
    for (std::size_t i = 0; i < n; ++i) before_[i] = mesh.position[i];
    correct(mesh);
    const double inv_dt = 1.0 / def_.dt;
    for (std::size_t i = 0; i < n; ++i)
      if (mesh.inv_mass[i] != 0.0) mesh.velocity[i] += inv_dt * (mesh.position[i] - before_[i]);
  };
  if (combined && def_.order == CorrectionOrder::before_integration) correct_coupled();
  integrate();
  if (combined && def_.order == CorrectionOrder::after_integration) correct_coupled();
}

}  // namespace pliant::springs
