#include "scene_set_model.hpp"

#include <imgui.h>

#include <chrono>

namespace pliant::viewer {

Result<std::unique_ptr<SceneSetModel>> SceneSetModel::create(std::vector<Entry> scenes, std::size_t shown,
                                                             FirstBuild first_build) {
  if (scenes.empty() || shown >= scenes.size()) return Error{"no scene to show"};
  std::unique_ptr<SceneSetModel> set(new SceneSetModel());
  for (Entry& e : scenes) {
    Scene s;
    s.name = std::move(e.name);
    s.make = std::move(e.make);
    set->scenes_.push_back(std::move(s));
  }
  set->shown_ = shown;
  Scene& first = set->scenes_[shown];
  if (first_build == FirstBuild::background) {
    set->start_build(first);
    return set;
  }
  auto model = first.make();
  if (!model.ok()) return model.error();
  first.model = std::move(model).value();
  set->any_built_ = true;
  return set;
}

SceneSetModel::~SceneSetModel() {
  for (Scene& s : scenes_)
    if (s.building.valid()) s.building.wait();
}

void SceneSetModel::start_build(Scene& s) {
  s.clock.reset();
  s.building = std::async(std::launch::async,
                          [make = s.make]() -> std::pair<std::unique_ptr<ViewerModel>, std::string> {
                            try {
                              auto model = make();
                              if (!model.ok()) return {nullptr, model.message()};
                              return {std::move(model).value(), ""};
                            } catch (const std::exception& e) {
                              return {nullptr, std::string("building the scene failed: ") + e.what()};
                            }
                          });
}

void SceneSetModel::land(Scene& s) {
  auto [model, error] = s.building.get();
  s.model = std::move(model);
  s.error = std::move(error);
  if (s.model) any_built_ = true;
  if (&s == &scenes_[shown_]) ++changes_;  // the shown scene appears: re-frame and re-pick
}

void SceneSetModel::show(std::size_t i) {
  if (i >= scenes_.size() || i == shown_) return;
  release();
  shown_ = i;
  ++changes_;
  Scene& s = scenes_[i];
  if (!s.model && !s.building.valid() && s.error.empty()) start_build(s);
}

void SceneSetModel::finish_building() {
  Scene& s = scenes_[shown_];
  if (s.building.valid()) {
    s.building.wait();
    land(s);
  }
}

std::string SceneSetModel::title() const {
  return scenes_[shown_].name + " (scene " + std::to_string(shown_ + 1) + " of " +
         std::to_string(scenes_.size()) + ")";
}

LoadingState SceneSetModel::loading() const {
  const Scene& s = scenes_[shown_];
  if (!s.building.valid()) return {};
  return {true, s.name, s.clock.seconds()};
}

std::string SceneSetModel::fatal_error() const {
  const Scene& s = scenes_[shown_];
  return any_built_ ? std::string() : s.error;  // the scene layer's message names the scene
}

std::vector<std::string> SceneSetModel::field_names() const {
  return current() ? current()->field_names() : std::vector<std::string>{};
}

bool SceneSetModel::field(std::size_t index, std::string_view name, std::vector<double>& values,
                          std::string& unit) const {
  return current() && current()->field(index, name, values, unit);
}

bool SceneSetModel::grab(std::size_t index, Index triangle, double u, double v) {
  return current() && current()->grab(index, triangle, u, v);
}

void SceneSetModel::move_grab(const Vec3& target) {
  if (current()) current()->move_grab(target);
}

void SceneSetModel::release() {
  if (current()) current()->release();
}

Vec3 SceneSetModel::grab_reaction() const { return current() ? current()->grab_reaction() : Vec3::Zero(); }

void SceneSetModel::poll() {
  for (Scene& s : scenes_) {
    if (s.building.valid() && s.building.wait_for(std::chrono::seconds(0)) == std::future_status::ready)
      land(s);
    if (s.model) s.model->poll();
  }
}

void SceneSetModel::step() {
  if (current()) current()->step();
}

void SceneSetModel::reset() {
  if (current()) current()->reset();
}

void SceneSetModel::panel() {
  int index = static_cast<int>(shown_);
  std::string items;
  for (const Scene& s : scenes_) items += s.name + '\0';
  if (ImGui::Combo("scene", &index, items.c_str())) show(static_cast<std::size_t>(index));
  const Scene& s = scenes_[shown_];
  if (s.building.valid()) {
    // The scene layer reports no progress of its own: show that it works and for how long.
    char label[64];
    std::snprintf(label, sizeof label, "building %s: %.1f s", s.name.c_str(), s.clock.seconds());
    const float sweep = static_cast<float>(s.clock.seconds() / 2.0);
    ImGui::ProgressBar(sweep - static_cast<float>(static_cast<int>(sweep)), ImVec2(-1, 0), label);
  } else if (!s.error.empty()) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextColored(ImVec4(1, 0.4f, 0.3f, 1), "%s", s.error.c_str());
    ImGui::PopTextWrapPos();
  } else if (current()) {
    current()->panel();
  }
}

// The change count sits in the high bits: a switch or a scene landing changes both numbers, and the
// shown scene's own counters keep changing them while it is shown.
std::uint64_t SceneSetModel::surfaces_generation() const {
  return (changes_ << 40) + (current() ? current()->surfaces_generation() : 0);
}

std::uint64_t SceneSetModel::scene_generation() const {
  return (changes_ << 40) + (current() ? current()->scene_generation() : 0);
}

}  // namespace pliant::viewer
