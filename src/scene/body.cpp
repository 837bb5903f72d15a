#include "pliant/scene/body.hpp"

#include "pliant/scene/capabilities.hpp"

#include <algorithm>

namespace pliant::scene {

const EventLog& Body::events() const {
  static const EventLog none;
  return none;
}

std::vector<SurfaceField> copy_fields(const Body& body) {
  std::vector<SurfaceField> out;
  const auto infos = body.fields();
  for (std::size_t i = 0; i < infos.size(); ++i) {
    SurfaceField f{std::string(infos[i].name), std::string(infos[i].unit),
                   std::vector<double>(body.surface_positions().size())};
    body.fill_field(i, f.value);
    out.push_back(std::move(f));
  }
  return out;
}

int find_field(const Body& body, std::string_view name) {
  const auto infos = body.fields();
  for (std::size_t i = 0; i < infos.size(); ++i) {
    if (infos[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

std::vector<Index> surface_nodes_among(std::span<const Index> surface_to_volume,
                                       std::span<const Index> volume_nodes) {
  std::vector<Index> sorted(volume_nodes.begin(), volume_nodes.end());
  std::sort(sorted.begin(), sorted.end());
  std::vector<Index> out;
  for (std::size_t s = 0; s < surface_to_volume.size(); ++s)
    if (std::binary_search(sorted.begin(), sorted.end(), surface_to_volume[s]))
      out.push_back(static_cast<Index>(s));
  return out;
}

double gravity_potential(std::span<const double> mass, std::span<const Vec3> x, const Vec3& g) {
  double potential = 0.0;
  for (std::size_t i = 0; i < mass.size() && i < x.size(); ++i) potential -= mass[i] * g.dot(x[i]);
  return potential;
}

}  // namespace pliant::scene
