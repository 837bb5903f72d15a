// Cutting a meshless body without a mesh: a blade's cutting edge swept over a step removes every
// neighbour link that crosses the surface it swept (the visibility criterion of Steinemann, Otaduy &
// Gross 2006 and Pauly et al. 2005: two phyxels interact only if the segment between them does not
// cross the cut), and the phyxels that lost links get their rest constants recomputed from the
// neighbours left. Mass is untouched: the pieces keep every phyxel.
#pragma once

#include "pliant/core/event_brief.hpp"
#include "pliant/core/types.hpp"
#include "pliant/models/meshless/mls_body.hpp"

#include <span>
#include <string_view>
#include <vector>

namespace pliant::meshless {

/// The segment (a0, b0) swept to (a1, b1) (unit: m); the swept surface is the cut, taken as the two
/// triangles (a0, b0, b1) and (a0, b1, a1).
struct Blade {
  Vec3 a0 = Vec3::Zero(), b0 = Vec3::Zero();
  Vec3 a1 = Vec3::Zero(), b1 = Vec3::Zero();
};

/// A phyxel that lost links to a cut.
struct CutEvent {
  static constexpr std::string_view category = "cut";
  Index phyxel = -1;             ///< the phyxel whose neighbourhood changed
  Index links_removed = 0;       ///< its outgoing links removed
  Vec3 position = Vec3::Zero();  ///< where it is (unit: m)
  EventBrief brief() const {
    return {"cut", -1, position, "links_removed", static_cast<double>(links_removed)};
  }
};

/// The blade's swept surface prepared for testing many segments: a segment whose ends lie clearly on
/// one side of a triangle's plane cannot cross that triangle, so it is rejected with two dot products
/// before the exact test (Möller & Trumbore 1997). Rejection needs both ends farther from the plane
/// than 1e-9 of the blade's size, far above rounding, so the answer is always the exact test's.
class BladeCrossing {
 public:
  explicit BladeCrossing(const Blade& blade);
  /// Whether the segment p-q (unit: m) crosses the swept surface.
  bool operator()(const Vec3& p, const Vec3& q) const;

 private:
  Blade blade_;
  Vec3 normal_[2];    // unnormalised normals of (a0, b0, b1) and (a0, b1, a1) (unit: m²)
  double margin_[2];  // |normal| · 1e-9 · the blade's size (unit: m³)
};

/// Whether the segment p-q (unit: m) crosses the blade's swept surface (one BladeCrossing test).
bool crosses(const Blade& blade, const Vec3& p, const Vec3& q);

/// The swept surface's area (unit: m²).
double swept_area(const Blade& blade);

/// Removes every link i → j of `body` whose segment between the current positions x[i], x[j] crosses
/// the blade, recomputes A_i⁻¹, d_ij and Σ_j d_ij of every phyxel that lost links (regularising a
/// neighbourhood left degenerate, as the build does, without enlarging it across the cut), and
/// rebuilds the by-target link lists. Appends one event per affected phyxel to `events`. Returns
/// the number of links removed. Allocates (a cut is rare).
Index cut_links(MlsBody& body, std::span<const Vec3> x, const Blade& blade, double max_condition,
                std::vector<CutEvent>& events);

}  // namespace pliant::meshless
