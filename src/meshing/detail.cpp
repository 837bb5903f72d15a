#include "meshing/detail.hpp"

#include <cmath>
#include <cstdio>
#include <utility>

namespace pliant::meshing::detail {

std::string num(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.6g", v);
  return buffer;
}

std::optional<Error> require_positive(const char* shape, const char* field, double v) {
  if (std::isfinite(v) && v > 0) return std::nullopt;
  return Error{std::string(shape) + ": " + field + " must be a finite number > 0 (got " + num(v) + ")"};
}

std::optional<Error> require_finite(const char* shape, const char* field, double v) {
  if (std::isfinite(v)) return std::nullopt;
  return Error{std::string(shape) + ": " + field + " must be finite (got " + num(v) + ")"};
}

std::optional<Error> require_at_least(const char* shape, const char* field, long long v, long long lo) {
  if (v >= lo) return std::nullopt;
  return Error{std::string(shape) + ": " + field + " must be at least " + std::to_string(lo) + " (got " +
               std::to_string(v) + ")"};
}

std::optional<Error> require_element_budget(const char* shape, long double elements) {
  if (elements <= static_cast<long double>(kMaxElements)) return std::nullopt;
  return Error{std::string(shape) + ": the parameters ask for " + num(static_cast<double>(elements)) +
               " elements, more than the limit of " + num(static_cast<double>(kMaxElements))};
}

namespace {

int orientation(const LatticePoint& a, const LatticePoint& b, const LatticePoint& c, const LatticePoint& d) {
  const long long u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
  const long long v[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
  const long long w[3] = {d[0] - a[0], d[1] - a[1], d[2] - a[2]};
  const long long det = u[0] * (v[1] * w[2] - v[2] * w[1]) - u[1] * (v[0] * w[2] - v[2] * w[0]) +
                        u[2] * (v[0] * w[1] - v[1] * w[0]);
  return det > 0 ? 1 : (det < 0 ? -1 : 0);
}

void emit(const std::array<Index, 8>& node, const std::array<LatticePoint, 8>& point, std::array<int, 4> v,
          std::vector<Tet>& out) {
  if (orientation(point[v[0]], point[v[1]], point[v[2]], point[v[3]]) < 0) std::swap(v[2], v[3]);
  out.push_back({node[v[0]], node[v[1]], node[v[2]], node[v[3]]});
}

}  // namespace

void split_cell(const std::array<Index, 8>& node, const std::array<LatticePoint, 8>& point, CellSplit split,
                bool odd, std::vector<Tet>& out) {
  if (split == CellSplit::six) {
    // Kuhn's triangulation: one tet per monotone path v0 -> v7 along the axes in each of the 3! orders.
    static constexpr int kAxis[6][3] = {{1, 2, 4}, {1, 4, 2}, {2, 1, 4}, {2, 4, 1}, {4, 1, 2}, {4, 2, 1}};
    for (const auto& order : kAxis) emit(node, point, {0, order[0], order[0] + order[1], 7}, out);
    return;
  }
  // Five tets: the central tet on four mutually non-adjacent vertices, and the four corners cut off.
  if (!odd) {
    emit(node, point, {0, 3, 5, 6}, out);
    emit(node, point, {1, 0, 3, 5}, out);
    emit(node, point, {2, 0, 3, 6}, out);
    emit(node, point, {4, 0, 5, 6}, out);
    emit(node, point, {7, 3, 5, 6}, out);
  } else {
    emit(node, point, {1, 2, 4, 7}, out);
    emit(node, point, {0, 1, 2, 4}, out);
    emit(node, point, {3, 1, 2, 7}, out);
    emit(node, point, {5, 1, 4, 7}, out);
    emit(node, point, {6, 2, 4, 7}, out);
  }
}

}  // namespace pliant::meshing::detail
