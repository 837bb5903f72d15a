#include "pliant/scene/phyxel_output.hpp"

#include "pliant/core/point_set.hpp"
#include "pliant/io/vtu.hpp"
#include "pliant/models/meshless/phyxel_fields.hpp"

namespace pliant::scene {

Status write_phyxels_vtu(const std::filesystem::path& path, const meshless::MlsBody& body,
                         std::span<const Vec3> x) {
  if (x.size() != body.rest.size())
    return Error{path.string() + ": cannot write: positions do not match the phyxels"};
  PointSet points{{x.begin(), x.end()}};
  meshless::PhyxelFields f = meshless::phyxel_fields(body, x);
  return io::write_vtu(
      path, points,
      {io::Field{"displacement", 3, std::move(f.displacement)}, io::Field{"strain", 1, std::move(f.strain)},
       io::Field{"stress", 1, std::move(f.stress)}, io::Field{"volume_change", 1, std::move(f.volume_change)},
       io::Field{"volume", 1, std::move(f.volume)}});
}

}  // namespace pliant::scene
