// VTU output of phyxels as a point cloud (ParaView: glyphs or points) beside the driven surface. The
// meshless family computes the fields (meshless::phyxel_fields); writing the file is the scene layer's.
#pragma once

#include "pliant/core/result.hpp"
#include "pliant/core/types.hpp"
#include "pliant/models/meshless/mls_body.hpp"

#include <filesystem>
#include <span>

namespace pliant::scene {

/// Writes the phyxels at positions x (unit: m) to a .vtu point cloud with the point fields
/// "displacement" (m, 3 components), "strain" (Frobenius norm of the body's strain measure, minus
/// any plastic strain; dimensionless), "stress" (Frobenius norm of the Cauchy stress, Pa),
/// "volume_change" (det J - 1) and "volume" (v_i, m³). Fails with the writer's one-line message.
Status write_phyxels_vtu(const std::filesystem::path& path, const meshless::MlsBody& body,
                         std::span<const Vec3> x);

}  // namespace pliant::scene
