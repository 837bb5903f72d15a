// WorldViewerModel: the viewer over a scene::World. Every body is one surface, seen through the
// surface contract (scene/body.hpp); the mouse grab becomes a Body grab, so the viewer drags any
// family the same way.
//
// Two ways to make one:
//   create(title, builder)      any world; reset() calls the builder again (synchronously);
//   from_scene(json, file)      a scene file's world. The model keeps the scene's JSON, and its panel
//                               edits it (materials, spring parameters, methods, tearing): each edit
//                               re-parses the edited JSON with scene::parse_scene on a background
//                               thread, which may precompute a Green asset for seconds. The old
//                               world keeps stepping and drawing until the new one is ready, then
//                               the two swap in poll(); a failed rebuild keeps the old world and
//                               shows its one-line error. reset() rebuilds the same way.
#pragma once

#include "pliant/core/result.hpp"
#include "pliant/core/timing.hpp"
#include "pliant/scene/plausibility.hpp"
#include "pliant/scene/world.hpp"
#include "viewer_model.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <functional>
#include <future>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

namespace pliant::viewer {

/// How a scene is shown.
struct SceneViewOptions {
  /// Play the scene's scripted grabs. Off by default: in the viewer the mouse is the tool, and a
  /// scripted grab would move the body on its own. (Scripted force probes always play.)
  bool scripted = false;
};

class WorldViewerModel : public ViewerModel {
 public:
  using Builder = std::function<Result<std::unique_ptr<scene::World>>()>;
  /// Builds the world once (its error is returned) and keeps `build` for reset().
  static Result<std::unique_ptr<WorldViewerModel>> create(std::string title, Builder build);

  using SceneOptions = SceneViewOptions;
  /// A scene from its JSON text; `file` names it in messages and anchors relative mesh paths (it need
  /// not exist). Errors are parse_scene's one-line messages.
  static Result<std::unique_ptr<WorldViewerModel>> from_scene(std::string_view json_text,
                                                              const std::filesystem::path& file,
                                                              SceneOptions options = {});
  /// A scene file (load_scene's errors, e.g. a missing file).
  static Result<std::unique_ptr<WorldViewerModel>> from_scene_file(const std::filesystem::path& file,
                                                                   SceneOptions options = {});

  /// Waits for a rebuild still running in the background.
  ~WorldViewerModel() override;

  std::string title() const override { return title_; }
  std::size_t surface_count() const override { return world_->body_count(); }
  ViewerSurface surface(std::size_t index) const override;
  std::optional<ViewerSurface> drawn_surface(std::size_t index) const override;
  void drawn_field(std::size_t index, std::span<const double> surface_values,
                   std::vector<double>& out) const override;
  std::vector<std::string> field_names() const override;
  bool field(std::size_t index, std::string_view name, std::vector<double>& values,
             std::string& unit) const override;
  bool grab(std::size_t index, Index triangle, double u, double v) override;
  void move_grab(const Vec3& target) override;
  void release() override;
  Vec3 grab_reaction() const override;
  /// The scene's "device" instrument, else its first (nullopt without instruments).
  std::optional<ViewerInstrument> instrument() const override;
  void move_instrument(const Vec3& tip) override;
  void close_jaws(bool closed) override;
  /// Which of the world's instruments instrument() is, or -1.
  Index driven_instrument() const;
  /// Adds a point projectile of fire_speed() (scene::projectile_along_ray, 0.1 kg) to the world.
  bool fire(const Ray& ray) override;
  double fire_speed() const { return fire_speed_; }           ///< (unit: m/s)
  void set_fire_speed(double speed) { fire_speed_ = speed; }  ///< (unit: m/s)
  void poll() override;
  void step() override;
  void reset() override;
  void panel() override;
  std::vector<ViewerTool> tools() const override;
  std::vector<std::span<const Vec3>> interior_points() const override;
  std::vector<TriMesh> collider_surfaces(const Aabb& around) const override;
  std::vector<Vec3> fixed_points() const override;
  std::optional<double> floor_height() const override;
  std::vector<Vec3> contact_points() const override;
  const Profile* profile() const override { return &world_->profile(); }
  /// The scene's output "color" field (from_scene models), else "displacement".
  std::string default_field() const override { return default_field_; }
  /// The scene's plausibility warnings when it was loaded (scene/plausibility.hpp).
  const std::vector<scene::PlausibilityWarning>& warnings() const { return warnings_; }
  std::uint64_t surfaces_generation() const override { return generation_; }

  scene::World& world() { return *world_; }

  // ---- scene editing (from_scene models only) ----
  bool editable() const { return !doc_.is_null(); }
  /// The scene JSON the next rebuild builds (the current world's, plus edits not yet landed).
  const nlohmann::json& scene_json() const { return doc_; }
  /// Sets the value at `pointer` (e.g. "/bodies/0/springs/stiffness") of the scene JSON, creating
  /// missing objects on the way, and starts a background rebuild. An edit made while a rebuild runs
  /// is built once that one finishes (the outdated result is dropped).
  void edit(const nlohmann::json::json_pointer& pointer, nlohmann::json value);
  /// Removes the value at `pointer` (if present) and rebuilds, like edit().
  void erase(const nlohmann::json::json_pointer& pointer);
  bool rebuilding() const { return rebuild_.has_value(); }
  /// Blocks until background rebuilds have finished and landed (scripts and tests).
  void finish_rebuild();
  /// The last rebuild's error ("" when it succeeded).
  const std::string& rebuild_error() const { return rebuild_error_; }

 private:
  // What the rebuild thread hands back (a plain struct: GCC 12 misreports a Result<unique_ptr>
  // destroyed inside std::future's plumbing under -Wfree-nonheap-object).
  struct Built {
    std::unique_ptr<scene::World> world;
    std::string error;
  };
  WorldViewerModel(std::string title, std::unique_ptr<scene::World> world);
  void start_rebuild();
  void land(Built built, nlohmann::json doc, double ms);
  void body_panel(std::size_t index);
  void timings_panel();

  struct Rebuild {
    std::future<Built> result;
    nlohmann::json doc;  // what it builds
    Stopwatch clock;
  };

  std::string title_;
  std::string default_field_ = "displacement";
  std::vector<scene::PlausibilityWarning> warnings_;
  Builder build_;  // create() models
  // from_scene() models: the scene JSON being edited, the JSON of the world shown, where it lives.
  nlohmann::json doc_;
  nlohmann::json built_doc_;
  std::filesystem::path file_;
  SceneOptions options_;

  std::unique_ptr<scene::World> world_;
  std::optional<Rebuild> rebuild_;
  bool rebuild_queued_ = false;
  double last_build_ms_ = 0.0;  // sets the progress estimate of the next rebuild (unit: ms)
  std::uint64_t generation_ = 0;
  // Per body, its fixed surface nodes (Body::fixed_surface_nodes) for fixed_points(); built
  // for generation fixed_generation_.
  mutable std::vector<std::vector<Index>> fixed_nodes_;
  mutable std::uint64_t fixed_generation_ = ~std::uint64_t{0};
  mutable std::vector<std::uint64_t> fixed_versions_;  // per body, the surface version fixed_nodes_ is of
  Index grab_body_ = -1;
  scene::GrabId grab_;
  std::string rebuild_error_;  // shown in the panel when a rebuild failed (the old world is kept)
  double fire_speed_ = 10.0;   // of projectiles fired with the P key (unit: m/s)
};

}  // namespace pliant::viewer
