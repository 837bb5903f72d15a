// Mode shapes for ParaView: one VTU with a point field per mode, or a PVD series animating one mode.
// Writing files is the scene layer's job: fem exposes the basis (fem::ModalBasis), this writes it.
#pragma once

#include "pliant/core/result.hpp"
#include "pliant/core/tet_mesh.hpp"
#include "pliant/core/types.hpp"
#include "pliant/models/fem/modal/modal_analysis.hpp"

#include <filesystem>

namespace pliant::scene {

/// Writes `mesh` with one 3-component point field per mode of `basis`, named "mode_NN_F.FFHz"
/// (NN from 01, F its frequency in Hz). Each shape is scaled so that its largest nodal displacement is
/// `max_displacement` (unit: m, > 0), for ParaView's "Warp By Vector" at scale 1; 0 keeps the M-orthonormal
/// shapes (unit: kg^-1/2). Fails with one line on a basis of another mesh or the writer's error.
Status write_mode_shapes_vtu(const std::filesystem::path& path, const TetMesh& mesh,
                             const fem::ModalBasis& basis, double max_displacement = 0.0);

/// Writes an animation of mode `mode` (0-based) over one period: `frames` VTU files named
/// "<pvd stem>_NNNN.vtu" beside the .pvd, each the mesh displaced by sin(2π k/frames) times the shape
/// scaled to `max_displacement` (unit: m, > 0), with the displacement as a point field, and the .pvd
/// listing them at their times (unit: s; one period of the mode's frequency, or 1 s for a rigid mode).
/// Fails with one line on a bad mode, frame count (< 2) or amplitude, or the writer's error.
Status write_mode_animation(const std::filesystem::path& pvd_path, const TetMesh& mesh,
                            const fem::ModalBasis& basis, Index mode, int frames, double max_displacement);

}  // namespace pliant::scene
