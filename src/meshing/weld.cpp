#include "pliant/meshing/weld.hpp"

#include "pliant/core/hash.hpp"

#include <unordered_map>
#include <vector>

namespace pliant::meshing {

namespace {

struct Key {
  double x, y, z;
  bool operator==(const Key& o) const { return x == o.x && y == o.y && z == o.z; }
};

struct KeyHash {
  std::size_t operator()(const Key& k) const {
    // +0.0 and −0.0 compare equal, so hash them alike.
    const double v[3] = {k.x == 0 ? 0.0 : k.x, k.y == 0 ? 0.0 : k.y, k.z == 0 ? 0.0 : k.z};
    return static_cast<std::size_t>(hash_bytes(v, sizeof v));
  }
};

}  // namespace

TriMesh weld_identical_nodes(const TriMesh& soup, std::vector<Index>* first_index) {
  TriMesh out;
  std::unordered_map<Key, Index, KeyHash> first;
  first.reserve(soup.positions.size());
  std::vector<Index> remap(soup.positions.size(), -1);
  const auto n = static_cast<Index>(soup.positions.size());
  const auto map_node = [&](Index v) {
    if (v < 0 || v >= n) return v;  // left for check_closed_surface to report
    if (remap[v] < 0) {
      const Vec3& p = soup.positions[v];
      const auto [it, inserted] =
          first.try_emplace(Key{p.x(), p.y(), p.z()}, static_cast<Index>(out.positions.size()));
      if (inserted) {
        out.positions.push_back(p);
        if (first_index) first_index->push_back(v);
      }
      remap[v] = it->second;
    }
    return remap[v];
  };
  if (first_index) first_index->clear();
  out.triangles.reserve(soup.triangles.size());
  for (const Tri& t : soup.triangles)
    out.triangles.push_back({map_node(t[0]), map_node(t[1]), map_node(t[2])});
  return out;
}

}  // namespace pliant::meshing
