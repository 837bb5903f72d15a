// Global stiffness assembly: sparsity from edges once, then a deterministic parallel gather.
#include "pliant/models/fem/assembly/assembly.hpp"

#include "models/fem/assembly/block_pattern.hpp"
#include "pliant/core/geometry.hpp"
#include "pliant/core/threads.hpp"
#include "pliant/core/topology.hpp"
#include "pliant/models/fem/elements/linear_tet.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace pliant::fem {

Status check_fem_mesh(const TetMesh& mesh) {
  const auto n = static_cast<long long>(mesh.node_count());
  if (mesh.tets.empty()) return Error{"fem mesh: no tetrahedra"};
  if (n > (1LL << 29))
    return Error{"fem mesh: too many nodes for 32-bit DOF indices (" + std::to_string(n) + ")"};
  for (std::size_t i = 0; i < mesh.positions.size(); ++i)
    if (!mesh.positions[i].allFinite())
      return Error{"fem mesh: node " + std::to_string(i) + " has a non-finite position"};
  for (std::size_t t = 0; t < mesh.tets.size(); ++t) {
    const Tet& tet = mesh.tets[t];
    for (int k = 0; k < 4; ++k) {
      if (tet[k] < 0 || tet[k] >= n)
        return Error{"fem mesh: tet " + std::to_string(t) + " references node " + std::to_string(tet[k]) +
                     ", but there are " + std::to_string(n) + " nodes"};
      for (int l = 0; l < k; ++l)
        if (tet[k] == tet[l])
          return Error{"fem mesh: tet " + std::to_string(t) + " repeats node " + std::to_string(tet[k])};
    }
    const Vec3 &a = mesh.positions[tet[0]], &b = mesh.positions[tet[1]], &c = mesh.positions[tet[2]],
               &d = mesh.positions[tet[3]];
    const double v = signed_volume(a, b, c, d);
    const Vec3 lo = a.cwiseMin(b).cwiseMin(c).cwiseMin(d), hi = a.cwiseMax(b).cwiseMax(c).cwiseMax(d);
    const double h = (hi - lo).maxCoeff();
    if (!(v > 1e-12 * h * h * h))
      return Error{"fem mesh: tet " + std::to_string(t) + (v < 0 ? " is inverted" : " is degenerate") +
                   " (volume " + std::to_string(v) + " m³); orient tets positively and remove slivers"};
  }
  return {};
}

Result<StiffnessAssembler> StiffnessAssembler::build(const TetMesh& mesh) {
  if (auto s = check_fem_mesh(mesh); !s) return s.error();
  StiffnessAssembler A;
  const auto n = static_cast<Index>(mesh.node_count());
  A.node_count_ = n;
  A.edges_ = unique_edges(mesh.tets);

  // Block pattern: node a's column block holds rows of a itself and of its edge neighbours, sorted.
  detail::BlockPattern pattern = detail::BlockPattern::build(n, A.edges_);
  A.block_offsets_ = std::move(pattern.offsets);
  A.block_nodes_ = std::move(pattern.nodes);

  // Node -> incident tets, in tet order (fixes the summation order, hence determinism).
  const auto tet_count = static_cast<Index>(mesh.tet_count());
  A.incident_offsets_.assign(n + 1, 0);
  for (const Tet& t : mesh.tets)
    for (Index v : t) ++A.incident_offsets_[v + 1];
  for (Index a = 0; a < n; ++a) A.incident_offsets_[a + 1] += A.incident_offsets_[a];
  const Index incidences = A.incident_offsets_[n];
  A.incident_tets_.resize(incidences);
  A.incident_local_.resize(incidences);
  A.incident_slots_.resize(4 * static_cast<std::size_t>(incidences));
  std::vector<Index> fill(A.incident_offsets_.begin(), A.incident_offsets_.end() - 1);
  for (Index t = 0; t < tet_count; ++t)
    for (int k = 0; k < 4; ++k) {
      const Index a = mesh.tets[t][k];
      const Index i = fill[a]++;
      A.incident_tets_[i] = t;
      A.incident_local_[i] = static_cast<std::int8_t>(k);
      for (int l = 0; l < 4; ++l)
        A.incident_slots_[4 * static_cast<std::size_t>(i) + l] =
            detail::BlockPattern::slot(A.block_offsets_, A.block_nodes_, a, mesh.tets[t][l]);
    }
  return A;
}

void StiffnessAssembler::assemble(const TetMesh& mesh, const materials::Material& material,
                                  SparseMatrix& K) const {
  if (static_cast<Index>(mesh.node_count()) != node_count_) {
    K.resize(0, 0);
    return;
  }
  assemble_impl(mesh, &material, false, K);
}

void StiffnessAssembler::assemble(const TetMesh& mesh, std::span<const materials::Material> per_tet,
                                  SparseMatrix& K) const {
  if (per_tet.size() != mesh.tet_count() || static_cast<Index>(mesh.node_count()) != node_count_) {
    K.resize(0, 0);  // wrong input: an empty matrix that any solver rejects, not a read out of bounds
    return;
  }
  assemble_impl(mesh, per_tet.data(), true, K);
}

void StiffnessAssembler::assemble_impl(const TetMesh& mesh, const materials::Material* materials,
                                       bool per_tet, SparseMatrix& K) const {
  const Index n = node_count_;
  // Column 3a + c holds 3·deg(a) entries: rows 3b + r for each neighbour slot of a, r = 0..2. The indices
  // are always rewritten (cheap next to the values) so that a matrix last filled by another assembler with
  // equal sizes still gets the right pattern.
  detail::BlockPattern::write(block_offsets_, block_nodes_, K);
  double* values = K.valuePtr();
  const int team = n > 4096 ? solver_threads() : 1;

#pragma omp parallel for schedule(dynamic, 256) if (n > 4096) num_threads(team)
  for (Index a = 0; a < n; ++a) {
    const Index deg = block_offsets_[a + 1] - block_offsets_[a];
    double* col = values + 9 * static_cast<std::size_t>(block_offsets_[a]);
    std::fill(col, col + 9 * deg, 0.0);
    for (Index i = incident_offsets_[a]; i < incident_offsets_[a + 1]; ++i) {
      const Index t = incident_tets_[i];
      const Tet& tet = mesh.tets[t];
      const TetGradients g = tet_gradients(mesh.positions[tet[0]], mesh.positions[tet[1]],
                                           mesh.positions[tet[2]], mesh.positions[tet[3]]);
      const materials::Material& m = per_tet ? materials[t] : materials[0];
      const int la = incident_local_[i];
      for (int lb = 0; lb < 4; ++lb) {
        const Mat3 block = tet_stiffness_block(g, m, lb, la);  // rows of node b, columns of node a
        const Index s = incident_slots_[4 * static_cast<std::size_t>(i) + lb];
        for (int c = 0; c < 3; ++c)
          for (int r = 0; r < 3; ++r) col[3 * deg * c + 3 * s + r] += block(r, c);
      }
    }
  }
}

SparseMatrix assemble_stiffness(const TetMesh& mesh, const materials::Material& material) {
  auto assembler = StiffnessAssembler::build(mesh);
  SparseMatrix K;
  if (assembler) assembler->assemble(mesh, material, K);
  return K;
}

SparseMatrix assemble_stiffness(const TetMesh& mesh, std::span<const materials::Material> per_tet) {
  auto assembler = StiffnessAssembler::build(mesh);
  SparseMatrix K;
  if (assembler && per_tet.size() == mesh.tet_count()) assembler->assemble(mesh, per_tet, K);
  return K;
}

Eigen::VectorXd nodal_forces(const SparseMatrix& K, const Eigen::VectorXd& displacement) {
  return K * displacement;
}

}  // namespace pliant::fem
