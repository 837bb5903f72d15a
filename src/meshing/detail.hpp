// Private helpers shared by the procedural builders: parameter checks with one-line messages, and
// the split of a structured lattice cell into tetrahedra.
#pragma once

#include "pliant/core/result.hpp"
#include "pliant/core/types.hpp"
#include "pliant/meshing/box.hpp"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace pliant::meshing::detail {

/// Shortest round-trippable-enough text for a number in a message ("0.1", "1e-09", "nan").
std::string num(double v);

/// "SHAPE: FIELD must be > 0 (got V)" unless v is finite and positive.
std::optional<Error> require_positive(const char* shape, const char* field, double v);
/// "SHAPE: FIELD must be finite (got V)" unless v is finite.
std::optional<Error> require_finite(const char* shape, const char* field, double v);
/// "SHAPE: FIELD must be at least LO (got V)" unless v ≥ lo.
std::optional<Error> require_at_least(const char* shape, const char* field, long long v, long long lo);
/// "SHAPE: N elements exceed the limit of kMaxElements" when `elements` is too many.
std::optional<Error> require_element_budget(const char* shape, long double elements);

/// Integer coordinates of a lattice node in the builder's parameter space. The parameter space must be
/// mapped to space by an orientation-preserving map so that the sign computed here is the sign of the
/// physical volume.
using LatticePoint = std::array<int, 3>;

/// Splits one lattice cell into tets and appends them to `out`, each positively oriented in parameter
/// space. `node[v]` and `point[v]` describe local vertex v = a + 2b + 4c (a, b, c ∈ {0, 1} along the
/// three parameter axes). The six-tet split runs around the diagonal v0-v7; the five-tet split uses
/// the central tet {v0, v3, v5, v6} when `odd` is false and {v1, v2, v4, v7} when it is true.
void split_cell(const std::array<Index, 8>& node, const std::array<LatticePoint, 8>& point, CellSplit split,
                bool odd, std::vector<Tet>& out);

}  // namespace pliant::meshing::detail
