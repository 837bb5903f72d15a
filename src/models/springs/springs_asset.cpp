// The immutable initial network of a mass-spring body (Grimm 2005) and its content key.
#include "pliant/models/springs/springs_asset.hpp"

#include "pliant/core/hash.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <string_view>
#include <vector>

namespace pliant::springs {
namespace {

// Bumped whenever what build() makes from the same inputs changes, so a key never names an asset
// built by older code.
constexpr std::uint64_t kFormatVersion = 1;

// The fixed set, not the order it was listed in, changes the asset.
std::vector<Index> sorted_unique(std::span<const Index> nodes) {
  std::vector<Index> v(nodes.begin(), nodes.end());
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

// The key of a build from a rest mesh: its kind, the def, the fixed set, then the nodes and elements
// (triangles or tets), each array after its size.
template <class Element>
std::uint64_t mesh_key(std::string_view kind, const SpringMeshDef& def, std::span<const Index> fixed_nodes,
                       const std::vector<Vec3>& positions, const std::vector<Element>& elements) {
  Hasher h;
  h.add_value(kFormatVersion).add(kind);
  h.add_value(def.stiffness).add_value(def.damping).add_value(def.mass_density).add_value(def.node_mass);
  h.add_value(def.max_stretch);
  const std::vector<Index> fixed = sorted_unique(fixed_nodes);
  h.add_value(fixed.size()).add(fixed);
  h.add_value(positions.size()).add(positions);
  h.add_value(elements.size()).add(elements);
  return h.value();
}

}  // namespace

Result<std::shared_ptr<const SpringsAsset>> SpringsAsset::finish(Result<SpringMesh> mesh,
                                                                 std::span<const Index> fixed_nodes,
                                                                 std::uint64_t key) {
  if (!mesh.ok()) return mesh.error();
  for (Index n : fixed_nodes) {
    if (n < 0 || n >= mesh->node_count())
      return Error{
          fmt::format("springs: fixed node {} is outside the mesh ({} nodes)", n, mesh->node_count())};
    mesh->set_fixed(n, true);
  }
  return std::shared_ptr<const SpringsAsset>(new SpringsAsset(std::move(*mesh), key));
}

Result<std::shared_ptr<const SpringsAsset>> SpringsAsset::build(const TriMesh& membrane,
                                                                const SpringMeshDef& def,
                                                                std::span<const Index> fixed_nodes) {
  return finish(build_spring_mesh(membrane, def), fixed_nodes, key_of(membrane, def, fixed_nodes));
}

Result<std::shared_ptr<const SpringsAsset>> SpringsAsset::build(const TetMesh& volume,
                                                                const SpringMeshDef& def,
                                                                std::span<const Index> fixed_nodes) {
  return finish(build_spring_mesh(volume, def), fixed_nodes, key_of(volume, def, fixed_nodes));
}

std::shared_ptr<const SpringsAsset> SpringsAsset::from_mesh(SpringMesh mesh) {
  const std::uint64_t key = key_of(mesh);
  return std::shared_ptr<const SpringsAsset>(new SpringsAsset(std::move(mesh), key));
}

std::uint64_t SpringsAsset::key_of(const TriMesh& membrane, const SpringMeshDef& def,
                                   std::span<const Index> fixed_nodes) {
  return mesh_key("membrane", def, fixed_nodes, membrane.positions, membrane.triangles);
}

std::uint64_t SpringsAsset::key_of(const TetMesh& volume, const SpringMeshDef& def,
                                   std::span<const Index> fixed_nodes) {
  return mesh_key("volume", def, fixed_nodes, volume.positions, volume.tets);
}

std::uint64_t SpringsAsset::key_of(const SpringMesh& mesh) {
  Hasher h;
  h.add_value(kFormatVersion).add(std::string_view("spring_mesh"));
  // Sizes first, so arrays of different lengths never hash alike by concatenation.
  const auto add = [&h](const auto& array) { h.add_value(array.size()).add(array); };
  mesh.for_each_node_array(add);
  mesh.for_each_spring_array(add);
  mesh.for_each_triangle_array(add);
  add(mesh.tets);
  // The incidence order is the order forces are summed in: it changes results bit for bit.
  for (Index n = 0; n < mesh.node_count(); ++n) {
    const std::span<const Index> s = mesh.node_springs.of(n), t = mesh.node_triangles.of(n);
    h.add_value(s.size()).add(s).add_value(t.size()).add(t);
  }
  return h.value();
}

}  // namespace pliant::springs
