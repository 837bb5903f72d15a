// Region: a named set of mesh nodes (fixed supports, loaded nodes, grab targets), written the same
// way on the command line (`--fix REGION`) and in scene files.
//
// Mini-syntax accepted by parse_region (spaces around tokens are ignored, numbers in m):
//   x<0.001  y<=0  z>0.2  z>=0.2     half-space: axis, comparison, value
//   box:x0,y0,z0,x1,y1,z1             axis-aligned box, corners (inclusive)
//   sphere:cx,cy,cz,r                 closed ball, centre and radius
//   nodes:1,2,3,10-19                 explicit node indices, ranges inclusive
//   xmin  xmax  ymin  ymax  zmin  zmax   nodes on that face of the mesh's bounding box, within
//   xmin:0.001 ...                       1e-6 of the box diagonal, or within the given tolerance
//   y<20%  z>=90%                     half-space relative to the bounding box: y below ymin + 20% of
//                                     the box's extent along y (0% = the min face, 100% = the max face)
//   xmin+2%  zmax-5%                  the band of 2% (5%) of the box's extent along that axis inside
//   xmin:2%                           the min (max) face; xmin+0.003 is xmin:0.003 (in m)
// Relative forms are evaluated on the positions they select from (the mesh after its units and
// transform), so `y<20%` means the same part of a mesh at any scale or placement.
// Half-spaces use the comparison exactly as written, so `x<=0` on a mesh whose face is at x = 0
// catches it but `x<0` does not; `xmin` is the robust way to say "the left face".
#pragma once

#include "pliant/core/result.hpp"
#include "pliant/core/types.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace pliant {

enum class Comparison { less, less_equal, greater, greater_equal };

/// Nodes with x[axis] <cmp> value.
struct HalfSpaceRegion {
  int axis = 0;  ///< 0 = x, 1 = y, 2 = z
  Comparison comparison = Comparison::less;
  double value = 0;       ///< plane position (unit: m), or (relative) percent of the bounding box's extent
  bool relative = false;  ///< value is a percentage of the extent along axis, measured from its min
};

/// Nodes inside the closed box [min, max].
struct BoxRegion {
  Vec3 min = Vec3::Zero();  ///< lower corner (unit: m)
  Vec3 max = Vec3::Zero();  ///< upper corner (unit: m)
};

/// Nodes inside the closed ball.
struct SphereRegion {
  Vec3 centre = Vec3::Zero();  ///< centre (unit: m)
  double radius = 0;           ///< radius (unit: m)
};

/// Nodes given by index.
struct NodeListRegion {
  std::vector<Index> nodes;  ///< node indices, in the order written (duplicates removed on selection)
};

/// Nodes on one face of the mesh's bounding box: x[axis] within tolerance of its min or max.
struct ExtremeRegion {
  int axis = 0;                     ///< 0 = x, 1 = y, 2 = z
  bool upper = false;               ///< false: the min face; true: the max face
  std::optional<double> tolerance;  ///< (unit: m); unset: 1e-6 · bounding-box diagonal
  /// Band width as a percentage of the bounding box's extent along axis (unit: %); overrides tolerance.
  std::optional<double> tolerance_percent{};
};

using Region = std::variant<HalfSpaceRegion, BoxRegion, SphereRegion, NodeListRegion, ExtremeRegion>;

/// Parses the mini-syntax above. Errors name the text and what was expected, e.g.
/// `region "box:0,0,1": box needs 6 numbers (x0,y0,z0,x1,y1,z1), got 3`.
Result<Region> parse_region(std::string_view text);

/// The canonical text of a region; parse_region(to_string(r)) gives r back.
std::string to_string(const Region& region);

/// Indices of the nodes in the region, ascending and unique. Node-list entries outside
/// [0, #positions) are skipped: call check_region first to report them.
std::vector<Index> select_nodes(const std::vector<Vec3>& positions, const Region& region);

/// Fails when a node-list region names a node outside [0, node_count), naming the first such node.
Status check_region(const Region& region, std::size_t node_count);

}  // namespace pliant
