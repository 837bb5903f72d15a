// Mesh validation with precise findings: every problem a reader or mesher can hand us (bad indices,
// NaN coordinates, flat or inverted tets, duplicate or unused nodes, non-manifold surfaces, several
// pieces), each as one line naming the element or node at fault.
//
// Findings are capped per code (ValidateOptions::max_findings_per_code, then one "... and N more"
// finding), so a hostile file cannot produce gigabytes of messages; counts always hold the full
// totals. Every check is O(n log n): sorting for topology, a spatial hash for duplicate nodes.
#pragma once

#include "pliant/core/tet_mesh.hpp"
#include "pliant/core/tri_mesh.hpp"
#include "pliant/core/types.hpp"

#include <map>
#include <string>
#include <vector>

namespace pliant {

enum class Severity {
  info,     ///< something was noticed or repaired (a reoriented tet)
  warning,  ///< usable, but probably not what was meant (unused nodes, several components)
  error,    ///< the mesh cannot be simulated as is
};

const char* to_string(Severity severity);

/// One problem. Codes (stable, for scripts and tests):
///   index_out_of_range, repeated_node, non_finite, degenerate, inverted, reoriented,
///   duplicate_element, duplicate_node, unreferenced_node, non_manifold_face, non_manifold_edge,
///   open_edge, inconsistent_orientation, inside_out (a closed surface wound inward: negative enclosed
///   volume), components, empty.
/// The capped remainder of a code is one finding with the same code, element -1 and the message
/// "... and N more CODE findings".
struct Finding {
  Severity severity = Severity::error;
  std::string code;     ///< one of the codes above
  std::string message;  ///< one line naming the element or node, e.g. "tet 40: inverted (volume -1.2e-09 m³)"
  /// The tet or triangle (element codes), the node (node codes), the lowest node of the edge or face
  /// (edge and face codes), or -1 for mesh-wide findings.
  Index element = -1;
};

struct ValidationReport {
  std::vector<Finding> findings;  ///< at most max_findings_per_code per code, + one "... and N more" each
  std::map<std::string, Index> counts;  ///< code -> total number of occurrences (uncapped)
  Index errors = 0;                     ///< total error occurrences (uncapped)
  Index warnings = 0;                   ///< total warning occurrences (uncapped)

  /// No errors (warnings and infos allowed).
  bool ok() const { return errors == 0; }
  /// Occurrences of one code (0 if none).
  Index count(const std::string& code) const {
    const auto it = counts.find(code);
    return it == counts.end() ? 0 : it->second;
  }
  /// The first error's message, or "" when ok(): the one line a loader returns.
  std::string first_error() const;
};

struct ValidateOptions {
  /// A tet is degenerate when |V| / L_max³ is below this (L_max its longest edge); a triangle when
  /// |A| / L_max² is. A regular tet has 1/(6√2) ≈ 0.118. Default 1e-8: such an element is stiffer
  /// than a regular one of the same size by a factor ~1/ratio, i.e. ≥ 1e8, which consumes half of
  /// double precision's 16 digits in a factorisation; it also sits far above the ~1e-16 relative
  /// rounding error of the volume itself, so the test never flags a sound element by noise.
  double degenerate_ratio = 1e-8;
  /// Flip inverted tets (swap their last two nodes, reported as "reoriented" infos) instead of
  /// reporting them as errors. Only the non-const overload can do it.
  bool reorient = false;
  /// Nodes closer than this times the bounding-box diagonal are duplicates. Default 1e-7: coincident
  /// nodes written through single precision differ by ~1e-7 relative, while any real mesh's nodes are
  /// far more than 1e-7 diagonals apart (a billion-tet mesh has edges ~1e-3 diagonals).
  double duplicate_tolerance = 1e-7;
  /// A TriMesh that must be closed (a surface to tetrahedralise, a collision hull): open edges become
  /// errors instead of infos (membranes are open by design).
  bool require_closed = false;
  /// Findings stored per code before the rest are only counted.
  Index max_findings_per_code = 20;
};

/// Validates a tet mesh; with options.reorient, flips inverted tets in place.
ValidationReport validate(TetMesh& mesh, const ValidateOptions& options = {});
/// Validates without modifying: inverted tets are always errors.
ValidationReport validate(const TetMesh& mesh, const ValidateOptions& options = {});
/// Validates a triangle mesh (degenerate triangles, open or non-manifold edges, orientation).
ValidationReport validate(const TriMesh& mesh, const ValidateOptions& options = {});

}  // namespace pliant
