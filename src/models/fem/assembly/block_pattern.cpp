#include "models/fem/assembly/block_pattern.hpp"

#include "pliant/core/topology.hpp"

#include <algorithm>

namespace pliant::fem::detail {

BlockPattern BlockPattern::build(Index node_count, const std::vector<Edge>& edges) {
  const Adjacency adj = vertex_adjacency(node_count, edges);
  const Index n = std::max<Index>(node_count, 0);
  BlockPattern p;
  p.offsets.assign(static_cast<std::size_t>(n) + 1, 0);
  for (Index a = 0; a < n; ++a) p.offsets[a + 1] = p.offsets[a] + (adj.offsets[a + 1] - adj.offsets[a]) + 1;
  p.nodes.resize(static_cast<std::size_t>(p.offsets[n]));
  for (Index a = 0; a < n; ++a) {
    Index* out = p.nodes.data() + p.offsets[a];
    const Index* first = adj.neighbors.data() + adj.offsets[a];
    const Index* last = adj.neighbors.data() + adj.offsets[a + 1];
    const Index* split = std::lower_bound(first, last, a);
    out = std::copy(first, split, out);
    *out++ = a;
    std::copy(split, last, out);
  }
  return p;
}

Index BlockPattern::slot(std::span<const Index> offsets, std::span<const Index> nodes, Index a, Index b) {
  const Index* first = nodes.data() + offsets[static_cast<std::size_t>(a)];
  const Index* last = nodes.data() + offsets[static_cast<std::size_t>(a) + 1];
  const Index* it = std::lower_bound(first, last, b);
  return it != last && *it == b ? static_cast<Index>(it - first) : -1;
}

void BlockPattern::write(std::span<const Index> offsets, std::span<const Index> nodes, SparseMatrix& K) {
  const auto n = static_cast<Index>(offsets.size()) - 1, size = 3 * n, nnz = 9 * offsets.back();
  if (!(K.rows() == size && K.cols() == size && K.isCompressed() && K.nonZeros() == nnz)) {
    K.resize(size, size);
    K.resizeNonZeros(nnz);
  }
  int* outer = K.outerIndexPtr();
  int* inner = K.innerIndexPtr();
  for (Index a = 0; a < n; ++a) {
    const Index deg = offsets[a + 1] - offsets[a];
    for (int c = 0; c < 3; ++c) {
      const Index start = 9 * offsets[a] + 3 * deg * c;
      outer[3 * a + c] = start;
      for (Index s = 0; s < deg; ++s)
        for (int r = 0; r < 3; ++r) inner[start + 3 * s + r] = 3 * nodes[offsets[a] + s] + r;
    }
  }
  outer[size] = nnz;
}

}  // namespace pliant::fem::detail
