// ACA and panel builders of hierarchical matrices (see hmatrix_build.hpp).
#include "pliant/linalg/hmatrix_build.hpp"

#include <Eigen/QR>
#include <Eigen/SVD>

#include <omp.h>

#include <algorithm>
#include <cmath>

namespace pliant::linalg {

namespace {

struct BlockPlan {
  Index row, col;
  bool low_rank;
};

// Symmetric block tree (Hackbusch 1999): only pairs (t, s) with t at or after s are visited.
void plan_blocks(const ClusterTree& tree, double eta, Index t, Index s, std::vector<BlockPlan>& out) {
  const auto& cl = tree.clusters();
  const Cluster& ct = cl[static_cast<std::size_t>(t)];
  const Cluster& cs = cl[static_cast<std::size_t>(s)];
  if (t != s && tree.admissible(t, s, eta)) {
    out.push_back({t, s, true});
  } else if (ct.leaf() || cs.leaf()) {
    out.push_back({t, s, false});
  } else if (t == s) {
    plan_blocks(tree, eta, ct.child[0], ct.child[0], out);
    plan_blocks(tree, eta, ct.child[1], ct.child[0], out);
    plan_blocks(tree, eta, ct.child[1], ct.child[1], out);
  } else {
    for (Index a : ct.child)
      for (Index b : cs.child) plan_blocks(tree, eta, a, b, out);
  }
}

std::vector<Index> unknowns(const ClusterTree& tree, int dofs, const Cluster& c) {
  std::vector<Index> out;
  out.reserve(static_cast<std::size_t>(dofs * c.size()));
  for (Index q = c.begin; q < c.end; ++q)
    for (int a = 0; a < dofs; ++a) out.push_back(dofs * tree.order()[static_cast<std::size_t>(q)] + a);
  return out;
}

// Truncates U·Vᵀ to the smallest rank whose dropped Frobenius tail is at most `tau`.
void truncate(Eigen::MatrixXd& U, Eigen::MatrixXd& V, double tau) {
  if (U.cols() == 0) return;
  Eigen::HouseholderQR<Eigen::MatrixXd> qu(U), qv(V);
  const Eigen::Index k = U.cols();
  const Eigen::Index ku = std::min<Eigen::Index>(k, U.rows()), kv = std::min<Eigen::Index>(k, V.rows());
  const Eigen::MatrixXd Ru = qu.matrixQR().topRows(ku).triangularView<Eigen::Upper>();
  const Eigen::MatrixXd Rv = qv.matrixQR().topRows(kv).triangularView<Eigen::Upper>();
  Eigen::JacobiSVD<Eigen::MatrixXd> svd(Ru * Rv.transpose(), Eigen::ComputeThinU | Eigen::ComputeThinV);
  const Eigen::VectorXd& sv = svd.singularValues();
  Eigen::Index r = sv.size();
  double tail = 0;
  while (r > 0 && tail + sv[r - 1] * sv[r - 1] <= tau * tau) {
    --r;
    tail += sv[r] * sv[r];
  }
  const Eigen::MatrixXd Qu = qu.householderQ() * Eigen::MatrixXd::Identity(U.rows(), ku);
  const Eigen::MatrixXd Qv = qv.householderQ() * Eigen::MatrixXd::Identity(V.rows(), kv);
  U = Qu * (svd.matrixU().leftCols(r) * sv.head(r).asDiagonal());
  V = Qv * svd.matrixV().leftCols(r);
}

// A block's finished values, before packing.
struct Packed {
  Index rank = -1;
  std::vector<float> values;
};

Packed pack_low_rank(const Eigen::MatrixXd& U, const Eigen::MatrixXd& V) {
  Packed p;
  const Eigen::Index m = U.rows(), n = V.rows(), k = U.cols();
  if (k * (m + n) >= m * n) {  // no saving: store it dense
    const Eigen::MatrixXd D = U * V.transpose();
    p.values.assign(D.data(), D.data() + D.size());
    return p;
  }
  p.rank = static_cast<Index>(k);
  p.values.reserve(static_cast<std::size_t>(k * (m + n)));
  p.values.insert(p.values.end(), U.data(), U.data() + U.size());
  p.values.insert(p.values.end(), V.data(), V.data() + V.size());
  return p;
}

HMatrix assemble(ClusterTree tree, int dofs, const std::vector<BlockPlan>& plan, std::vector<Packed>& packed,
                 double tolerance) {
  std::vector<HBlock> blocks(plan.size());
  std::size_t total = 0;
  for (std::size_t b = 0; b < plan.size(); ++b) total += packed[b].values.size();
  auto storage = std::make_shared<std::vector<float>>();
  storage->reserve(total);
  for (std::size_t b = 0; b < plan.size(); ++b) {
    blocks[b] = HBlock{plan[b].row, plan[b].col, packed[b].rank, storage->size()};
    storage->insert(storage->end(), packed[b].values.begin(), packed[b].values.end());
    std::vector<float>().swap(packed[b].values);
  }
  const std::span<const float> values(storage->data(), storage->size());
  return HMatrix::from_parts(std::move(tree), dofs, std::move(blocks), tolerance, std::move(storage), values);
}

// ACA with partial pivoting (Bebendorf 2000) on the block rows × cols of a symmetric matrix.
Packed aca_block(const std::vector<Index>& rows, const std::vector<Index>& cols, const ColumnOracle& oracle,
                 double tolerance) {
  const Eigen::Index m = static_cast<Eigen::Index>(rows.size()), n = static_cast<Eigen::Index>(cols.size());
  std::vector<Eigen::VectorXd> us, vs;
  std::vector<std::uint8_t> row_used(static_cast<std::size_t>(m), 0),
      col_used(static_cast<std::size_t>(n), 0);
  double norm2 = 0;
  Eigen::VectorXd col(m), row(n);
  Eigen::Index j = 0;
  int zero_tries = 0;
  const Eigen::Index max_rank = std::min(m, n);
  while (static_cast<Eigen::Index>(us.size()) < max_rank) {
    col_used[static_cast<std::size_t>(j)] = 1;
    oracle(rows, cols[static_cast<std::size_t>(j)], col.data());
    for (std::size_t l = 0; l < us.size(); ++l) col -= us[l] * vs[l][j];
    Eigen::Index i = -1;
    double best = 0;
    for (Eigen::Index r = 0; r < m; ++r)
      if (!row_used[static_cast<std::size_t>(r)] && std::abs(col[r]) > best) best = std::abs(col[r]), i = r;
    if (i < 0 || best <= 1e-14 * std::sqrt(norm2 / static_cast<double>(std::max<Eigen::Index>(m * n, 1)))) {
      // A (numerically) zero column: try the next unused one, a few times (zero rows and columns
      // occur where a Green's function is constrained).
      if (++zero_tries > 8) break;
      Eigen::Index next = -1;
      for (Eigen::Index c = 0; c < n; ++c)
        if (!col_used[static_cast<std::size_t>((j + 1 + c) % n)]) {
          next = (j + 1 + c) % n;
          break;
        }
      if (next < 0) break;
      j = next;
      continue;
    }
    zero_tries = 0;
    row_used[static_cast<std::size_t>(i)] = 1;
    oracle(cols, rows[static_cast<std::size_t>(i)], row.data());  // row i = column i (symmetry)
    for (std::size_t l = 0; l < us.size(); ++l) row -= vs[l] * us[l][i];
    const Eigen::VectorXd u = col / col[i];
    for (std::size_t l = 0; l < us.size(); ++l) norm2 += 2.0 * u.dot(us[l]) * row.dot(vs[l]);
    const double step = u.norm() * row.norm();
    norm2 += step * step;
    us.push_back(u);
    vs.push_back(row);
    if (step <= 0.5 * tolerance * std::sqrt(std::max(norm2, 0.0))) break;
    Eigen::Index next = -1;
    best = -1;
    for (Eigen::Index c = 0; c < n; ++c)
      if (!col_used[static_cast<std::size_t>(c)] && std::abs(row[c]) > best)
        best = std::abs(row[c]), next = c;
    if (next < 0) break;
    j = next;
  }
  Eigen::MatrixXd U(m, static_cast<Eigen::Index>(us.size())), V(n, static_cast<Eigen::Index>(vs.size()));
  for (std::size_t l = 0; l < us.size(); ++l) {
    U.col(static_cast<Eigen::Index>(l)) = us[l];
    V.col(static_cast<Eigen::Index>(l)) = vs[l];
  }
  if (static_cast<Eigen::Index>(us.size()) >= max_rank || U.cols() * (m + n) >= m * n) {
    // No compression: the block is computed whole.
    Packed p;
    p.values.resize(static_cast<std::size_t>(m * n));
    for (Eigen::Index c = 0; c < n; ++c) {
      oracle(rows, cols[static_cast<std::size_t>(c)], col.data());
      for (Eigen::Index r = 0; r < m; ++r)
        p.values[static_cast<std::size_t>(c * m + r)] = static_cast<float>(col[r]);
    }
    return p;
  }
  truncate(U, V, 0.5 * tolerance * std::sqrt(std::max(norm2, 0.0)));
  return pack_low_rank(U, V);
}

}  // namespace

HMatrix build_hmatrix_aca(std::span<const Vec3> points, int dofs, const ColumnOracle& oracle,
                          const HMatrixSettings& settings) {
  ClusterTree tree = ClusterTree::build(points, settings.leaf_size);
  std::vector<BlockPlan> plan;
  if (tree.point_count() > 0) plan_blocks(tree, settings.eta, 0, 0, plan);
  std::vector<Packed> packed(plan.size());
  const auto& cl = tree.clusters();
#pragma omp parallel for num_threads(std::max(settings.threads, 1)) schedule(dynamic, 1)
  for (std::size_t b = 0; b < plan.size(); ++b) {
    const std::vector<Index> rows = unknowns(tree, dofs, cl[static_cast<std::size_t>(plan[b].row)]);
    const std::vector<Index> cols = unknowns(tree, dofs, cl[static_cast<std::size_t>(plan[b].col)]);
    if (plan[b].low_rank) {
      packed[b] = aca_block(rows, cols, oracle, settings.tolerance);
    } else {
      std::vector<double> col(rows.size());
      packed[b].values.resize(rows.size() * cols.size());
      for (std::size_t c = 0; c < cols.size(); ++c) {
        oracle(rows, cols[c], col.data());
        for (std::size_t r = 0; r < rows.size(); ++r)
          packed[b].values[c * rows.size() + r] = static_cast<float>(col[r]);
      }
    }
  }
  return assemble(std::move(tree), dofs, plan, packed, settings.tolerance);
}

struct HMatrixPanelBuilder::Impl {
  ClusterTree tree;
  int dofs = 1;
  HMatrixSettings settings;
  std::vector<BlockPlan> plan;
  std::vector<Index> leaves;
  std::vector<std::vector<std::uint32_t>> blocks_of_leaf;  // blocks whose column cluster holds the leaf
  struct State {
    bool dense = false;
    Eigen::MatrixXd U, V, D;  // U orthonormal (m × k), V (n × k); or D (m × n)
    double norm2 = 0;
  };
  std::vector<State> state;
  std::vector<std::vector<Index>> rows;  // unknowns of each block's row cluster

  void update(std::size_t b, const Eigen::MatrixXd& panel, Index leaf) {
    const auto& cl = tree.clusters();
    const Cluster& s = cl[static_cast<std::size_t>(plan[b].col)];
    const Cluster& l = cl[static_cast<std::size_t>(leaf)];
    const Eigen::Index off = dofs * (l.begin - s.begin), w = dofs * l.size();
    const std::vector<Index>& r = rows[b];
    const Eigen::Index m = static_cast<Eigen::Index>(r.size());
    Eigen::MatrixXd P(m, w);
    for (Eigen::Index i = 0; i < m; ++i) P.row(i) = panel.row(r[static_cast<std::size_t>(i)]);
    State& st = state[b];
    const double piece2 = P.squaredNorm();
    st.norm2 += piece2;
    if (st.dense) {
      st.D.middleCols(off, w) = P;
      return;
    }
    // Project out what the basis already holds (twice: classical Gram-Schmidt loses orthogonality).
    Eigen::MatrixXd C = st.U.transpose() * P;
    Eigen::MatrixXd R = P - st.U * C;
    const Eigen::MatrixXd C2 = st.U.transpose() * R;
    R -= st.U * C2;
    C += C2;
    st.V.block(off, 0, w, st.V.cols()) = C.transpose();
    if (R.squaredNorm() <= 0.25 * settings.tolerance * settings.tolerance * piece2) return;
    Eigen::HouseholderQR<Eigen::MatrixXd> qr(R);
    const Eigen::Index q = std::min(m, w);
    const Eigen::MatrixXd Rr = qr.matrixQR().topRows(q).triangularView<Eigen::Upper>();
    Eigen::JacobiSVD<Eigen::MatrixXd> svd(Rr, Eigen::ComputeThinU | Eigen::ComputeThinV);
    const Eigen::VectorXd& sv = svd.singularValues();
    Eigen::Index keep = sv.size();
    double tail = 0;
    const double tau2 = 0.25 * settings.tolerance * settings.tolerance * piece2;
    while (keep > 0 && tail + sv[keep - 1] * sv[keep - 1] <= tau2) {
      --keep;
      tail += sv[keep] * sv[keep];
    }
    if (keep == 0) return;
    const Eigen::Index k = st.U.cols(), n = st.V.rows();
    if ((k + keep) * (m + n) >= m * n) {  // no saving any more: continue dense
      st.D = st.U * st.V.transpose();
      st.D.middleCols(off, w) = P;
      st.dense = true;
      st.U.resize(0, 0);
      st.V.resize(0, 0);
      return;
    }
    const Eigen::MatrixXd Q = qr.householderQ() * Eigen::MatrixXd::Identity(m, q);
    st.U.conservativeResize(m, k + keep);
    st.U.rightCols(keep) = Q * svd.matrixU().leftCols(keep);
    st.V.conservativeResize(n, k + keep);
    st.V.rightCols(keep).setZero();
    st.V.block(off, k, w, keep) = svd.matrixV().leftCols(keep) * sv.head(keep).asDiagonal();
  }
};

HMatrixPanelBuilder::HMatrixPanelBuilder(std::span<const Vec3> points, int dofs,
                                         const HMatrixSettings& settings)
    : impl_(std::make_unique<Impl>()) {
  Impl& im = *impl_;
  im.tree = ClusterTree::build(points, settings.leaf_size);
  im.dofs = dofs;
  im.settings = settings;
  if (im.tree.point_count() > 0) plan_blocks(im.tree, settings.eta, 0, 0, im.plan);
  const auto& cl = im.tree.clusters();
  for (std::size_t c = 0; c < cl.size(); ++c)
    if (cl[c].leaf()) im.leaves.push_back(static_cast<Index>(c));
  std::sort(im.leaves.begin(), im.leaves.end(), [&](Index a, Index b) {
    return cl[static_cast<std::size_t>(a)].begin < cl[static_cast<std::size_t>(b)].begin;
  });
  im.blocks_of_leaf.resize(cl.size());
  im.state.resize(im.plan.size());
  im.rows.resize(im.plan.size());
  for (std::size_t b = 0; b < im.plan.size(); ++b) {
    const Cluster& t = cl[static_cast<std::size_t>(im.plan[b].row)];
    const Cluster& s = cl[static_cast<std::size_t>(im.plan[b].col)];
    im.rows[b] = unknowns(im.tree, dofs, t);
    const Eigen::Index m = dofs * t.size(), n = dofs * s.size();
    if (im.plan[b].low_rank) {
      im.state[b].U.resize(m, 0);
      im.state[b].V.resize(n, 0);
    } else {
      im.state[b].dense = true;
      im.state[b].D.setZero(m, n);
    }
    for (Index leaf : im.leaves) {
      const Cluster& l = cl[static_cast<std::size_t>(leaf)];
      if (l.begin >= s.begin && l.end <= s.end)
        im.blocks_of_leaf[static_cast<std::size_t>(leaf)].push_back(static_cast<std::uint32_t>(b));
    }
  }
}

HMatrixPanelBuilder::HMatrixPanelBuilder(HMatrixPanelBuilder&&) noexcept = default;
HMatrixPanelBuilder::~HMatrixPanelBuilder() = default;

const std::vector<Index>& HMatrixPanelBuilder::leaves() const { return impl_->leaves; }

std::vector<Index> HMatrixPanelBuilder::leaf_columns(Index leaf) const {
  return unknowns(impl_->tree, impl_->dofs, impl_->tree.clusters()[static_cast<std::size_t>(leaf)]);
}

void HMatrixPanelBuilder::add_panels(std::span<const Index> leaves, std::span<const Eigen::MatrixXd> panels) {
  Impl& im = *impl_;
  // Per block, the panels that reach it, in the given order.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> work;  // (block, panel)
  for (std::size_t k = 0; k < leaves.size(); ++k)
    for (std::uint32_t b : im.blocks_of_leaf[static_cast<std::size_t>(leaves[k])])
      work.emplace_back(b, static_cast<std::uint32_t>(k));
  std::stable_sort(work.begin(), work.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::size_t> starts;
  for (std::size_t w = 0; w < work.size(); ++w)
    if (w == 0 || work[w].first != work[w - 1].first) starts.push_back(w);
  starts.push_back(work.size());
  const std::size_t groups = starts.size() - 1;
#pragma omp parallel for num_threads(std::max(im.settings.threads, 1)) schedule(dynamic, 1)
  for (std::size_t g = 0; g < groups; ++g)
    for (std::size_t w = starts[g]; w < starts[g + 1]; ++w)
      im.update(work[w].first, panels[work[w].second], leaves[work[w].second]);
}

HMatrix HMatrixPanelBuilder::finish() {
  Impl& im = *impl_;
  std::vector<Packed> packed(im.plan.size());
#pragma omp parallel for num_threads(std::max(im.settings.threads, 1)) schedule(dynamic, 1)
  for (std::size_t b = 0; b < im.plan.size(); ++b) {
    Impl::State& st = im.state[b];
    if (st.dense) {
      packed[b].values.assign(st.D.data(), st.D.data() + st.D.size());
    } else {
      truncate(st.U, st.V, 0.5 * im.settings.tolerance * std::sqrt(st.norm2));
      packed[b] = pack_low_rank(st.U, st.V);
    }
    st = Impl::State{};
  }
  return assemble(std::move(im.tree), im.dofs, im.plan, packed, im.settings.tolerance);
}

}  // namespace pliant::linalg
