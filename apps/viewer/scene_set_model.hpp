// SceneSetModel: several scenes in one viewer window, one shown at a time and picked in the panel
// (or with --scene). `pliant view` without a file shows the demo scenes this way.
//
// Why a switch rather than the bodies side by side in one world: every scene has its own world time
// step (the pipe runs at 60 Hz, the membrane at 100 Hz with explicit-Euler substeps), its own scale
// (a 0.5 m pipe, a 5 cm membrane) and its own fixed regions and scripted tools; the scene format has
// no placement transform, so putting them in one world would mean rewriting their meshes and
// stepping both at one compromise rate. Each scene keeps its own world and state; only the shown
// one steps, the others wait where they were.
//
// Scenes are built when first shown, on a background thread, with the elapsed time shown (a Green
// body precomputes its asset for seconds), so the window opens without waiting for them. The first
// one may instead be built in create() (its error is then create()'s); built in the background, its
// failure is fatal_error(), since the viewer has nothing to show.
#pragma once

#include "pliant/core/result.hpp"
#include "pliant/core/timing.hpp"
#include "viewer_model.hpp"

#include <functional>
#include <future>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace pliant::viewer {

class SceneSetModel : public ViewerModel {
 public:
  using Maker = std::function<Result<std::unique_ptr<ViewerModel>>()>;
  struct Entry {
    std::string name;
    Maker make;  ///< builds the scene's model; called at most once, maybe on another thread
  };
  /// When scene `shown` is built: now, in create() (its error is returned), or on a background thread
  /// started by create(), so a window can open at once and show loading() meanwhile.
  enum class FirstBuild { now, background };
  /// Builds scene `shown` as `first` says; the others when first shown. `scenes` must not be empty
  /// and `shown` must index it.
  static Result<std::unique_ptr<SceneSetModel>> create(std::vector<Entry> scenes, std::size_t shown = 0,
                                                       FirstBuild first = FirstBuild::now);
  /// Waits for scenes still building in the background.
  ~SceneSetModel() override;

  std::size_t scene_count() const { return scenes_.size(); }
  std::size_t shown() const { return shown_; }
  const std::string& scene_name(std::size_t i) const { return scenes_[i].name; }
  /// Shows scene i (a grab held in the previous one is released), starting its build if needed.
  void show(std::size_t i);
  /// The shown scene's model, or nullptr while it builds or when its build failed.
  ViewerModel* current() { return scenes_[shown_].model.get(); }
  const ViewerModel* current() const { return scenes_[shown_].model.get(); }
  /// Blocks until the shown scene has finished building (scripts and tests).
  void finish_building();
  /// The shown scene's build error ("" when none).
  const std::string& build_error() const { return scenes_[shown_].error; }

  std::string title() const override;
  std::string default_field() const override { return current() ? current()->default_field() : ""; }
  bool has_reaction() const override { return current() && current()->has_reaction(); }
  /// The shown scene while it builds (nothing to draw yet).
  LoadingState loading() const override;
  /// The first shown scene's build error, while no scene was ever shown.
  std::string fatal_error() const override;
  std::size_t surface_count() const override { return current() ? current()->surface_count() : 0; }
  ViewerSurface surface(std::size_t index) const override { return current()->surface(index); }
  std::vector<std::string> field_names() const override;
  bool field(std::size_t index, std::string_view name, std::vector<double>& values,
             std::string& unit) const override;
  bool grab(std::size_t index, Index triangle, double u, double v) override;
  void move_grab(const Vec3& target) override;
  void release() override;
  Vec3 grab_reaction() const override;
  std::optional<ViewerInstrument> instrument() const override {
    return current() ? current()->instrument() : std::nullopt;
  }
  void move_instrument(const Vec3& tip) override {
    if (current()) current()->move_instrument(tip);
  }
  void close_jaws(bool closed) override {
    if (current()) current()->close_jaws(closed);
  }
  /// Lands finished builds; every built scene lands its own background work. Only the shown one steps.
  void poll() override;
  void step() override;
  void reset() override;
  void panel() override;
  std::vector<ViewerTool> tools() const override {
    return current() ? current()->tools() : std::vector<ViewerTool>{};
  }
  std::vector<TriMesh> collider_surfaces(const Aabb& around) const override {
    return current() ? current()->collider_surfaces(around) : std::vector<TriMesh>{};
  }
  std::vector<Vec3> fixed_points() const override {
    return current() ? current()->fixed_points() : std::vector<Vec3>{};
  }
  std::optional<double> floor_height() const override {
    return current() ? current()->floor_height() : std::nullopt;
  }
  std::vector<Vec3> contact_points() const override {
    return current() ? current()->contact_points() : std::vector<Vec3>{};
  }
  std::vector<std::span<const Vec3>> interior_points() const override {
    return current() ? current()->interior_points() : std::vector<std::span<const Vec3>>{};
  }
  const Profile* profile() const override { return current() ? current()->profile() : nullptr; }
  std::uint64_t surfaces_generation() const override;
  std::uint64_t scene_generation() const override;

 private:
  struct Scene {
    std::string name;
    Maker make;
    std::unique_ptr<ViewerModel> model;
    // A plain pair, not a Result: GCC 12 misreports a Result<unique_ptr> destroyed inside
    // std::future's plumbing under -Wfree-nonheap-object.
    std::future<std::pair<std::unique_ptr<ViewerModel>, std::string>> building;
    Stopwatch clock;
    std::string error;
  };
  SceneSetModel() = default;
  void start_build(Scene& s);
  void land(Scene& s);

  std::vector<Scene> scenes_;
  std::size_t shown_ = 0;
  bool any_built_ = false;     // some scene has been shown: a later build error is the panel's, not fatal
  std::uint64_t changes_ = 0;  // scene switches and scenes landing while shown
};

}  // namespace pliant::viewer
