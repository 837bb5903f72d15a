// Shift-invert Lanczos for K φ = λ M φ (Spectra's SymGEigsShiftSolver) on a sparse Cholesky factor of
// K - σM. Spectra is slow to compile: it is included here only.
#include "pliant/models/fem/modal/modal_analysis.hpp"

#include "pliant/models/fem/assembly/mass.hpp"

#include <Spectra/MatOp/SparseSymMatProd.h>
#include <Spectra/SymGEigsShiftSolver.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace pliant::fem {

// The generic solvers of the linear-algebra layer.
using linalg::CholeskyBackend;
using linalg::SparseCholesky;
namespace {

// y = (K - σM)⁻¹ x, the OpType Spectra's shift-invert mode asks for. Spectra reports failures by
// exceptions; they are caught in modal_analysis and turned into a Result.
class ShiftInvertOperator {
 public:
  using Scalar = double;

  ShiftInvertOperator(const SparseMatrix& K, const SparseMatrix& M, CholeskyBackend backend)
      : K_(K), M_(M), backend_(backend), buffer_(K.rows()) {}

  Eigen::Index rows() const { return K_.rows(); }
  Eigen::Index cols() const { return K_.rows(); }

  void set_shift(double sigma) {
    const SparseMatrix shifted = K_ - sigma * M_;
    auto factor = SparseCholesky::factor(shifted, backend_);
    if (!factor) throw std::runtime_error(factor.message());
    factor_.emplace(std::move(factor.value()));
  }

  void perform_op(const double* x_in, double* y_out) const {
    buffer_ = Eigen::Map<const Eigen::VectorXd>(x_in, rows());
    Eigen::Map<Eigen::VectorXd>(y_out, rows()) = factor_->solve(buffer_);
  }

 private:
  const SparseMatrix& K_;
  const SparseMatrix& M_;
  CholeskyBackend backend_;
  std::optional<SparseCholesky> factor_;
  mutable Eigen::VectorXd buffer_;
};

std::string str(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

}  // namespace

Eigen::VectorXd ModalBasis::angular_frequencies() const { return eigenvalues.cwiseMax(0.0).cwiseSqrt(); }

Eigen::VectorXd ModalBasis::frequencies_hz() const {
  return angular_frequencies() / (2.0 * std::numbers::pi);
}

Result<ModalBasis> modal_analysis(const SparseMatrix& stiffness, const SparseMatrix& mass, const DofMap& dofs,
                                  const ModalAnalysisDef& def) {
  const Index full = dofs.full_size();
  if (stiffness.rows() != full || stiffness.cols() != full || mass.rows() != full || mass.cols() != full)
    return Error{"modal analysis: K is " + std::to_string(stiffness.rows()) + "×" +
                 std::to_string(stiffness.cols()) + " and M " + std::to_string(mass.rows()) + "×" +
                 std::to_string(mass.cols()) + ", expected " + std::to_string(full) + "-square"};
  const Index n = dofs.free_size();
  const Index r = def.modes;
  // Every node fixed: "need 1 ≤ modes < 0" would read as a bad "modes"; the cause is the supports.
  if (n == 0) return Error{"modal analysis: no free nodes (every node is fixed), so there is no mode"};
  if (r < 1 || r >= n)
    return Error{"modal analysis: " + std::to_string(r) + " modes asked, need 1 ≤ modes < " +
                 std::to_string(n) + " (the free DOFs)"};
  const Index ncv =
      def.krylov_dimension > 0 ? def.krylov_dimension : std::min(std::max(2 * r + 1, r + 20), n);
  if (ncv <= r || ncv > n)
    return Error{"modal analysis: krylov_dimension " + std::to_string(ncv) + " must be in (" +
                 std::to_string(r) + ", " + std::to_string(n) + "]"};
  if (def.max_restarts < 1 || !(def.tolerance > 0.0))
    return Error{"modal analysis: max_restarts must be ≥ 1 and tolerance > 0"};

  const SparseMatrix K = dofs.restrict_matrix(stiffness);
  const SparseMatrix M = dofs.restrict_matrix(mass);
  double sigma = def.shift;
  if (std::isnan(sigma)) {
    const double trace_m = M.diagonal().sum();
    if (!(trace_m > 0.0)) return Error{"modal analysis: the mass matrix has no positive diagonal"};
    sigma = -1e-8 * K.diagonal().sum() / trace_m;
  }
  if (!std::isfinite(sigma)) return Error{"modal analysis: shift must be finite, got " + str(sigma)};

  ShiftInvertOperator op(K, M, def.backend);
  Spectra::SparseSymMatProd<double> bop(M);
  ModalBasis basis;
  basis.shift = sigma;
  try {
    Spectra::SymGEigsShiftSolver<ShiftInvertOperator, Spectra::SparseSymMatProd<double>,
                                 Spectra::GEigsMode::ShiftInvert>
        eigs(op, bop, r, ncv, sigma);
    eigs.init();
    eigs.compute(Spectra::SortRule::LargestMagn, def.max_restarts, def.tolerance,
                 Spectra::SortRule::SmallestAlge);
    if (eigs.info() != Spectra::CompInfo::Successful)
      return Error{"modal analysis: Lanczos did not converge to " + str(def.tolerance) + " in " +
                   std::to_string(def.max_restarts) + " restarts (try a larger krylov_dimension)"};
    basis.eigenvalues = eigs.eigenvalues();
    const Eigen::MatrixXd reduced = eigs.eigenvectors();
    basis.restarts = eigs.num_iterations();
    basis.operations = eigs.num_operations();
    basis.shapes = Eigen::MatrixXd::Zero(full, r);
    const auto& free = dofs.free_dofs();
    for (Index k = 0; k < n; ++k) basis.shapes.row(free[static_cast<std::size_t>(k)]) = reduced.row(k);
  } catch (const std::exception& e) {
    return Error{"modal analysis: " + std::string(e.what()) + " (shift " + str(sigma) + " rad²/s²)"};
  }
  // Spectra sorts ascending with SmallestAlge; keep the order explicit against future versions.
  std::vector<Index> order(static_cast<std::size_t>(r));
  for (Index j = 0; j < r; ++j) order[static_cast<std::size_t>(j)] = j;
  // Ties keep Spectra's order (the index breaks them): a stable sort without std::stable_sort's
  // temporary buffer, which ASan reports as an allocation mismatch in this libstdc++.
  std::sort(order.begin(), order.end(), [&](Index a, Index b) {
    return basis.eigenvalues[a] < basis.eigenvalues[b] ||
           (basis.eigenvalues[a] == basis.eigenvalues[b] && a < b);
  });
  Eigen::VectorXd values(r);
  Eigen::MatrixXd shapes(full, r);
  for (Index j = 0; j < r; ++j) {
    values[j] = basis.eigenvalues[order[static_cast<std::size_t>(j)]];
    shapes.col(j) = basis.shapes.col(order[static_cast<std::size_t>(j)]);
  }
  basis.eigenvalues = std::move(values);
  basis.shapes = std::move(shapes);
  return basis;
}

Result<ModalBasis> modal_analysis(const TetMesh& mesh, std::span<const materials::Material> materials,
                                  std::span<const Index> fixed_nodes, const ModalAnalysisDef& def,
                                  ModalMass mass) {
  if (materials.size() != 1 && materials.size() != mesh.tet_count())
    return Error{"modal analysis: " + std::to_string(materials.size()) + " materials for " +
                 std::to_string(mesh.tet_count()) + " tets (give 1 or one per tet)"};
  auto assembler = StiffnessAssembler::build(mesh);
  if (!assembler) return Error{"modal analysis: " + assembler.message()};
  SparseMatrix K;
  if (materials.size() == 1)
    assembler->assemble(mesh, materials[0], K);
  else
    assembler->assemble(mesh, materials, K);
  std::vector<double> density(mesh.tet_count());
  for (std::size_t t = 0; t < density.size(); ++t)
    density[t] = materials[materials.size() == 1 ? 0 : t].density;
  SparseMatrix M;
  if (mass == ModalMass::consistent) {
    auto m = assemble_consistent_mass(mesh, density);
    if (!m) return Error{"modal analysis: " + m.message()};
    M = std::move(m.value());
  } else {
    auto m = assemble_lumped_mass(mesh, density);
    if (!m) return Error{"modal analysis: " + m.message()};
    const Index nd = 3 * static_cast<Index>(mesh.node_count());
    M.resize(nd, nd);
    M.reserve(Eigen::VectorXi::Constant(nd, 1));
    for (Index d = 0; d < nd; ++d) M.insert(d, d) = (*m)[static_cast<std::size_t>(d / 3)];
    M.makeCompressed();
  }
  auto dofs =
      fixed_nodes.empty()
          ? Result<DofMap>(DofMap::from_fixed_dofs_unchecked(3 * static_cast<Index>(mesh.node_count()), {}))
          : DofMap::from_fixed_nodes(mesh, fixed_nodes);
  if (!dofs) return Error{"modal analysis: " + dofs.message()};
  return modal_analysis(K, M, *dofs, def);
}

}  // namespace pliant::fem
