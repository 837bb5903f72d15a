#include "test_models.hpp"

#include "pliant/core/aabb.hpp"
#include "pliant/core/topology.hpp"
#include "pliant/io/mesh_file.hpp"
#include "pliant/meshing/icosphere.hpp"

#include <imgui.h>

#include <cmath>

namespace pliant::viewer {

Result<TriMesh> load_surface(const std::filesystem::path& path) {
  auto file = io::read_mesh_file(path);
  if (!file.ok()) return file.error();
  if (!file->tets.empty()) {
    TetMesh volume{std::move(file->positions), std::move(file->tets)};
    BoundarySurface boundary = extract_boundary(volume);
    if (boundary.mesh.triangles.empty())
      return Error{path.string() + ": the volume mesh has no boundary faces"};
    return std::move(boundary.mesh);
  }
  if (file->triangles.empty()) return Error{path.string() + ": no triangles or tetrahedra to show"};
  TriMesh mesh{std::move(file->positions), std::move(file->triangles)};
  return mesh;
}

TriMesh sphere_surface(double radius, int levels) {
  // Valid arguments by construction (callers pass constants), so the mesher cannot fail here.
  return *meshing::icosphere({.radius = radius, .subdivisions = levels});
}

StaticMeshModel::StaticMeshModel(TriMesh mesh, std::string name)
    : mesh_(std::move(mesh)), name_(std::move(name)) {}

PullTestModel::PullTestModel(TriMesh mesh, std::string name)
    : mesh_(std::move(mesh)),
      name_(std::move(name)),
      positions_(mesh_.positions),
      weight_(mesh_.positions.size(), 0.0) {
  radius_ = std::max(0.5 * bounding_box(mesh_.positions).diagonal(), 1e-9);
}

bool PullTestModel::field(std::size_t, std::string_view name, std::vector<double>& values,
                          std::string& unit) const {
  if (name != "displacement") return false;
  values.resize(positions_.size());
  for (std::size_t i = 0; i < positions_.size(); ++i) values[i] = (positions_[i] - mesh_.positions[i]).norm();
  unit = "m";
  return true;
}

bool PullTestModel::grab(std::size_t, Index triangle, double u, double v) {
  if (triangle < 0 || static_cast<std::size_t>(triangle) >= mesh_.triangles.size()) return false;
  const Tri& t = mesh_.triangles[static_cast<std::size_t>(triangle)];
  // Weights are taken about the grabbed point's rest position; what is already displaced stays
  // with the old grab's shape, so a new grab starts from the rest shape (a test model keeps it simple).
  anchor_ = (1 - u - v) * mesh_.positions[t[0]] + u * mesh_.positions[t[1]] + v * mesh_.positions[t[2]];
  const double sigma = falloff * radius_;
  for (std::size_t i = 0; i < weight_.size(); ++i)
    weight_[i] = std::exp(-(mesh_.positions[i] - anchor_).squaredNorm() / (2 * sigma * sigma));
  // Normalised so the grabbed point itself (the barycentric mix of its corners) moves by exactly the
  // offset: the surface stays under the cursor.
  const double at_point = (1 - u - v) * weight_[t[0]] + u * weight_[t[1]] + v * weight_[t[2]];
  for (double& w : weight_) w /= at_point;
  const Vec3 current = (1 - u - v) * positions_[t[0]] + u * positions_[t[1]] + v * positions_[t[2]];
  offset_ = wanted_ = current - anchor_;
  grabbed_ = true;
  return true;
}

void PullTestModel::move_grab(const Vec3& target) {
  if (grabbed_ && target.allFinite()) wanted_ = target - anchor_;
}

void PullTestModel::release() {
  grabbed_ = false;
  wanted_ = Vec3::Zero();  // springs back
}

Vec3 PullTestModel::grab_reaction() const { return grabbed_ ? Vec3(-stiffness * offset_) : Vec3::Zero(); }

void PullTestModel::step() {
  Stopwatch watch;
  offset_ += std::clamp(follow, 1e-3, 1.0) * (wanted_ - offset_);
  profile_.record("follow", watch.ms());
  watch.reset();
  for (std::size_t i = 0; i < positions_.size(); ++i)
    positions_[i] = mesh_.positions[i] + weight_[i] * offset_;
  profile_.record("update_surface", watch.ms());
}

void PullTestModel::reset() {
  grabbed_ = false;
  offset_ = wanted_ = Vec3::Zero();
  positions_ = mesh_.positions;
}

void PullTestModel::panel() {
  ImGui::TextWrapped(
      "Test model, no physics: nodes follow the grab with a Gaussian falloff, and no reaction force is "
      "computed or shown. Open a scene file to drag a simulated body.");
  float f = static_cast<float>(falloff), a = static_cast<float>(follow);
  if (ImGui::SliderFloat("falloff", &f, 0.05f, 1.0f)) falloff = f;
  if (ImGui::SliderFloat("follow", &a, 0.02f, 1.0f)) follow = a;
}

}  // namespace pliant::viewer
