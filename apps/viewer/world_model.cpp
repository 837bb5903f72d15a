#include "world_model.hpp"

#include "pliant/models/fem/material.hpp"
#include "pliant/models/green/green_body.hpp"
#include "pliant/models/springs/methods.hpp"
#include "pliant/models/springs/spring_mesh.hpp"
#include "pliant/models/springs/tearing.hpp"
#include "pliant/scene/scene_file.hpp"

#include <imgui.h>

#include <algorithm>
#include <chrono>
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

double number_at(const json& object, const char* key, double fallback) {
  if (!object.is_object()) return fallback;
  const auto it = object.find(key);
  return it != object.end() && it->is_number() ? it->get<double>() : fallback;
}

std::string string_at(const json& object, const char* key, const std::string& fallback) {
  if (!object.is_object()) return fallback;
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : fallback;
}

// Slider values while the user drags them, by JSON pointer: a slider shows the scene's value when
// idle and this while active, and the edit is committed (one rebuild) when the mouse lets go.
std::map<std::string, double>& scratch() {
  static std::map<std::string, double> values;
  return values;
}

// A double slider bound to the scene JSON value at `pointer`; true (with `out`) when an edit ends.
bool slider(const char* label, const std::string& pointer, double current, double lo, double hi,
            const char* format, bool logarithmic, double& out) {
  const auto it = scratch().find(pointer);
  double v = it != scratch().end() ? it->second : current;
  ImGui::PushID(pointer.c_str());
  ImGui::SliderScalar(label, ImGuiDataType_Double, &v, &lo, &hi, format,
                      ImGuiSliderFlags_AlwaysClamp | (logarithmic ? ImGuiSliderFlags_Logarithmic : 0));
  ImGui::PopID();
  if (ImGui::IsItemActive()) scratch()[pointer] = v;
  if (ImGui::IsItemDeactivatedAfterEdit()) {
    out = v;
    scratch().erase(pointer);
    return true;
  }
  return false;
}

std::string items_of(const std::vector<std::string>& names) {
  std::string items;
  for (const std::string& n : names) items += n + '\0';
  return items;
}

bool is_dragnet(springs::Method m) {
  return m == springs::Method::dragnet || m == springs::Method::dragnet_mass_spring;
}

bool uses_provot(springs::Method m) {
  return m == springs::Method::provot || m == springs::Method::lr_mass_spring ||
         m == springs::Method::length_correction_mass_spring;
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

std::vector<std::string> WorldViewerModel::field_names() const {
  std::vector<std::string> names;
  for (std::size_t i = 0; i < world_->body_count(); ++i)
    for (const scene::SurfaceField& f : world_->body(static_cast<Index>(i)).surface_fields())
      if (std::find(names.begin(), names.end(), f.name) == names.end()) names.push_back(f.name);
  return names;
}

bool WorldViewerModel::field(std::size_t index, std::string_view name, std::vector<double>& values,
                             std::string& unit) const {
  for (scene::SurfaceField& f : world_->body(static_cast<Index>(index)).surface_fields())
    if (f.name == name) {
      values = std::move(f.value);
      unit = f.unit;
      return true;
    }
  return false;
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

std::vector<ViewerTool> WorldViewerModel::tools() const {
  std::vector<ViewerTool> out;
  for (const scene::ScriptedTool& t : world_->tools()) {
    // The world places a tool during a step; before the first one it waits at its first keyframe.
    const Vec3 centre = world_->step_count() > 0 ? t.centre
                        : t.track.empty()        ? t.start
                                                 : Vec3(t.start + t.track.front().offset);
    out.push_back({centre, t.axis, t.radius, t.half_length, t.force});
  }
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
    } else if (family == "green") {
      green_panel(index, *body);
    } else if (family == "springs") {
      springs_panel(index, *body);
    }
    ImGui::TreePop();
  }
  ImGui::PopID();
}

void WorldViewerModel::green_panel(std::size_t index, const json& body) {
  const std::string base = "/bodies/" + std::to_string(index);
  const json material = body.value("material", json::object());
  const std::string preset = string_at(material, "preset", "");
  // The constants in force, whichever way the scene gives them.
  Result<fem::Material> m = Error{""};
  if (!preset.empty()) {
    m = fem::material_preset(preset);
  } else if (material.contains("E")) {
    m = fem::material_from_young_poisson(number_at(material, "E", 1e6), number_at(material, "nu", 0.3));
  } else {
    m = fem::material_from_lame(number_at(material, "lambda", 1e6), number_at(material, "mu", 1e6));
  }
  if (!m.ok()) m = fem::material_from_young_poisson(1e6, 0.3);
  const double E = m->youngs_modulus(), nu = m->poisson_ratio();
  const double density = number_at(material, "density", m->density);
  // Any edit drops the body's "cache" key: experiments in the viewer must not overwrite the scene's
  // precomputed asset file.
  const auto set_material = [&](json value) {
    if (body.contains("green") && body["green"].contains("cache"))
      doc_[json::json_pointer(base + "/green")].erase("cache");
    edit(json::json_pointer(base + "/material"), std::move(value));
  };

  const std::vector<std::string> presets = fem::material_preset_names();
  std::vector<std::string> items = {"custom (E, nu)"};
  items.insert(items.end(), presets.begin(), presets.end());
  int current = 0;
  for (std::size_t i = 0; i < presets.size(); ++i)
    if (presets[i] == preset) current = static_cast<int>(i) + 1;
  if (ImGui::Combo("material", &current, items_of(items).c_str())) {
    if (current == 0) {
      set_material({{"E", E}, {"nu", nu}, {"density", density}});
    } else {
      set_material({{"preset", presets[static_cast<std::size_t>(current - 1)]}});
    }
  }
  double v = 0;
  if (preset.empty()) {
    if (slider("E (Pa)", base + "/material/E", E, 1e2, 1e12, "%.4g", true, v))
      set_material({{"E", v}, {"nu", nu}, {"density", density}});
    if (slider("nu", base + "/material/nu", nu, -0.9, 0.49, "%.3f", false, v))
      set_material({{"E", E}, {"nu", v}, {"density", density}});
  } else {
    ImGui::TextDisabled("E = %.4g Pa, nu = %.3f", E, nu);
  }
  if (slider("density (kg/m3)", base + "/material/density", density, 1.0, 3e4, "%.4g", true, v)) {
    json next = material;
    next["density"] = v;
    set_material(std::move(next));
  }
  const json green = body.value("green", json::object());
  bool rotation = green.is_object()
                      ? green.value("rotation_correction", green::GreenDef{}.rotation_correction)
                      : green::GreenDef{}.rotation_correction;
  if (ImGui::Checkbox("rotation correction", &rotation))
    edit(json::json_pointer(base + "/green/rotation_correction"), rotation);
}

void WorldViewerModel::springs_panel(std::size_t index, const json& body) {
  const std::string base = "/bodies/" + std::to_string(index) + "/springs";
  const json s = body.value("springs", json::object());
  const springs::SpringMeshDef mesh_defaults;
  const springs::MethodDef method_defaults;
  const springs::TearingDef tear_defaults;
  const auto at = [&](const std::string& key) { return json::json_pointer(base + "/" + key); };

  std::vector<std::string> names;
  for (springs::Method m : springs::all_methods) names.emplace_back(springs::method_name(m));
  const std::string method_text = string_at(s, "method", "dragnet_mass_spring");
  const springs::Method method =
      springs::method_from_name(method_text).value_or(springs::Method::dragnet_mass_spring);
  int current = static_cast<int>(
      std::find(names.begin(), names.end(), std::string(springs::method_name(method))) - names.begin());
  if (ImGui::Combo("method", &current, items_of(names).c_str()))
    edit(at("method"), names[static_cast<std::size_t>(current)]);
  // Dragnet on/off: the explicit mass-spring integrator with or without Grimm's Dragnet correction.
  bool dragnet = is_dragnet(method);
  if (ImGui::Checkbox("Dragnet", &dragnet))
    edit(at("method"), dragnet ? "dragnet_mass_spring" : "mass_spring");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("dragnet_mass_spring when on, mass_spring when off");

  const json tearing = s.value("tearing", json::object());
  const std::vector<std::string> modes = {"off", "area_preserving", "deletion"};
  const std::string mode = string_at(tearing, "mode", "off");
  int mode_index = static_cast<int>(std::find(modes.begin(), modes.end(), mode) - modes.begin());
  if (mode_index >= static_cast<int>(modes.size())) mode_index = 0;
  if (ImGui::Combo("tearing", &mode_index, items_of(modes).c_str()))
    edit(at("tearing/mode"), modes[static_cast<std::size_t>(mode_index)]);

  double v = 0;
  if (springs::method_is_dynamic(method)) {
    if (slider("stiffness (N/m)", base + "/stiffness", number_at(s, "stiffness", mesh_defaults.stiffness),
               0.1, 1e6, "%.4g", true, v))
      edit(at("stiffness"), v);
    if (slider("damping (N s/m)", base + "/damping", number_at(s, "damping", mesh_defaults.damping), 0.0,
               100.0, "%.4g", true, v))
      edit(at("damping"), v);
    if (slider("mass density", base + "/mass_density",
               number_at(s, "mass_density", mesh_defaults.mass_density), 1e-4, 1e4, "%.4g", true, v))
      edit(at("mass_density"), v);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("kg/m2 for membranes, kg/m3 for volume meshes");
    if (slider("mass damping (1/s)", base + "/mass_damping", number_at(s, "mass_damping", 0.0), 0.0, 1e4,
               "%.4g", true, v))
      edit(at("mass_damping"), v);
    // The explicit-Euler substep: without "dt" the scene picks a stable one from the mesh; a "dt"
    // above the stability limit is refused by the rebuild (its message says why).
    bool auto_dt = !s.contains("dt");
    if (ImGui::Checkbox("stable integrator step", &auto_dt)) {
      if (auto_dt) {
        erase(at("dt"));
      } else {
        edit(at("dt"), method_defaults.dt);
      }
    }
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("explicit Euler substep chosen from stiffness, masses and damping");
    if (!auto_dt && slider("integrator dt (s)", base + "/dt", number_at(s, "dt", method_defaults.dt), 1e-6,
                           1e-1, "%.3g", true, v))
      edit(at("dt"), v);
  }
  if (slider("max stretch", base + "/max_stretch", number_at(s, "max_stretch", mesh_defaults.max_stretch),
             1.0, 3.0, "%.3f", false, v))
    edit(at("max_stretch"), v);
  if (is_dragnet(method) &&
      slider("Dragnet factor", base + "/dragnet_factor",
             number_at(s, "dragnet_factor", method_defaults.dragnet_factor), 0.01, 1.0, "%.3f", false, v))
    edit(at("dragnet_factor"), v);
  if (uses_provot(method) &&
      slider("Provot factor", base + "/provot_factor",
             number_at(s, "provot_factor", method_defaults.provot_factor), 0.01, 2.0, "%.3f", false, v))
    edit(at("provot_factor"), v);
  if (mode != "off") {
    if (slider("seed threshold (N)", base + "/tearing/seed_threshold",
               number_at(tearing, "seed_threshold", tear_defaults.seed_threshold), 1e-4, 1e4, "%.4g", true,
               v))
      edit(at("tearing/seed_threshold"), v);
    if (slider("edge threshold (N)", base + "/tearing/edge_threshold",
               number_at(tearing, "edge_threshold", tear_defaults.edge_threshold), 1e-4, 1e4, "%.4g", true,
               v))
      edit(at("tearing/edge_threshold"), v);
    if (slider("inner threshold (N)", base + "/tearing/inner_threshold",
               number_at(tearing, "inner_threshold", tear_defaults.inner_threshold), 1e-4, 1e4, "%.4g", true,
               v))
      edit(at("tearing/inner_threshold"), v);
  }
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
