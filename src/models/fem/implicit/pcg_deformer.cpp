// Per-frame warm-started PCG baseline (Nikitina et al.'s (2003) comparison); see pcg_deformer.hpp.
#include "pliant/models/fem/implicit/pcg_deformer.hpp"

namespace pliant::fem {

PcgDeformer::PcgDeformer(fem::DofMap dofs, linalg::PcgSolver solver, Index nodes)
    : dofs_(std::move(dofs)), solver_(std::move(solver)) {
  f_.setZero(3 * nodes);
  u_.setZero(3 * nodes);
  rhs_.setZero(dofs_.free_size());
  x_.setZero(dofs_.free_size());
}

Result<PcgDeformer> PcgDeformer::build(const TetMesh& mesh, const materials::Material& material,
                                       std::span<const Index> fixed_nodes,
                                       const linalg::PcgSettings& settings) {
  if (Status s = materials::validate(material); !s) return Error{"green: " + s.message()};
  auto assembler = fem::StiffnessAssembler::build(mesh);
  if (!assembler) return Error{"green: " + assembler.message()};
  auto dofs = fem::DofMap::from_fixed_nodes(mesh, fixed_nodes);
  if (!dofs) return Error{"green: " + dofs.message()};
  fem::SparseMatrix K;
  assembler->assemble(mesh, material, K);
  auto solver = linalg::PcgSolver::build(dofs->restrict_matrix(K), settings);
  if (!solver) return Error{"green: " + solver.message()};
  return PcgDeformer(std::move(dofs).value(), std::move(solver).value(),
                     static_cast<Index>(mesh.node_count()));
}

const linalg::PcgReport& PcgDeformer::solve_frame(bool warm_start) {
  const auto& free = dofs_.free_dofs();
  for (std::size_t r = 0; r < free.size(); ++r) rhs_[static_cast<Eigen::Index>(r)] = f_[free[r]];
  if (!warm_start) x_.setZero();
  solver_.solve(rhs_, x_, report_);
  for (std::size_t r = 0; r < free.size(); ++r) u_[free[r]] = x_[static_cast<Eigen::Index>(r)];
  return report_;
}

}  // namespace pliant::fem
