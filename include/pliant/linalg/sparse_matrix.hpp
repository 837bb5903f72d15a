// The sparse matrix type of the linear-algebra layer: Eigen's column-major sparse matrix of doubles with
// int indices. The solvers (sparse_cholesky.hpp, pcg.hpp, condensation.hpp) take square symmetric matrices
// with both triangles stored, the form fem's assembly produces.
#pragma once

#include <Eigen/SparseCore>

namespace pliant::linalg {

using SparseMatrix = Eigen::SparseMatrix<double>;  // column-major, int storage index

}  // namespace pliant::linalg
