#include "world_model.hpp"

#include "panels/family_panel.hpp"

#include "pliant/scene/capabilities.hpp"
#include "pliant/scene/collider_mesh.hpp"
#include "pliant/scene/scene_file.hpp"

#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>

namespace pliant::viewer {
namespace {

using nlohmann::json;

// Builds the world of an (edited) scene JSON. Runs on the rebuild thread: touches nothing shared.
Result<std::unique_ptr<scene::World>> build_scene_world(const json& doc, const std::filesystem::path& file,
                                                        WorldViewerModel::SceneOptions options) {
  try {
    auto scene = scene::parse_scene(doc.dump(), file);
    if (!scene.ok()) return scene.error();
    std::unique_ptr<scene::World> world = std::move(scene->world);
    if (!options.scripted) {
      while (!world->scripted_grabs().empty()) world->take_scripted_grab(0);
    }
    return world;
  } catch (const std::exception& e) {  // out of memory on a huge edit: an error line, not a crash
    return Error{file.string() + ": rebuilding the scene failed: " + e.what()};
  }
}

}  // namespace

Result<std::unique_ptr<WorldViewerModel>> WorldViewerModel::create(std::string title, Builder build) {
  auto world = build();
  if (!world.ok()) return world.error();
  if (!*world) return Error{title + ": the scene builder returned no world"};
  std::unique_ptr<WorldViewerModel> model(new WorldViewerModel(std::move(title), std::move(world).value()));
  model->build_ = std::move(build);
  return model;
}

Result<std::unique_ptr<WorldViewerModel>> WorldViewerModel::from_scene(std::string_view json_text,
                                                                       const std::filesystem::path& file,
                                                                       SceneOptions options) {
  Stopwatch clock;
  // parse_scene first: its messages name the file, line and JSON pointer of a bad value.
  auto scene = scene::parse_scene(json_text, file);
  if (!scene.ok()) return scene.error();
  std::unique_ptr<scene::World> world = std::move(scene->world);
  if (!options.scripted) {
    while (!world->scripted_grabs().empty()) world->take_scripted_grab(0);
  }
  std::unique_ptr<WorldViewerModel> model(new WorldViewerModel(scene->name, std::move(world)));
  model->default_field_ = scene->output.color_field;
  model->warnings_ = std::move(scene->warnings);
  model->doc_ = json::parse(json_text);
  model->built_doc_ = model->doc_;
  model->file_ = file;
  model->options_ = options;
  model->last_build_ms_ = clock.ms();
  return model;
}

Result<std::unique_ptr<WorldViewerModel>> WorldViewerModel::from_scene_file(const std::filesystem::path& file,
                                                                            SceneOptions options) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return Error{file.string() + ": cannot open scene file"};
  std::ostringstream text;
  text << in.rdbuf();
  return from_scene(text.str(), file, options);
}

WorldViewerModel::WorldViewerModel(std::string title, std::unique_ptr<scene::World> world)
    : title_(std::move(title)), world_(std::move(world)) {}

WorldViewerModel::~WorldViewerModel() {
  if (rebuild_) rebuild_->result.wait();
}

ViewerSurface WorldViewerModel::surface(std::size_t index) const {
  const scene::Body& b = world_->body(static_cast<Index>(index));
  return {b.name(), b.surface_positions(), b.surface_triangles(), b.surface_topology_version()};
}

std::optional<ViewerSurface> WorldViewerModel::drawn_surface(std::size_t index) const {
  const scene::RenderMesh* r = world_->render_mesh(static_cast<Index>(index));
  if (!r) return std::nullopt;
  // A cut re-embeds the render mesh, but its triangles never change: the body's version still
  // tells the viewer when to rebuild.
  const scene::Body& b = world_->body(static_cast<Index>(index));
  return ViewerSurface{b.name(), r->positions(), r->triangles(), b.surface_topology_version()};
}

void WorldViewerModel::drawn_field(std::size_t index, std::span<const double> surface_values,
                                   std::vector<double>& out) const {
  const scene::RenderMesh* r = world_->render_mesh(static_cast<Index>(index));
  if (!r) return;
  out.resize(r->positions().size());
  r->sample_surface_field(surface_values, out);
}

std::vector<std::string> WorldViewerModel::field_names() const {
  std::vector<std::string> names;
  for (std::size_t i = 0; i < world_->body_count(); ++i)
    for (const scene::FieldInfo& f : world_->body(static_cast<Index>(i)).fields())
      if (std::find(names.begin(), names.end(), f.name) == names.end()) names.emplace_back(f.name);
  if (world_->contact_enabled()) names.emplace_back(scene::kContactPressureField);
  return names;
}

bool WorldViewerModel::field(std::size_t index, std::string_view name, std::vector<double>& values,
                             std::string& unit) const {
  // Filled into the caller's buffer (kept between frames): no allocation per frame.
  const scene::Body& b = world_->body(static_cast<Index>(index));
  if (name == scene::kContactPressureField && world_->contact_enabled()) {
    values = world_->contact_pressure(static_cast<Index>(index));
    unit = "Pa";
    return true;
  }
  const int f = scene::find_field(b, name);
  if (f < 0) return false;
  values.resize(b.surface_positions().size());
  b.fill_field(static_cast<std::size_t>(f), values);
  unit = b.fields()[static_cast<std::size_t>(f)].unit;
  return true;
}

bool WorldViewerModel::grab(std::size_t index, Index triangle, double u, double v) {
  release();
  if (index >= world_->body_count()) return false;
  scene::Body& b = world_->body(static_cast<Index>(index));
  if (triangle < 0 || static_cast<std::size_t>(triangle) >= b.surface_triangles().size()) return false;
  const scene::GrabId id = b.grab(scene::SurfacePoint{triangle, u, v});
  if (!id.valid()) return false;
  grab_body_ = static_cast<Index>(index);
  grab_ = id;
  return true;
}

void WorldViewerModel::move_grab(const Vec3& target) {
  if (grab_body_ >= 0 && target.allFinite()) world_->body(grab_body_).move_grab(grab_, target);
}

void WorldViewerModel::release() {
  if (grab_body_ >= 0) world_->body(grab_body_).release(grab_);
  grab_body_ = -1;
  grab_ = {};
}

Vec3 WorldViewerModel::grab_reaction() const {
  return grab_body_ >= 0 ? world_->body(grab_body_).grab_reaction(grab_) : Vec3::Zero();
}

Index WorldViewerModel::driven_instrument() const {
  const std::span<const scene::Instrument> all = world_->instruments();
  for (std::size_t i = 0; i < all.size(); ++i)
    if (all[i].device) return static_cast<Index>(i);
  return all.empty() ? -1 : 0;
}

std::optional<ViewerInstrument> WorldViewerModel::instrument() const {
  const Index i = driven_instrument();
  if (i < 0) return std::nullopt;
  const scene::Instrument& in = world_->instruments()[static_cast<std::size_t>(i)];
  ViewerInstrument v;
  v.name = in.name;
  v.type = std::string(scene::instrument_type_name(in.type));
  v.tip = world_->instrument_pose(i).position;
  v.force = world_->instrument_force(i);
  v.contacts = world_->instrument_contacts(i);
  switch (in.type) {
    case scene::InstrumentType::probe:
      v.reach = in.radius;
      break;
    case scene::InstrumentType::grasper: {
      const scene::GrasperState g = world_->grasper_state(i);
      v.reach = std::hypot(0.5 * g.gap + in.jaws.thickness, 0.5 * in.jaws.width);
      v.grasper = true;
      v.jaws_closed = g.closed;
      v.gap = g.gap;
      v.grip = g.grip;
      break;
    }
    case scene::InstrumentType::scalpel:
      v.reach = std::hypot(0.5 * in.blade.length, 0.5 * in.blade.thickness);
      break;
  }
  v.reach += in.margin;
  return v;
}

void WorldViewerModel::move_instrument(const Vec3& tip) {
  const Index i = driven_instrument();
  if (i < 0 || !tip.allFinite()) return;
  Pose pose = world_->instrument_pose(i);  // its orientation kept: the mouse moves only the tip
  pose.position = tip;
  world_->move_instrument(i, pose);
}

void WorldViewerModel::close_jaws(bool closed) {
  world_->close_jaws(driven_instrument(), closed);  // nothing for no instrument or one without jaws
}

std::vector<ViewerTool> WorldViewerModel::tools() const { return scene::tool_cylinders(*world_); }

std::vector<TriMesh> WorldViewerModel::collider_surfaces(const Aabb& around) const {
  std::vector<TriMesh> out;
  for (const scene::Collider& c : world_->colliders())
    out.push_back(scene::collider_surface(c, c.pose_at(world_->time()), around));
  return out;
}

// Each body's own fixed surface nodes (Body::fixed_surface_nodes), found again when the scene is rebuilt
// or a body's surface changes (a cut renumbers it).
std::vector<Vec3> WorldViewerModel::fixed_points() const {
  const std::size_t n = world_->body_count();
  if (fixed_generation_ != generation_ || fixed_nodes_.size() != n) {
    fixed_generation_ = generation_;
    fixed_nodes_.assign(n, {});
    fixed_versions_.assign(n, ~std::uint64_t{0});
  }
  std::vector<Vec3> out;
  for (std::size_t b = 0; b < n; ++b) {
    const scene::Body& body = world_->body(static_cast<Index>(b));
    if (fixed_versions_[b] != body.surface_topology_version()) {
      fixed_versions_[b] = body.surface_topology_version();
      fixed_nodes_[b] = body.fixed_surface_nodes();
    }
    const std::span<const Vec3> x = body.surface_positions();
    for (Index i : fixed_nodes_[b])
      if (static_cast<std::size_t>(i) < x.size()) out.push_back(x[static_cast<std::size_t>(i)]);
  }
  return out;
}

std::optional<double> WorldViewerModel::floor_height() const {
  std::optional<double> floor;
  for (const scene::Collider& c : world_->colliders()) {
    if (c.shape != scene::ColliderShape::plane) continue;
    const Pose pose = c.pose_at(world_->time());
    if (pose.direction_to_world(c.normal).normalized().y() < 0.99) continue;
    if (!floor || pose.position.y() > *floor) floor = pose.position.y();
  }
  return floor;
}

std::vector<Vec3> WorldViewerModel::contact_points() const {
  std::vector<Vec3> out;
  for (const scene::ContactPoint& c : world_->contact_points()) out.push_back(c.position);
  return out;
}

std::vector<std::span<const Vec3>> WorldViewerModel::interior_points() const {
  std::vector<std::span<const Vec3>> out;
  for (std::size_t b = 0; b < world_->body_count(); ++b)
    if (const auto* interior = scene::capability<scene::InteriorOutput>(world_->body(static_cast<Index>(b))))
      out.push_back(interior->interior_points());
  return out;
}

void WorldViewerModel::step() { world_->step(); }

void WorldViewerModel::reset() {
  if (editable()) {
    // The same scene again, built in the background like an edit (a Green body precomputes).
    start_rebuild();
    return;
  }
  release();
  auto fresh = build_();
  if (!fresh.ok() || !*fresh) {
    rebuild_error_ = fresh.ok() ? "the scene builder returned no world" : fresh.message();
    return;
  }
  rebuild_error_.clear();
  world_ = std::move(fresh).value();
  ++generation_;
}

void WorldViewerModel::edit(const json::json_pointer& pointer, json value) {
  if (!editable()) return;
  doc_[pointer] = std::move(value);
  start_rebuild();
}

void WorldViewerModel::erase(const json::json_pointer& pointer) {
  if (!editable() || !doc_.contains(pointer)) return;
  doc_[pointer.parent_pointer()].erase(pointer.back());
  start_rebuild();
}

void WorldViewerModel::start_rebuild() {
  if (rebuild_) {
    rebuild_queued_ = true;  // built when the running one finishes
    return;
  }
  rebuild_.emplace();
  rebuild_->doc = doc_;
  rebuild_->result = std::async(std::launch::async, [doc = doc_, file = file_, options = options_] {
    auto world = build_scene_world(doc, file, options);
    return world.ok() ? Built{std::move(world).value(), ""} : Built{nullptr, world.message()};
  });
}

void WorldViewerModel::poll() {
  if (!rebuild_ || rebuild_->result.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return;
  Rebuild done = std::move(*rebuild_);
  rebuild_.reset();
  land(done.result.get(), std::move(done.doc), done.clock.ms());
}

void WorldViewerModel::finish_rebuild() {
  while (rebuild_) {
    rebuild_->result.wait();
    poll();
  }
}

void WorldViewerModel::land(Built built, json doc, double ms) {
  if (rebuild_queued_) {
    // Edited again meanwhile: this world is already out of date.
    rebuild_queued_ = false;
    start_rebuild();
    return;
  }
  if (!built.world) {
    // Keep the world on screen and put the panel back to the JSON it was built from.
    rebuild_error_ = built.error;
    doc_ = built_doc_;
    return;
  }
  rebuild_error_.clear();
  last_build_ms_ = ms;
  release();
  world_ = std::move(built.world);
  built_doc_ = std::move(doc);
  ++generation_;
}

bool WorldViewerModel::fire(const Ray& ray) {
  std::optional<scene::ScriptedProjectile> p =
      scene::projectile_along_ray(ray, fire_speed_, 0.1, world_->time());
  if (!p) return false;
  world_->add(std::move(*p));
  return true;
}

void WorldViewerModel::panel() {
  ImGui::Text("t = %.4f s  step %llu  dt = %.3g s", world_->time(),
              static_cast<unsigned long long>(world_->step_count()), world_->time_step());
  if (!world_->events().empty()) ImGui::Text("%zu events in the last step", world_->events().size());
  if (rebuild_) {
    // parse_scene reports no progress of its own: estimate it from how long the last build took.
    const double elapsed = rebuild_->clock.ms();
    char label[96];
    if (last_build_ms_ > 0) {
      std::snprintf(label, sizeof label, "rebuilding %.1f s of ~%.1f s", elapsed / 1e3, last_build_ms_ / 1e3);
    } else {
      std::snprintf(label, sizeof label, "rebuilding %.1f s", elapsed / 1e3);
    }
    const float fraction =
        last_build_ms_ > 0 ? static_cast<float>(std::min(0.99, elapsed / last_build_ms_)) : 0.5f;
    ImGui::ProgressBar(fraction, ImVec2(-1, 0), label);
    ImGui::TextDisabled("the current world runs until the new one is ready");
  }
  if (!rebuild_error_.empty()) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextColored(ImVec4(1, 0.4f, 0.3f, 1), "rebuild failed: %s", rebuild_error_.c_str());
    ImGui::PopTextWrapPos();
  }
  if (editable()) {
    bool scripted = options_.scripted;
    if (ImGui::Checkbox("play scripted grabs", &scripted)) {
      options_.scripted = scripted;
      start_rebuild();
    }
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("the scene's keyframed grabs; off, only the mouse moves the bodies");
  }
  ImGui::InputDouble("fire speed (m/s)", &fire_speed_, 1.0, 10.0, "%.3g");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("P fires a 0.1 kg point projectile along the mouse ray");
  for (std::size_t i = 0; i < world_->body_count(); ++i) body_panel(i);
  timings_panel();
}

void WorldViewerModel::body_panel(std::size_t index) {
  const scene::Body& b = world_->body(static_cast<Index>(index));
  const std::string family(b.family());
  ImGui::PushID(static_cast<int>(index));
  // Name and family only: the node and triangle counts are in the Bodies list, and a longer line
  // would be cut at the panel's width.
  const bool open =
      ImGui::TreeNodeEx("body", ImGuiTreeNodeFlags_DefaultOpen, "%s (%s)", b.name().c_str(), family.c_str());
  if (open) {
    const json* body = nullptr;
    if (editable() && doc_.contains("bodies") && doc_["bodies"].is_array() && index < doc_["bodies"].size())
      body = &doc_["bodies"][index];
    if (body == nullptr) {
      ImGui::TextDisabled("parameters are editable for scenes opened from JSON");
    } else {
      draw_body_panel(family, {*body, "/bodies/" + std::to_string(index),
                               [this](const json::json_pointer& p, json v) { edit(p, std::move(v)); },
                               [this](const json::json_pointer& p) { erase(p); }});
    }
    ImGui::TreePop();
  }
  ImGui::PopID();
}

void WorldViewerModel::timings_panel() {
  if (!ImGui::TreeNode("body stages")) return;
  if (ImGui::BeginTable("body stages", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp)) {
    for (std::size_t i = 0; i < world_->body_count(); ++i) {
      for (const Profile::Stage& st : world_->body_profile(static_cast<Index>(i)).stages) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::Text("%s/%s", world_->body(static_cast<Index>(i)).name().c_str(), st.name.c_str());
        ImGui::TableNextColumn();
        ImGui::Text("%8.3f ms", st.ms);
      }
    }
    ImGui::EndTable();
  }
  ImGui::TreePop();
}

}  // namespace pliant::viewer
