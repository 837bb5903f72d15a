// WorldViewerModel: the viewer over a scene::World. Every body is one surface, seen through the
// surface contract (scene/body.hpp); the mouse grab becomes a Body grab, so the viewer drags any
// family the same way. reset() rebuilds the world with the builder it was made from.
#pragma once

#include "pliant/core/result.hpp"
#include "pliant/scene/world.hpp"
#include "viewer_model.hpp"

#include <functional>
#include <memory>

namespace pliant::viewer {

class WorldViewerModel : public ViewerModel {
 public:
  using Builder = std::function<Result<std::unique_ptr<scene::World>>()>;
  /// Builds the world once (its error is returned) and keeps `build` for reset().
  static Result<std::unique_ptr<WorldViewerModel>> create(std::string title, Builder build);

  std::string title() const override { return title_; }
  std::size_t surface_count() const override { return world_->body_count(); }
  ViewerSurface surface(std::size_t index) const override;
  std::vector<std::string> field_names() const override;
  bool field(std::size_t index, std::string_view name, std::vector<double>& values,
             std::string& unit) const override;
  bool grab(std::size_t index, Index triangle, double u, double v) override;
  void move_grab(const Vec3& target) override;
  void release() override;
  Vec3 grab_reaction() const override;
  void step() override;
  void reset() override;
  void panel() override;
  const Profile* profile() const override { return &world_->profile(); }

  scene::World& world() { return *world_; }

 private:
  WorldViewerModel(std::string title, Builder build, std::unique_ptr<scene::World> world);
  std::string title_;
  Builder build_;
  std::unique_ptr<scene::World> world_;
  Index grab_body_ = -1;
  scene::GrabId grab_;
  std::string reset_error_;  // shown in the panel when a rebuild failed (the old world is kept)
};

}  // namespace pliant::viewer
