// A modally reduced FEM body behind the surface contract: the fem family's "modal" setting.
//
// Linear elasticity about the rest shape, reduced to its lowest r vibration modes (Pentland &
// Williams 1989; Hauser, Shen & O'Brien 2003; reviewed by Huang & Wang 2007), optionally
// reconstructed with modal warping (Choi & Ko 2005) so that rotations do not inflate the body.
#pragma once

#include "pliant/core/result.hpp"
#include "pliant/core/tet_mesh.hpp"
#include "pliant/materials/material.hpp"
#include "pliant/models/fem/fem_force_model.hpp"
#include "pliant/scene/body.hpp"

#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace pliant::scene {

/// How a modal FEM scene body is reduced (C++20 aggregate).
struct FemModalDef {
  Index modes = 20;      ///< r, the lowest modes kept (a free body's six rigid modes count among them)
  bool warping = false;  ///< reconstruct with modal warping (Choi & Ko 2005)
  /// Shift σ of the shift-invert eigen-solve (unit: rad²/s²); NaN: modal_analysis.hpp's default.
  double shift = std::numeric_limits<double>::quiet_NaN();
};

/// Grab spring stiffness factor κ: k = κ ω_r² m_P (modal scene body, see make_fem_modal_scene_body).
inline constexpr double kModalGrabStiffnessFactor = 100.0;

/// A scene body named `name`: the tet mesh `rest` (unit: m) with one material or one per tet, the mass
/// (def.mass), Rayleigh damping, gravity and fixed nodes of `def` (its element is ignored: the modes are
/// those of linear elasticity about the rest shape and M), reduced to the lowest `modal.modes` modes computed
/// here, and stepped by the exact damped modal step of a world step `dt` (unit: s, > 0; another dt at
/// step time rebuilds the step coefficients once). Forces: gravity is projected once on the modes at
/// rest (Φᵀ M g, not rotated by warping); apply_force projects the force of the next step on the modes
/// (Φᵀ f, rotated into the node's frame with warping); def.surface_loads (pressure, traction) are
/// projected so each step, the pressure on the current reconstructed triangles. Only the surface nodes are
/// reconstructed per step. A modal body has no kinematic nodes, so a grab is a stiff spring from each patch
/// node's linear position to its target, of stiffness k = κ ω_r² m_P (κ = kModalGrabStiffnessFactor, ω_r the
/// highest kept angular frequency (at least 1/dt), m_P = 3P / tr(Φ_Pᵀ Φ_P) the patch's mass as the P patch
/// nodes' rows Φ_P of the basis see it): the spring is ten times faster than any kept mode, so the patch
/// follows its target to about 1 % of the pull. While a grab is held the spring couples the modes and the
/// body steps by backward Euler on the r modal equations (one r×r Cholesky per step, unconditionally stable);
/// the reaction is the spring force on the tool, k Σ (xᵢ - tᵢ). Fields: "displacement" (m), "speed" (m/s, of
/// the linear reconstruction). Stages: "fem.modal_step", "fem.reconstruct" (unit: ms). It offers
/// InteriorOutput: the full reconstruction, computed only when asked. Steps never throw and allocate nothing
/// after the first. Fails with one line on a bad mesh, material, damping, dt or mode count, or an eigen-solve
/// that does not converge.
Result<std::unique_ptr<Body>> make_fem_modal_scene_body(std::string name, const TetMesh& rest,
                                                        std::vector<materials::Material> materials,
                                                        fem::FemBodyDef def, FemModalDef modal, double dt);

}  // namespace pliant::scene
