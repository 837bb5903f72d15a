// SparseCholesky's state, shared by sparse_cholesky.cpp and single_precision_factor.cpp (which reads the
// supernodal factor). Private to src/linalg: it includes CHOLMOD.
#pragma once

#include "pliant/linalg/sparse_cholesky.hpp"

#include <Eigen/CholmodSupport>
#include <Eigen/SparseCholesky>

namespace pliant::linalg {

// Eigen's supernodal wrapper with its CHOLMOD factor readable (Eigen keeps the pointer protected).
class CholmodSupernodal : public Eigen::CholmodSupernodalLLT<SparseMatrix, Eigen::Lower> {
 public:
  const cholmod_factor* factor() const { return m_cholmodFactor; }
};

struct SparseCholesky::Impl {
  ~Impl();
  CholeskyBackend backend;
  Eigen::Index size = 0;
  long long factor_nonzeros = 0;
  // CHOLMOD's solve writes to its common workspace, hence mutable; see the header's thread note.
  mutable CholmodSupernodal cholmod;
  Eigen::SimplicialLDLT<SparseMatrix, Eigen::Lower, Eigen::AMDOrdering<int>> ldlt;
  // cholmod_solve2's solution and workspaces, kept between solves so that solve(b, x) allocates once.
  mutable cholmod_dense* solution = nullptr;
  mutable cholmod_dense* work_y = nullptr;
  mutable cholmod_dense* work_e = nullptr;
};

}  // namespace pliant::linalg
