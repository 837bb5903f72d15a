// The fem family's modal bodies: a fem::ModalFemBody behind the surface contract, and the "modal" key
// of a fem body read into one.
#include "fem_modal_reader.hpp"
#include "setting_reader.hpp"
#include "soft_grab_patch.hpp"

#include "pliant/core/asset_cache.hpp"
#include "pliant/io/vtu.hpp"
#include "pliant/models/fem/modal/modal_fem_body.hpp"
#include "pliant/scene/capabilities.hpp"
#include "pliant/scene/fem_modal_scene_body.hpp"

#include <fmt/format.h>

#include <cmath>

namespace pliant::scene {
namespace detail {
namespace {

class FemModalSceneBody final : public Body, public InteriorOutput {
 public:
  FemModalSceneBody(std::string name, fem::ModalFemBody body)
      : name_(std::move(name)), body_(std::move(body)) {}

  const std::string& name() const override { return name_; }
  std::string_view family() const override { return "fem"; }
  std::span<const Vec3> surface_positions() const override { return body_.surface_positions(); }
  std::span<const Vec3> surface_rest_positions() const override { return body_.surface().positions; }
  std::span<const Index> surface_nodes() const override { return body_.surface_nodes(); }
  std::vector<Index> fixed_surface_nodes() const override {
    std::vector<Index> out;
    for (Index sn = 0; sn < static_cast<Index>(body_.surface_positions().size()); ++sn)
      if (!body_.surface_node_free(sn)) out.push_back(sn);
    return out;
  }
  std::span<const Tri> surface_triangles() const override { return body_.surface().triangles; }

  GrabId grab(const SurfacePoint& p) override { return grab_patch(p, kDefaultGrabRadius); }

  // The surface nodes within the radius of the picked point, connected to the handle over the surface,
  // each tied by a spring to its target (its linear position at grab time moved with the handle).
  GrabId grab_patch(const SurfacePoint& p, double radius) override {
    if (!on_surface(p, surface_triangles()) || std::isnan(radius)) return {};
    Vec3 point;
    const std::vector<Index> nodes = soft_grab_patch(
        body_.surface_positions(), surface_triangles(), body_.surface_adjacency(), p, radius,
        [&](Index sn) { return body_.surface_node_free(sn); }, [&](Index sn) { return default_radius(sn); },
        &point);
    if (nodes.empty()) return {};
    return body_.grab(nodes, point);
  }
  bool soft_grabs() const override { return true; }
  std::span<const Index> grab_nodes(GrabId id) const override { return body_.grab_nodes(id); }
  void move_grab(GrabId id, const Vec3& target) override { body_.move_grab(id, target); }
  void release(GrabId id) override { body_.release(id); }
  Vec3 grab_reaction(GrabId id) const override { return body_.grab_reaction(id); }

  void apply_force(const SurfacePoint& p, const Vec3& force) override {
    if (!on_surface(p, surface_triangles()) || !force.allFinite()) return;
    const Tri& t = surface_triangles()[static_cast<std::size_t>(p.triangle)];
    const double w[3] = {1.0 - p.u - p.v, p.u, p.v};
    for (int c = 0; c < 3; ++c) body_.add_surface_force(t[static_cast<std::size_t>(c)], w[c] * force);
  }

  void step(double dt, Profile& profile) override {
    body_.step(dt, profile);
    events_.clear();
    for (const GrabReleased& r : body_.released_grabs()) events_.push(r);
    if (body_.warning()) events_.push(*body_.warning());
  }
  const EventLog& events() const override { return events_; }

  std::span<const FieldInfo> fields() const override {
    static constexpr FieldInfo kFields[] = {{"displacement", "m"}, {"speed", "m/s"}};
    return kFields;
  }
  void fill_field(std::size_t index, std::span<double> out) const override {
    const std::span<const Vec3> u = body_.surface_displacements();
    if (index > 1 || out.size() != u.size()) return;
    if (index == 1) return body_.surface_speeds(out);
    for (std::size_t k = 0; k < u.size(); ++k) out[k] = u[k].norm();
  }
  std::uint64_t state_hash() const override { return body_.state_hash(); }

  // The whole volume from the full reconstruction (warped when the body warps): point data
  // "displacement" (m) and "velocity" (m/s, of the linear reconstruction).
  std::string_view interior_name() const override { return "volume"; }
  std::span<const Vec3> interior_points() const override { return body_.node_positions(); }
  Status write_interior_vtu(const std::filesystem::path& path) const override {
    const std::span<const Vec3> x = body_.node_positions();
    const TetMesh& rest = body_.rest();
    const TetMesh mesh{std::vector<Vec3>(x.begin(), x.end()), rest.tets};
    io::Field u{"displacement", 3, std::vector<double>(3 * x.size())};
    io::Field v{"velocity", 3, std::vector<double>(3 * x.size())};
    const Eigen::VectorXd velocity = body_.node_velocities();
    for (std::size_t i = 0; i < x.size(); ++i) {
      for (int k = 0; k < 3; ++k) {
        u.values[3 * i + static_cast<std::size_t>(k)] = x[i][k] - rest.positions[i][k];
        v.values[3 * i + static_cast<std::size_t>(k)] = velocity[3 * static_cast<Eigen::Index>(i) + k];
      }
    }
    return io::write_vtu(path, mesh, {std::move(u), std::move(v)}, {});
  }

  const fem::ModalFemBody& body() const { return body_; }

 private:
  double default_radius(Index sn) const {
    return default_grab_radius(body_.surface_positions(), body_.surface_adjacency(), sn);
  }

  std::string name_;
  fem::ModalFemBody body_;
  EventLog events_;
};

}  // namespace

std::unique_ptr<Body> make_fem_modal_body(const JsonReader& settings, const TetMesh& mesh,
                                          std::vector<materials::Material> materials, fem::FemBodyDef def,
                                          const BodyInputs& in) {
  const SettingsReader reader(fem_settings(), in.time_step);
  const JsonReader j = *reader.find(settings, "fem/modal");
  if (auto v = settings.find("element")) {
    if (def.element != fem::ElementKind::linear && def.element != fem::ElementKind::corotational)
      v->fail(
          "a modal body is linear elasticity about the rest shape: \"element\" must be linear or "
          "corotational");
  }
  for (const char* key : {"integrator", "dt", "solver"}) {
    if (auto v = settings.find(key))
      v->fail(fmt::format("a modal body steps by the exact modal step: remove \"{}\"", key));
  }
  fem::ModalFemAssetDef basis{.modes = static_cast<Index>(reader.integer(j, "fem/modal/modes")),
                              .mass = def.mass,
                              .fixed_nodes = std::move(def.fixed_nodes)};
  if (auto v = reader.number_if(j, "fem/modal/shift")) basis.shift = *v;
  fem::ModalFemDef modal{.dt = in.time_step,
                         .warping = reader.boolean(j, "fem/modal/warping"),
                         .rayleigh_alpha = def.rayleigh_alpha,
                         .rayleigh_beta = def.rayleigh_beta,
                         .gravity = def.gravity,
                         .surface_loads = std::move(def.surface_loads)};
  // Bodies of this scene, or of another load while this one lives, with the same mesh, materials and
  // basis settings share one asset: one eigen-solve.
  Result<std::shared_ptr<const fem::ModalFemAsset>> asset =
      AssetCache::global().get_or_build<fem::ModalFemAsset>(
          fem::ModalFemAsset::key_of(mesh, materials, basis),
          [&] { return fem::ModalFemAsset::build(mesh, std::move(materials), basis); });
  if (!asset.ok()) j.fail(asset.message());
  Result<std::unique_ptr<Body>> body = make_scene_body(in.name, std::move(asset).value(), std::move(modal));
  if (!body.ok()) j.fail(body.message());
  return std::move(body).value();
}

}  // namespace detail

Result<std::unique_ptr<Body>> make_scene_body(std::string name,
                                              std::shared_ptr<const fem::ModalFemAsset> asset,
                                              fem::ModalFemDef def) {
  Result<fem::ModalFemBody> built = fem::ModalFemBody::build(std::move(asset), std::move(def));
  if (!built.ok()) return built.error();
  return std::unique_ptr<Body>(
      std::make_unique<detail::FemModalSceneBody>(std::move(name), std::move(built).value()));
}

const fem::ModalFemBody* fem_modal_body(const Body& body) {
  const auto* modal = dynamic_cast<const detail::FemModalSceneBody*>(&body);
  return modal ? &modal->body() : nullptr;
}

}  // namespace pliant::scene
