// Hierarchical matrix storage and queries (see hmatrix.hpp).
#include "pliant/linalg/hmatrix.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

namespace pliant::linalg {

static_assert(std::endian::native == std::endian::little, "HMatrix bytes are little-endian");

namespace {

constexpr std::size_t kHeaderBytes = 48;
constexpr std::size_t kClusterBytes = 16;
constexpr std::size_t kBlockBytes = 24;

std::size_t pad8(std::size_t n) { return (n + 7) / 8 * 8; }

template <class T>
T get(const std::byte* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

template <class T>
void put(std::byte* p, const T& v) {
  std::memcpy(p, &v, sizeof(T));
}

}  // namespace

HMatrix HMatrix::from_parts(ClusterTree tree, int dofs, std::vector<HBlock> blocks, double tolerance,
                            std::shared_ptr<const void> storage, std::span<const float> values) {
  HMatrix h;
  h.tree_ = std::move(tree);
  h.dofs_ = dofs;
  h.blocks_ = std::move(blocks);
  h.tolerance_ = tolerance;
  h.storage_ = std::move(storage);
  h.values_ = values;
  h.index();
  return h;
}

void HMatrix::index() {
  const auto& cl = tree_.clusters();
  const std::size_t n = static_cast<std::size_t>(tree_.point_count());
  leaf_of_.assign(n, -1);
  std::vector<Index> leaves;  // sorted by begin: the leaves partition the permuted order
  for (std::size_t c = 0; c < cl.size(); ++c)
    if (cl[c].leaf()) {
      leaves.push_back(static_cast<Index>(c));
      for (Index k = cl[c].begin; k < cl[c].end; ++k)
        leaf_of_[static_cast<std::size_t>(k)] = static_cast<Index>(c);
    }
  std::sort(leaves.begin(), leaves.end(), [&](Index a, Index b) {
    return cl[static_cast<std::size_t>(a)].begin < cl[static_cast<std::size_t>(b)].begin;
  });
  // The leaves inside cluster c are a contiguous run of `leaves`.
  auto leaf_range = [&](Index c, std::size_t& first, std::size_t& last) {
    const Cluster& x = cl[static_cast<std::size_t>(c)];
    auto lo = std::lower_bound(leaves.begin(), leaves.end(), x.begin,
                               [&](Index l, Index v) { return cl[static_cast<std::size_t>(l)].begin < v; });
    auto hi = std::lower_bound(leaves.begin(), leaves.end(), x.end,
                               [&](Index l, Index v) { return cl[static_cast<std::size_t>(l)].begin < v; });
    first = static_cast<std::size_t>(lo - leaves.begin());
    last = static_cast<std::size_t>(hi - leaves.begin());
  };
  std::vector<std::uint32_t> count(cl.size() + 1, 0);
  for (int pass = 0; pass < 2; ++pass) {
    if (pass == 1) {
      hit_start_.assign(cl.size() + 1, 0);
      for (std::size_t c = 0; c < cl.size(); ++c) hit_start_[c + 1] = hit_start_[c] + count[c];
      hits_.resize(hit_start_.back());
      std::fill(count.begin(), count.end(), 0);
    }
    for (std::size_t b = 0; b < blocks_.size(); ++b) {
      const HBlock& blk = blocks_[b];
      for (int side = 0; side < 2; ++side) {
        if (side == 1 && blk.row == blk.col) break;
        std::size_t first = 0, last = 0;
        leaf_range(side == 0 ? blk.col : blk.row, first, last);
        for (std::size_t l = first; l < last; ++l) {
          const std::size_t leaf = static_cast<std::size_t>(leaves[l]);
          if (pass == 1)
            hits_[hit_start_[leaf] + count[leaf]] = Hit{static_cast<std::uint32_t>(b), side == 1};
          ++count[leaf];
        }
      }
    }
  }
}

std::size_t HMatrix::table_bytes() const {
  return kHeaderBytes + pad8(4 * static_cast<std::size_t>(tree_.point_count())) +
         kClusterBytes * tree_.clusters().size() + kBlockBytes * blocks_.size();
}

std::size_t HMatrix::stored_bytes() const { return table_bytes() + pad8(4 * values_.size()); }

std::size_t HMatrix::low_rank_blocks() const {
  return static_cast<std::size_t>(
      std::count_if(blocks_.begin(), blocks_.end(), [](const HBlock& b) { return b.rank >= 0; }));
}

Index HMatrix::max_rank() const {
  Index r = 0;
  for (const HBlock& b : blocks_) r = std::max(r, b.rank);
  return r;
}

void HMatrix::add_columns(Index point, const double* v, double* y) const {
  const auto& cl = tree_.clusters();
  const auto& order = tree_.order();
  const Index pos = tree_.position()[static_cast<std::size_t>(point)];
  const std::size_t leaf = static_cast<std::size_t>(leaf_of_[static_cast<std::size_t>(pos)]);
  const int d = dofs_;
  double w[64];
  for (std::uint32_t h = hit_start_[leaf]; h < hit_start_[leaf + 1]; ++h) {
    const Hit hit = hits_[h];
    const HBlock& b = blocks_[hit.block];
    const Cluster& t = cl[static_cast<std::size_t>(b.row)];
    const Cluster& s = cl[static_cast<std::size_t>(b.col)];
    const std::size_t m = static_cast<std::size_t>(d * t.size()), n = static_cast<std::size_t>(d * s.size());
    const float* p = values_.data() + b.offset;
    // Output cluster (the block's rows, or its columns when transposed) and the point's local index.
    const Cluster& out = hit.transposed ? s : t;
    const std::size_t local = static_cast<std::size_t>(d * (pos - (hit.transposed ? t.begin : s.begin)));
    if (b.rank < 0) {
      for (Index q = 0; q < out.size(); ++q) {
        double* yq = y + static_cast<std::size_t>(d) *
                             static_cast<std::size_t>(order[static_cast<std::size_t>(out.begin + q)]);
        for (int a = 0; a < d; ++a) {
          double acc = 0;
          const std::size_t r = static_cast<std::size_t>(d * q + a);
          for (int c = 0; c < d; ++c)
            acc += v[c] * (hit.transposed ? p[r * m + local + static_cast<std::size_t>(c)]
                                          : p[(local + static_cast<std::size_t>(c)) * m + r]);
          yq[a] += acc;
        }
      }
    } else {
      const std::size_t k = static_cast<std::size_t>(b.rank);
      const float* U = p;
      const float* V = p + m * k;
      const float* inner = hit.transposed ? U : V;  // coefficients read at the point's rows
      const float* outer = hit.transposed ? V : U;  // columns spread over the output cluster
      const std::size_t inner_rows = hit.transposed ? m : n, outer_rows = hit.transposed ? n : m;
      for (std::size_t l0 = 0; l0 < k; l0 += 64) {
        const std::size_t l1 = std::min(k, l0 + 64);
        for (std::size_t l = l0; l < l1; ++l) {
          double acc = 0;
          for (int c = 0; c < d; ++c)
            acc += v[c] * inner[l * inner_rows + local + static_cast<std::size_t>(c)];
          w[l - l0] = acc;
        }
        for (Index q = 0; q < out.size(); ++q) {
          double* yq = y + static_cast<std::size_t>(d) *
                               static_cast<std::size_t>(order[static_cast<std::size_t>(out.begin + q)]);
          for (int a = 0; a < d; ++a) {
            const std::size_t r = static_cast<std::size_t>(d * q + a);
            double acc = 0;
            for (std::size_t l = l0; l < l1; ++l) acc += outer[l * outer_rows + r] * w[l - l0];
            yq[a] += acc;
          }
        }
      }
    }
  }
}

void HMatrix::columns(Index point, double* out) const {
  const std::size_t n = static_cast<std::size_t>(rows());
  std::fill(out, out + n * static_cast<std::size_t>(dofs_), 0.0);
  double v[64] = {};
  for (int c = 0; c < dofs_; ++c) {
    v[c] = 1.0;
    add_columns(point, v, out + static_cast<std::size_t>(c) * n);
    v[c] = 0.0;
  }
}

void HMatrix::point_block(Index i, Index j, double* out) const {
  const auto& cl = tree_.clusters();
  const int d = dofs_;
  std::fill(out, out + d * d, 0.0);
  const Index pi = tree_.position()[static_cast<std::size_t>(i)];
  const Index pj = tree_.position()[static_cast<std::size_t>(j)];
  const std::size_t leaf = static_cast<std::size_t>(leaf_of_[static_cast<std::size_t>(pj)]);
  for (std::uint32_t h = hit_start_[leaf]; h < hit_start_[leaf + 1]; ++h) {
    const Hit hit = hits_[h];
    const HBlock& b = blocks_[hit.block];
    const Cluster& t = cl[static_cast<std::size_t>(b.row)];
    const Cluster& s = cl[static_cast<std::size_t>(b.col)];
    const Cluster& other = hit.transposed ? s : t;  // must hold i
    if (pi < other.begin || pi >= other.end) continue;
    const std::size_t m = static_cast<std::size_t>(d * t.size()), n = static_cast<std::size_t>(d * s.size());
    // Stored entry (r, c) of the block for A(i·d + a, j·d + e).
    const std::size_t ri = static_cast<std::size_t>(d * (pi - other.begin));
    const std::size_t rj = static_cast<std::size_t>(d * (pj - (hit.transposed ? t.begin : s.begin)));
    const float* p = values_.data() + b.offset;
    for (int a = 0; a < d; ++a)
      for (int e = 0; e < d; ++e) {
        const std::size_t r =
            hit.transposed ? rj + static_cast<std::size_t>(e) : ri + static_cast<std::size_t>(a);
        const std::size_t c =
            hit.transposed ? ri + static_cast<std::size_t>(a) : rj + static_cast<std::size_t>(e);
        double value = 0;
        if (b.rank < 0) {
          value = p[c * m + r];
        } else {
          const std::size_t k = static_cast<std::size_t>(b.rank);
          for (std::size_t l = 0; l < k; ++l)
            value += static_cast<double>(p[l * m + r]) * p[m * k + l * n + c];
        }
        out[e * d + a] = value;
      }
    return;
  }
}

void HMatrix::multiply(const double* x, double* y) const {
  const auto& cl = tree_.clusters();
  const auto& order = tree_.order();
  const int d = dofs_;
  const std::size_t total = static_cast<std::size_t>(rows());
  std::fill(y, y + total, 0.0);
  std::vector<double> xs, xt, w;
  auto gather = [&](const Cluster& c, std::vector<double>& out) {
    out.resize(static_cast<std::size_t>(d * c.size()));
    for (Index q = 0; q < c.size(); ++q)
      for (int a = 0; a < d; ++a)
        out[static_cast<std::size_t>(d * q + a)] =
            x[static_cast<std::size_t>(d) *
                  static_cast<std::size_t>(order[static_cast<std::size_t>(c.begin + q)]) +
              static_cast<std::size_t>(a)];
  };
  auto scatter = [&](const Cluster& c, std::size_t r, double v) {
    const std::size_t q = r / static_cast<std::size_t>(d), a = r % static_cast<std::size_t>(d);
    y[static_cast<std::size_t>(d) * static_cast<std::size_t>(order[static_cast<std::size_t>(c.begin) + q]) +
      a] += v;
  };
  for (const HBlock& b : blocks_) {
    const Cluster& t = cl[static_cast<std::size_t>(b.row)];
    const Cluster& s = cl[static_cast<std::size_t>(b.col)];
    const std::size_t m = static_cast<std::size_t>(d * t.size()), n = static_cast<std::size_t>(d * s.size());
    const float* p = values_.data() + b.offset;
    gather(s, xs);
    gather(t, xt);
    const bool mirror = b.row != b.col;
    if (b.rank < 0) {
      for (std::size_t c = 0; c < n; ++c)
        for (std::size_t r = 0; r < m; ++r) {
          const double v = p[c * m + r];
          scatter(t, r, v * xs[c]);
          if (mirror) scatter(s, c, v * xt[r]);
        }
    } else {
      const std::size_t k = static_cast<std::size_t>(b.rank);
      const float* U = p;
      const float* V = p + m * k;
      w.assign(k, 0.0);
      for (std::size_t l = 0; l < k; ++l)
        for (std::size_t c = 0; c < n; ++c) w[l] += V[l * n + c] * xs[c];
      for (std::size_t l = 0; l < k; ++l)
        for (std::size_t r = 0; r < m; ++r) scatter(t, r, U[l * m + r] * w[l]);
      if (mirror) {
        w.assign(k, 0.0);
        for (std::size_t l = 0; l < k; ++l)
          for (std::size_t r = 0; r < m; ++r) w[l] += U[l * m + r] * xt[r];
        for (std::size_t l = 0; l < k; ++l)
          for (std::size_t c = 0; c < n; ++c) scatter(s, c, V[l * n + c] * w[l]);
      }
    }
  }
}

std::vector<std::byte> HMatrix::to_bytes() const {
  std::vector<std::byte> out(stored_bytes(), std::byte{0});
  std::byte* p = out.data();
  const std::uint64_t header[5] = {static_cast<std::uint64_t>(tree_.point_count()),
                                   static_cast<std::uint64_t>(dofs_), tree_.clusters().size(), blocks_.size(),
                                   values_.size()};
  std::memcpy(p, header, sizeof header);
  put(p + 40, tolerance_);
  p += kHeaderBytes;
  if (!tree_.order().empty()) std::memcpy(p, tree_.order().data(), 4 * tree_.order().size());
  p += pad8(4 * tree_.order().size());
  for (const Cluster& c : tree_.clusters()) {
    const Index v[4] = {c.begin, c.end, c.child[0], c.child[1]};
    std::memcpy(p, v, sizeof v);
    p += kClusterBytes;
  }
  for (const HBlock& b : blocks_) {
    const Index v[4] = {b.row, b.col, b.rank, 0};
    std::memcpy(p, v, sizeof v);
    put(p + 16, b.offset);
    p += kBlockBytes;
  }
  if (!values_.empty()) std::memcpy(p, values_.data(), 4 * values_.size());
  return out;
}

Result<HMatrix> HMatrix::from_bytes(std::span<const std::byte> bytes, std::shared_ptr<const void> keep_alive,
                                    const std::string& name) {
  auto bad = [&](const std::string& what) { return Error{name + ": damaged hierarchical block: " + what}; };
  if (bytes.size() < kHeaderBytes) return bad("truncated table");
  const std::byte* p = bytes.data();
  const std::uint64_t points = get<std::uint64_t>(p), dofs = get<std::uint64_t>(p + 8),
                      nclusters = get<std::uint64_t>(p + 16), nblocks = get<std::uint64_t>(p + 24),
                      nvalues = get<std::uint64_t>(p + 32);
  const double tolerance = get<double>(p + 40);
  if (points >= (std::uint64_t{1} << 27) || dofs < 1 || dofs > 8 || nclusters > 2 * points + 1 ||
      nblocks >= (std::uint64_t{1} << 32) || nvalues >= (std::uint64_t{1} << 58))
    return bad("impossible counts");
  if (!(tolerance > 0.0 && tolerance <= 1.0)) return bad("tolerance outside (0, 1]");
  const std::uint64_t need =
      kHeaderBytes + pad8(4 * points) + kClusterBytes * nclusters + kBlockBytes * nblocks + pad8(4 * nvalues);
  if (bytes.size() != need)
    return bad(std::to_string(bytes.size()) + " bytes, its table says " + std::to_string(need));
  if ((points == 0) != (nclusters == 0)) return bad("clusters do not match the points");
  p += kHeaderBytes;
  std::vector<Index> order(static_cast<std::size_t>(points));
  if (points) std::memcpy(order.data(), p, 4 * points);
  p += pad8(4 * points);
  {
    std::vector<std::uint8_t> seen(static_cast<std::size_t>(points), 0);
    for (Index v : order) {
      if (v < 0 || static_cast<std::uint64_t>(v) >= points || seen[static_cast<std::size_t>(v)])
        return bad("order is not a permutation");
      seen[static_cast<std::size_t>(v)] = 1;
    }
  }
  std::vector<Cluster> clusters(static_cast<std::size_t>(nclusters));
  std::vector<std::uint8_t> parents(clusters.size(), 0);
  for (std::size_t c = 0; c < clusters.size(); ++c, p += kClusterBytes) {
    Cluster& x = clusters[c];
    x.begin = get<Index>(p);
    x.end = get<Index>(p + 4);
    x.child[0] = get<Index>(p + 8);
    x.child[1] = get<Index>(p + 12);
    if (x.begin < 0 || x.end <= x.begin || static_cast<std::uint64_t>(x.end) > points)
      return bad("cluster range");
  }
  if (!clusters.empty() && (clusters[0].begin != 0 || static_cast<std::uint64_t>(clusters[0].end) != points))
    return bad("root cluster does not cover all points");
  for (std::size_t c = 0; c < clusters.size(); ++c) {
    const Cluster& x = clusters[c];
    if ((x.child[0] < 0) != (x.child[1] < 0)) return bad("cluster with one child");
    if (x.leaf()) {
      if (x.child[0] != -1 || x.child[1] != -1) return bad("cluster child index");
      continue;
    }
    for (Index ch : x.child)
      if (static_cast<std::size_t>(ch) <= c || static_cast<std::size_t>(ch) >= clusters.size() ||
          parents[static_cast<std::size_t>(ch)]++)
        return bad("cluster child index");
    const Cluster& a = clusters[static_cast<std::size_t>(x.child[0])];
    const Cluster& b = clusters[static_cast<std::size_t>(x.child[1])];
    if (a.begin != x.begin || a.end != b.begin || b.end != x.end)
      return bad("children do not split their parent");
  }
  for (std::size_t c = 1; c < clusters.size(); ++c)
    if (!parents[c]) return bad("cluster outside the tree");

  std::vector<HBlock> blocks(static_cast<std::size_t>(nblocks));
  long double area = 0;
  for (std::size_t b = 0; b < blocks.size(); ++b, p += kBlockBytes) {
    HBlock& x = blocks[b];
    x.row = get<Index>(p);
    x.col = get<Index>(p + 4);
    x.rank = get<Index>(p + 8);
    x.offset = get<std::uint64_t>(p + 16);
    if (x.row < 0 || x.col < 0 || static_cast<std::uint64_t>(x.row) >= nclusters ||
        static_cast<std::uint64_t>(x.col) >= nclusters || x.rank < -1)
      return bad("block index");
    const Cluster& t = clusters[static_cast<std::size_t>(x.row)];
    const Cluster& s = clusters[static_cast<std::size_t>(x.col)];
    if (x.row == x.col ? x.rank != -1 : t.begin < s.end) return bad("block outside the lower triangle");
    const std::uint64_t m = dofs * static_cast<std::uint64_t>(t.size()),
                        n = dofs * static_cast<std::uint64_t>(s.size());
    if (x.rank >= 0 && static_cast<std::uint64_t>(x.rank) > std::min(m, n)) return bad("block rank");
    const std::uint64_t size = x.rank < 0 ? m * n : static_cast<std::uint64_t>(x.rank) * (m + n);
    if (x.offset > nvalues || size > nvalues - x.offset) return bad("block values out of range");
    const long double ts = t.size(), ss = s.size();
    area += x.row == x.col ? ts * (ts + 1) / 2 : ts * ss;
  }
  const long double np = static_cast<long double>(points);
  if (area != np * (np + 1) / 2) return bad("blocks do not cover the matrix");

  // Each block is listed once per leaf of its clusters (the column lookup index): bound that by the
  // input's size, so a small forged table cannot ask for a huge index.
  {
    std::vector<std::uint64_t> leaves_in(clusters.size(), 1);
    for (std::size_t c = clusters.size(); c-- > 0;)
      if (!clusters[c].leaf())
        leaves_in[c] = leaves_in[static_cast<std::size_t>(clusters[c].child[0])] +
                       leaves_in[static_cast<std::size_t>(clusters[c].child[1])];
    std::uint64_t hits = 0;
    for (const HBlock& b : blocks)
      hits += leaves_in[static_cast<std::size_t>(b.col)] +
              (b.row != b.col ? leaves_in[static_cast<std::size_t>(b.row)] : 0);
    if (hits > bytes.size() + (std::uint64_t{1} << 20)) return bad("block table too large for its size");
  }
  std::shared_ptr<const void> storage = std::move(keep_alive);
  const float* values = nullptr;
  if (reinterpret_cast<std::uintptr_t>(p) % alignof(float) == 0) {
    values = reinterpret_cast<const float*>(p);
  } else {
    auto copy = std::make_shared<std::vector<float>>(static_cast<std::size_t>(nvalues));
    if (nvalues) std::memcpy(copy->data(), p, 4 * nvalues);
    values = copy->data();
    storage = copy;
  }
  for (std::uint64_t k = 0; k < nvalues; ++k)
    if (!std::isfinite(values[k])) return bad("non-finite value");
  return from_parts(ClusterTree::from_parts(std::move(order), std::move(clusters)), static_cast<int>(dofs),
                    std::move(blocks), tolerance, std::move(storage),
                    std::span<const float>(values, static_cast<std::size_t>(nvalues)));
}

}  // namespace pliant::linalg
