// SurfaceBlock: read access to the surface Green's block G = (K⁻¹)_S, however it is stored.
//
// The runtime (grabs, soft grabs, forces, pressure, control elements, reactions, local compliance,
// rotation correction, the haptic loop) reads G only through these calls, so a dense packed block
// and a compressed hierarchical one (Hackbusch 1999; the inverse of an FE stiffness is compressible,
// Bebendorf 2005) serve the same GreenBody code.
#pragma once

#include "pliant/core/types.hpp"
#include "pliant/linalg/hmatrix.hpp"

#include <cstddef>
#include <memory>

namespace pliant::green {

class SurfaceBlock {
 public:
  virtual ~SurfaceBlock() = default;
  /// Surface nodes Ns (G is 3·Ns × 3·Ns).
  virtual Index node_count() const = 0;
  /// The 3×3 block G(i, j) of surface nodes i, j (unit: m/N).
  virtual Mat3 node_block(Index i, Index j) const = 0;
  /// u += G(:, j) · v over all 3·Ns surface displacements (v unit: N, u unit: m).
  virtual void add_column(Index j, const Vec3& v, double* u) const = 0;
  /// out (3·Ns × 3, column-major) = G(:, j) (unit: m/N).
  virtual void node_columns(Index j, double* out) const = 0;
  /// Bytes the storage holds for G.
  virtual std::size_t stored_bytes() const = 0;
  /// The hierarchical matrix, or null for the dense packed store.
  virtual const linalg::HMatrix* hierarchical() const { return nullptr; }
};

/// The dense store: the packed lower triangle of 3×3 node blocks in float, block (i, j), i ≥ j, at
/// float offset 9·(i(i+1)/2 + j), row-major. `values` must outlive the object.
class PackedSurfaceBlock final : public SurfaceBlock {
 public:
  PackedSurfaceBlock(const float* values, Index nodes) : values_(values), ns_(nodes) {}
  Index node_count() const override { return ns_; }
  Mat3 node_block(Index i, Index j) const override;
  void add_column(Index j, const Vec3& v, double* u) const override;
  void node_columns(Index j, double* out) const override;
  std::size_t stored_bytes() const override;
  const float* values() const { return values_; }

 private:
  const float* values_;
  Index ns_;
};

/// The compressed store: a symmetric hierarchical matrix over the surface nodes, 3 unknowns each.
class CompressedSurfaceBlock final : public SurfaceBlock {
 public:
  explicit CompressedSurfaceBlock(linalg::HMatrix h) : h_(std::move(h)) {}
  Index node_count() const override { return h_.tree().point_count(); }
  Mat3 node_block(Index i, Index j) const override;
  void add_column(Index j, const Vec3& v, double* u) const override;
  void node_columns(Index j, double* out) const override;
  std::size_t stored_bytes() const override { return h_.stored_bytes(); }
  const linalg::HMatrix* hierarchical() const override { return &h_; }

 private:
  linalg::HMatrix h_;
};

}  // namespace pliant::green
