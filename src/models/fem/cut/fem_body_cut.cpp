// FemBody: the cut of a hybrid body's operational region by a moving blade, in stages: follow the sweep,
// skip a stroke that misses the region or is still short, pick the trimmed stroke and the tets it may
// cut, cut them (fem::cut_tets), update the hybrid solver locally and re-extract the surface.
#include "pliant/models/fem/fem_body.hpp"

#include <algorithm>
#include <limits>

namespace pliant::fem {

namespace {

// The operational flags and materials of the cut mesh (nt tets): a kept tet keeps its own, a new tet
// takes its parent's. One material stays one material.
void remap_tet_data(const TetCutResult& cut, std::span<const Index> tet_map, std::size_t nt,
                    const std::vector<std::uint8_t>& old_operational,
                    const std::vector<materials::Material>& old_materials,
                    std::vector<std::uint8_t>& operational, std::vector<materials::Material>& materials) {
  const std::size_t first_new = nt - cut.new_tets.size();
  const bool per_tet = old_materials.size() > 1;
  operational.assign(nt, 1);
  materials.clear();
  if (per_tet) materials.resize(nt);
  for (std::size_t t = 0; t < tet_map.size(); ++t) {
    const Index to = tet_map[t];
    if (to < 0) continue;
    operational[static_cast<std::size_t>(to)] = old_operational[t];
    if (per_tet) materials[static_cast<std::size_t>(to)] = old_materials[t];
  }
  if (per_tet) {
    for (std::size_t k = 0; k < cut.new_tets.size(); ++k)
      materials[first_new + k] = old_materials[static_cast<std::size_t>(cut.new_tet_parent[k])];
  } else {
    materials = old_materials;
  }
}

}  // namespace

// The sweep is accumulated from where the blade started moving in its current direction (fem::cut_tets
// needs the sweep since the blade entered the body to open earlier fronts). A turn, or a blade that does
// not start where the last step left it, starts a new sweep (the accumulated quadrilateral is the swept
// surface only for a blade that keeps its direction).
void FemBody::track_sweep(const TetCutBlade& b, double scale) {
  const Vec3 da = b.a1 - b.a0, db = b.b1 - b.b0;
  bool continues =
      sweeping_ && (b.a0 - last_a1_).norm() <= 1e-9 * scale && (b.b0 - last_b1_).norm() <= 1e-9 * scale;
  const auto same_direction = [](const Vec3& step, const Vec3& so_far) {
    return step.norm() == 0.0 || so_far.norm() == 0.0 ||
           (step.normalized() - so_far.normalized()).norm() <= 1e-6;
  };
  if (continues && !(same_direction(da, b.a0 - sweep_a0_) && same_direction(db, b.b0 - sweep_b0_)))
    continues = false;
  if (!continues) {
    sweep_a0_ = cut_a_ = b.a0;
    sweep_b0_ = cut_b_ = b.b0;
    sweeping_ = true;
  }
  last_a1_ = b.a1;
  last_b1_ = b.b1;
}

// Whether the stroke not cut yet misses the bounds of the operational nodes.
bool FemBody::stroke_misses_region(const TetCutBlade& b) const {
  Vec3 lo = Vec3::Constant(std::numeric_limits<double>::infinity()), hi = -lo;
  for (Index i : hybrid_->operational_nodes()) {
    lo = lo.cwiseMin(x_[static_cast<std::size_t>(i)]);
    hi = hi.cwiseMax(x_[static_cast<std::size_t>(i)]);
  }
  const Vec3 slo = cut_a_.cwiseMin(cut_b_).cwiseMin(b.a1).cwiseMin(b.b1);
  const Vec3 shi = cut_a_.cwiseMax(cut_b_).cwiseMax(b.a1).cwiseMax(b.b1);
  return (shi.array() < lo.array()).any() || (slo.array() > hi.array()).any();
}

// The bounds of tet t at the current positions (unit: m).
void FemBody::tet_bounds(std::size_t t, Vec3& lo, Vec3& hi) const {
  const Tet& tet = asset_->rest().tets[t];
  lo = x_[static_cast<std::size_t>(tet[0])];
  hi = lo;
  for (Index a : tet) {
    lo = lo.cwiseMin(x_[static_cast<std::size_t>(a)]);
    hi = hi.cwiseMax(x_[static_cast<std::size_t>(a)]);
  }
}

// The largest bounding-box side of an operational tet (unit: m).
double FemBody::largest_operational_extent() const {
  double extent = 0.0;
  for (std::size_t t = 0; t < asset_->rest().tets.size(); ++t) {
    if (!step_.operational[t]) continue;
    Vec3 tlo, thi;
    tet_bounds(t, tlo, thi);
    extent = std::max(extent, (thi - tlo).maxCoeff());
  }
  return extent;
}

// The sweep handed to cut_tets: the accumulated one, trimmed to the stroke not cut yet (`pending`, unit:
// m) and twice the largest tet extent behind it. That covers the tets around the front the last cut left
// (so it opens), while the material further behind, which may have moved across the world-fixed surface
// since the blade passed, is not cut again. Only operational tets whose bounds meet the trimmed sweep's
// bounds grown by that extent are cuttable (the tets around every edge it crosses are in). None when no
// tet is near the stroke.
std::optional<FemBody::Stroke> FemBody::select_stroke(const TetCutBlade& b, double pending, double extent) {
  const double stroke = std::max((b.a1 - sweep_a0_).norm(), (b.b1 - sweep_b0_).norm());
  const double keep = pending + 2.0 * extent;
  const double share = stroke > keep ? keep / stroke : 1.0;
  const TetCutBlade blade{b.a1 + share * (sweep_a0_ - b.a1), b.b1 + share * (sweep_b0_ - b.b1), b.a1, b.b1};
  cut_a_ = b.a1;
  cut_b_ = b.b1;
  const Vec3 band_lo = blade.a0.cwiseMin(blade.b0).cwiseMin(b.a1).cwiseMin(b.b1) - Vec3::Constant(extent);
  const Vec3 band_hi = blade.a0.cwiseMax(blade.b0).cwiseMax(b.a1).cwiseMax(b.b1) + Vec3::Constant(extent);
  const std::size_t old_t = asset_->rest().tets.size();
  std::vector<std::uint8_t> cuttable(old_t, 0);
  std::size_t near = 0;
  for (std::size_t t = 0; t < old_t; ++t) {
    if (!step_.operational[t]) continue;
    Vec3 tlo, thi;
    tet_bounds(t, tlo, thi);
    if ((band_hi.array() < tlo.array()).any() || (band_lo.array() > thi.array()).any()) continue;
    cuttable[t] = 1;
    ++near;
  }
  if (near == 0) return std::nullopt;
  return Stroke{blade, std::move(cuttable)};
}

bool FemBody::cut(const TetCutBlade& b) {
  if (!hybrid_ || !(b.a0.allFinite() && b.b0.allFinite() && b.a1.allFinite() && b.b1.allFinite()))
    return false;
  const double scale = std::max((b.b0 - b.a0).norm(), 1e-300);
  track_sweep(b, scale);
  // A step in which the blade does not move cuts what is left of the stroke, if anything.
  const bool moving = (b.b1 - b.a0).cross(b.a1 - b.b0).norm() > 1e-12 * scale * scale;
  const double pending = std::max((b.a1 - cut_a_).norm(), (b.b1 - cut_b_).norm());
  if (pending <= 1e-12 * scale) return false;
  if (stroke_misses_region(b)) {
    cut_a_ = b.a1;
    cut_b_ = b.b1;
    return false;
  }
  // The blade cuts in strokes of at least the largest tet extent (or what is left when it stops): a
  // front re-cut every short step would be re-tetrahedralised again and again.
  const double extent = largest_operational_extent();
  if (moving && pending < extent) return false;
  const std::optional<Stroke> stroke = select_stroke(b, pending, extent);
  if (!stroke) return false;
  std::vector<std::uint8_t> frozen(asset_->rest().positions.size(), 0);
  for (Index i : hybrid_->interface_nodes()) frozen[static_cast<std::size_t>(i)] = 1;
  for (Index i : def_.fixed_nodes) frozen[static_cast<std::size_t>(i)] = 1;
  Result<TetCutResult> result =
      cut_tets(asset_->rest(), x_, stroke->cuttable, frozen, stroke->blade, step_.cut);
  if (!result.ok() || result->empty()) return false;
  return apply_cut(*result);
}

// Applies a cut: the new mesh and state, the hybrid solver's operational part replaced (the condensed
// part kept), the full-body force model rebuilt, the surface re-extracted and the event queued. The cut
// mesh goes into a new asset the body alone holds (copy on write): the asset it had, possibly shared
// with other bodies, is never changed. False, changing nothing, when the new asset cannot be built or
// the solver refuses the new operational part.
bool FemBody::apply_cut(const TetCutResult& cut) {
  const TetMesh& old_rest = asset_->rest();
  // Where the cut happens, before the tets change: the mean centroid of the tets it replaces.
  Vec3 where = Vec3::Zero();
  for (Index t : cut.removed_tets)
    for (Index a : old_rest.tets[static_cast<std::size_t>(t)])
      where += 0.25 * x_[static_cast<std::size_t>(a)];
  if (!cut.removed_tets.empty()) where /= static_cast<double>(cut.removed_tets.size());

  const std::size_t old_n = old_rest.positions.size();
  TetMesh rest = old_rest;
  std::vector<Vec3> x = x_, v = v_;
  const std::vector<Index> tet_map = apply_tet_cut(cut, rest, x, v);
  const std::size_t nt = rest.tets.size();
  std::vector<std::uint8_t> operational;
  std::vector<materials::Material> materials;
  remap_tet_data(cut, tet_map, nt, step_.operational, asset_->materials(), operational, materials);
  std::vector<Tet> op_tets;
  std::vector<materials::Material> op_materials;
  for (std::size_t t = 0; t < nt; ++t) {
    if (!operational[t]) continue;
    op_tets.push_back(rest.tets[t]);
    if (materials.size() > 1) op_materials.push_back(materials[t]);
  }
  if (materials.size() == 1) op_materials = materials;
  Result<std::shared_ptr<const FemAsset>> own = FemAsset::build(std::move(rest), std::move(materials));
  if (!own.ok()) return false;
  const TetMesh& cut_rest = (*own)->rest();
  const std::span<const Vec3> appended(cut_rest.positions.data() + old_n, cut_rest.positions.size() - old_n);
  if (!hybrid_->replace_operational(appended, op_tets, op_materials).ok()) return false;

  asset_ = std::move(own).value();
  x_ = std::move(x);
  v_ = std::move(v);
  step_.operational = std::move(operational);
  def_.tet_elements = hybrid_elements();
  resize_state();
  // The full-body force model (the reactions' and the stresses'); the solver is not rebuilt.
  if (Result<std::unique_ptr<FemForceModel>> model = build_model(); model.ok()) model_ = std::move(*model);
  refresh_surface();
  ++topology_version_;
  pending_cuts_.push_back({cut.tets_split, cut.tets_removed, cut.nodes_added, where});
  return true;
}

// Sizes the per-node and per-tet arrays for the mesh after a cut (a cut only appends nodes).
void FemBody::resize_state() {
  const std::size_t n = asset_->rest().positions.size(), nt = asset_->rest().tets.size();
  for (std::vector<Vec3>* a : {&f_, &pending_, &start_, &start_v_}) a->resize(n, Vec3::Zero());
  fixed_.resize(n, 0);
  held_.resize(n, 0);
  vm_tet_.assign(nt, 0.0);
  vm_node_.assign(n, 0.0);
  volume_node_.assign(n, 0.0);
}

// The current positions of the asset's boundary surface (its triangles, node maps and edge adjacency
// are the asset's). Grabs keep their volume nodes (a cut only appends nodes); their surface numbering
// follows the asset's surface.
void FemBody::refresh_surface() {
  const std::vector<Index>& surface_index = asset_->surface_index();
  const std::vector<Index>& surface_node = asset_->surface_nodes();
  xs_.resize(surface_node.size());
  for (std::size_t k = 0; k < surface_node.size(); ++k)
    xs_[k] = x_[static_cast<std::size_t>(surface_node[k])];
  slots_.for_each([&](Slot& s) {
    for (std::size_t j = 0; j < s.volume_nodes.size(); ++j)
      s.nodes[j] = surface_index[static_cast<std::size_t>(s.volume_nodes[j])];
  });
}

}  // namespace pliant::fem
