#include "pliant/scene/modal_output.hpp"

#include "pliant/io/pvd.hpp"
#include "pliant/io/vtu.hpp"

#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>
#include <vector>

namespace pliant::scene {

using fem::ModalBasis;

namespace {

Status check_basis(const TetMesh& mesh, const ModalBasis& basis) {
  if (basis.shapes.rows() != 3 * static_cast<Eigen::Index>(mesh.node_count()) ||
      basis.shapes.cols() != basis.eigenvalues.size())
    return Error{"mode shapes: basis has " + std::to_string(basis.shapes.rows()) + " rows for " +
                 std::to_string(mesh.node_count()) + " nodes"};
  return {};
}

// Factor bringing the largest nodal displacement of mode j to `target` (1 when target is 0).
double display_scale(const ModalBasis& basis, Eigen::Index j, double target) {
  if (target == 0.0) return 1.0;
  double largest = 0.0;
  for (Eigen::Index i = 0; i + 2 < basis.shapes.rows(); i += 3)
    largest = std::max(largest, basis.shapes.col(j).segment<3>(i).norm());
  return largest > 0.0 ? target / largest : 1.0;
}

}  // namespace

Status write_mode_shapes_vtu(const std::filesystem::path& path, const TetMesh& mesh, const ModalBasis& basis,
                             double max_displacement) {
  if (auto ok = check_basis(mesh, basis); !ok) return ok;
  if (!(max_displacement >= 0.0) || !std::isfinite(max_displacement))
    return Error{"mode shapes: max_displacement must be finite and ≥ 0 (unit: m)"};
  const Eigen::VectorXd hz = basis.frequencies_hz();
  std::vector<io::Field> fields;
  for (Eigen::Index j = 0; j < basis.shapes.cols(); ++j) {
    char name[64];
    std::snprintf(name, sizeof name, "mode_%02d_%.4gHz", static_cast<int>(j + 1), hz[j]);
    const double s = display_scale(basis, j, max_displacement);
    io::Field f{name, 3, std::vector<double>(static_cast<std::size_t>(basis.shapes.rows()))};
    for (Eigen::Index i = 0; i < basis.shapes.rows(); ++i)
      f.values[static_cast<std::size_t>(i)] = s * basis.shapes(i, j);
    fields.push_back(std::move(f));
  }
  return io::write_vtu(path, mesh, fields);
}

Status write_mode_animation(const std::filesystem::path& pvd_path, const TetMesh& mesh,
                            const ModalBasis& basis, Index mode, int frames, double max_displacement) {
  if (auto ok = check_basis(mesh, basis); !ok) return ok;
  if (mode < 0 || mode >= basis.mode_count())
    return Error{"mode animation: mode " + std::to_string(mode) + " out of range (" +
                 std::to_string(basis.mode_count()) + " modes)"};
  if (frames < 2) return Error{"mode animation: need at least 2 frames, got " + std::to_string(frames)};
  if (!(max_displacement > 0.0) || !std::isfinite(max_displacement))
    return Error{"mode animation: max_displacement must be positive and finite (unit: m)"};
  const double hz = basis.frequencies_hz()[mode];
  const double period = hz > 0.0 ? 1.0 / hz : 1.0;
  const double s = display_scale(basis, mode, max_displacement);
  const std::string stem = pvd_path.stem().string();
  std::vector<io::PvdEntry> entries;
  TetMesh frame = mesh;
  for (int k = 0; k < frames; ++k) {
    const double a = s * std::sin(2.0 * std::numbers::pi * k / frames);
    io::Field u{"displacement", 3, std::vector<double>(3 * mesh.node_count())};
    for (std::size_t i = 0; i < mesh.node_count(); ++i) {
      const Vec3 d = a * basis.shapes.col(mode).segment<3>(3 * static_cast<Eigen::Index>(i));
      frame.positions[i] = mesh.positions[i] + d;
      for (int c = 0; c < 3; ++c) u.values[3 * i + static_cast<std::size_t>(c)] = d[c];
    }
    char file[32];
    std::snprintf(file, sizeof file, "_%04d.vtu", k);
    const std::string name = stem + file;
    if (auto ok = io::write_vtu(pvd_path.parent_path() / name, frame, {u}); !ok) return ok;
    entries.push_back({period * k / frames, name});
  }
  return io::write_pvd(pvd_path, entries);
}

}  // namespace pliant::scene
