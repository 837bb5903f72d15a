// The nine interaction methods of Grimm's (2005) convergence comparison (Table 2.1) behind one stepper,
// so scenes, tests and benchmarks drive them alike:
//   mass_spring                    explicit Euler mass-spring
//   interaction_ordered            Brown et al. 2001 node-by-node integration in BFS order
//   provot                         Provot 1995 length correction alone (one pass per step)
//   wagner                         Wagner 2003 sorted length correction alone
//   enhanced_chainmail             Schill 1998 Enhanced ChainMail
//   dragnet                        Grimm 2004 Dragnet alone
//   lr_mass_spring                 Mosegaard 2004: interaction-ordered integration + Provot correction
//   length_correction_mass_spring  explicit Euler mass-spring + Provot correction
//   dragnet_mass_spring            explicit Euler mass-spring + Dragnet
// The interaction nodes are moved by the caller and must be fixed (inv_mass 0) for the dynamic
// methods. In the combined methods (lr_mass_spring, length_correction_mass_spring,
// dragnet_mass_spring) the correction is by default purely a displacement: it moves positions and
// leaves velocities alone, so it "takes energy out of the mass-spring system" (Grimm 2005 on Provot's
// correction combined with a mass-spring simulation; Dragnet is described as plastic). The other
// coupling, where a correction Δ also changes the velocity by Δ/h, keeps the momentum the correction
// implies and settles much more slowly (see `pliant bench membrane_coupling`).
#pragma once

#include "pliant/models/springs/chainmail.hpp"
#include "pliant/models/springs/dragnet.hpp"
#include "pliant/models/springs/forces.hpp"
#include "pliant/models/springs/integrator.hpp"
#include "pliant/models/springs/length_correction.hpp"
#include "pliant/models/springs/spring_mesh.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace pliant::springs {

enum class Method {
  mass_spring,
  interaction_ordered,
  provot,
  wagner,
  enhanced_chainmail,
  dragnet,
  lr_mass_spring,
  length_correction_mass_spring,
  dragnet_mass_spring,
};

/// All nine, in Table 2.1's order.
inline constexpr std::array<Method, 9> all_methods{Method::mass_spring,
                                                   Method::interaction_ordered,
                                                   Method::provot,
                                                   Method::wagner,
                                                   Method::enhanced_chainmail,
                                                   Method::dragnet,
                                                   Method::lr_mass_spring,
                                                   Method::length_correction_mass_spring,
                                                   Method::dragnet_mass_spring};

/// Stable identifier used in JSON and on the command line ("dragnet_mass_spring", ...).
std::string_view method_name(Method method);
std::optional<Method> method_from_name(std::string_view name);
/// True for methods that integrate dynamics (use dt, stiffness, damping, masses).
bool method_is_dynamic(Method method);
/// True for methods that integrate node by node in breadth-first order from the interaction nodes
/// (interaction_ordered, lr_mass_spring): only they need that order rebuilt when the interaction or
/// the topology changes.
bool method_uses_interaction_order(Method method);

/// How a combined method's position correction (Provot, Dragnet) enters the dynamics.
enum class CorrectionCoupling : std::uint8_t {
  positions,   ///< positions only: the correction is plastic and removes energy (Grimm 2005)
  velocities,  ///< the displacement Δ also changes the velocity by Δ/h (the correction keeps momentum)
};

/// Where the correction sits in a combined method's step.
enum class CorrectionOrder : std::uint8_t {
  after_integration,   ///< integrate, then correct what the step over-stretched
  before_integration,  ///< correct from the moved interaction nodes first, then integrate
};

/// Plain settings of a method.
struct MethodDef {
  Method method = Method::dragnet;
  double dt = 1e-3;             ///< time step of the dynamic methods (unit: s)
  double mass_damping = 0.0;    ///< added to the loads' mass-proportional damping (unit: 1/s)
  double provot_factor = 1.0;   ///< Provot correction factor (dimensionless); unstable near 2.1
  double dragnet_factor = 1.0;  ///< Dragnet damping factor f in ]0, 1] (dimensionless)
  CorrectionCoupling coupling = CorrectionCoupling::positions;  ///< combined methods only
  CorrectionOrder order = CorrectionOrder::after_integration;   ///< combined methods only
  ChainMailDef chainmail = {};
  /// Integrator of mass_spring, length_correction_mass_spring and dragnet_mass_spring: explicit
  /// Euler as in Grimm's (2005) comparison; the tearing scenes use symplectic Euler. The
  /// interaction-ordered methods always integrate node by node (symplectic Euler per node).
  Scheme scheme = Scheme::explicit_euler;
};

/// Steps a SpringMesh with one of the nine methods. Allocates only while its buffers grow (the
/// interaction nodes, the breadth-first order, the mesh's node count after tearing).
class MethodStepper {
 public:
  explicit MethodStepper(const MethodDef& def);
  const MethodDef& def() const { return def_; }

  /// Declares the interaction nodes (moved by the caller); indices outside the mesh are dropped.
  /// Methods that use the interaction order (method_uses_interaction_order) rebuild it here, into
  /// the buffer of the last one.
  void set_interaction(const SpringMesh& mesh, std::span<const Index> nodes);
  /// After a topology change that renumbered nodes (DeletionTearing::node_map(): old -> new index,
  /// -1 removed), moves the interaction nodes to their new indices and drops removed ones. Tearing
  /// that only appends nodes (area-preserving) keeps indices: step() then rebuilds the order itself.
  void remap_interaction(const SpringMesh& mesh, std::span<const Index> node_map);
  /// The interaction nodes the next step uses.
  std::span<const Index> interaction() const { return interaction_; }
  /// One step. When the mesh's topology_version or node count changed since the interaction was
  /// set, interaction nodes that no longer exist (a caller that renumbered nodes without
  /// remap_interaction) are dropped instead of being read out of bounds, and the breadth-first order
  /// is rebuilt for the methods that use it.
  void step(SpringMesh& mesh, const Loads& loads = {});

 private:
  void correct(SpringMesh& mesh);
  void drop_missing_interaction(const SpringMesh& mesh);
  void refresh_for(const SpringMesh& mesh);

  MethodDef def_;
  Integrator integrator_;
  Dragnet dragnet_;
  ChainMail chainmail_;
  SortedLengthCorrection wagner_;
  std::vector<Index> interaction_, order_;
  std::vector<char> seen_;  // breadth-first scratch
  std::vector<Vec3> before_;
  // The mesh the interaction nodes and order were set for: its topology_version and node count.
  std::uint64_t topology_version_ = 0;
  std::size_t node_count_ = 0;
};

}  // namespace pliant::springs
