#include "world_model.hpp"

#include <imgui.h>

#include <algorithm>

namespace pliant::viewer {

Result<std::unique_ptr<WorldViewerModel>> WorldViewerModel::create(std::string title, Builder build) {
  auto world = build();
  if (!world.ok()) return world.error();
  if (!*world) return Error{title + ": the scene builder returned no world"};
  return std::unique_ptr<WorldViewerModel>(
      new WorldViewerModel(std::move(title), std::move(build), std::move(world).value()));
}

WorldViewerModel::WorldViewerModel(std::string title, Builder build, std::unique_ptr<scene::World> world)
    : title_(std::move(title)), build_(std::move(build)), world_(std::move(world)) {}

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

void WorldViewerModel::step() { world_->step(); }

void WorldViewerModel::reset() {
  release();
  auto fresh = build_();
  if (!fresh.ok() || !*fresh) {
    reset_error_ = fresh.ok() ? "the scene builder returned no world" : fresh.message();
    return;
  }
  reset_error_.clear();
  world_ = std::move(fresh).value();
}

void WorldViewerModel::panel() {
  ImGui::Text("t = %.4f s  step %llu  dt = %.3g s", world_->time(),
              static_cast<unsigned long long>(world_->step_count()), world_->time_step());
  for (std::size_t i = 0; i < world_->body_count(); ++i) {
    const scene::Body& b = world_->body(static_cast<Index>(i));
    ImGui::BulletText("%s (%.*s)", b.name().c_str(), static_cast<int>(b.family().size()), b.family().data());
  }
  if (!world_->events().empty()) ImGui::Text("%zu events in the last step", world_->events().size());
  if (!reset_error_.empty())
    ImGui::TextColored(ImVec4(1, 0.4f, 0.3f, 1), "reset failed: %s", reset_error_.c_str());
}

}  // namespace pliant::viewer
