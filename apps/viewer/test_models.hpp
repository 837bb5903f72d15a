// Stand-in models for the viewer until the scene layer plugs in real bodies:
//   StaticMeshModel  shows a surface that never moves and refuses grabs;
//   PullTestModel    a TEST model, not physics: the grabbed point follows the mouse and nearby nodes
//                    follow it with a Gaussian falloff; its "reaction" is a linear spring pulling
//                    back. It exists to exercise picking, dragging, arrows and colour fields.
#pragma once

#include "pliant/core/result.hpp"
#include "pliant/core/tri_mesh.hpp"
#include "viewer_model.hpp"

#include <filesystem>

namespace pliant::viewer {

/// The boundary surface of a mesh file (a volume mesh's boundary faces, or a surface's triangles).
Result<TriMesh> load_surface(const std::filesystem::path& path);

/// A sphere surface of radius `radius` (unit: m) made by subdividing an icosahedron `levels` times.
TriMesh sphere_surface(double radius, int levels);

class StaticMeshModel : public ViewerModel {
 public:
  StaticMeshModel(TriMesh mesh, std::string name);
  std::string title() const override { return name_; }
  std::size_t surface_count() const override { return 1; }
  ViewerSurface surface(std::size_t) const override { return {name_, mesh_.positions, mesh_.triangles, 0}; }
  bool grab(std::size_t, Index, double, double) override { return false; }
  bool has_reaction() const override { return false; }
  void move_grab(const Vec3&) override {}
  void release() override {}
  Vec3 grab_reaction() const override { return Vec3::Zero(); }
  void step() override {}
  void reset() override {}

 private:
  TriMesh mesh_;
  std::string name_;
};

class PullTestModel : public ViewerModel {
 public:
  PullTestModel(TriMesh mesh, std::string name);
  std::string title() const override { return name_ + " (pull test model)"; }
  std::size_t surface_count() const override { return 1; }
  ViewerSurface surface(std::size_t) const override { return {name_, positions_, mesh_.triangles, 0}; }
  std::vector<std::string> field_names() const override { return {"displacement"}; }
  bool field(std::size_t index, std::string_view name, std::vector<double>& values,
             std::string& unit) const override;
  bool grab(std::size_t index, Index triangle, double u, double v) override;
  void move_grab(const Vec3& target) override;
  void release() override;
  Vec3 grab_reaction() const override;
  /// False: the spring "reaction" is no physical force, so the viewer shows none.
  bool has_reaction() const override { return false; }
  void step() override;
  void reset() override;
  void panel() override;
  const Profile* profile() const override { return &profile_; }

  double falloff = 0.3;      ///< Gaussian width as a fraction of the mesh's bounding radius
  double stiffness = 200.0;  ///< spring constant of the reported reaction (unit: N/m)
  double follow = 0.35;      ///< fraction of the remaining offset closed per step, (0, 1]

 private:
  TriMesh mesh_;  // rest shape
  std::string name_;
  std::vector<Vec3> positions_;
  std::vector<double> weight_;  // Gaussian weight of each node about the grabbed point
  Vec3 offset_ = Vec3::Zero();  // current displacement of the grabbed point (unit: m)
  Vec3 wanted_ = Vec3::Zero();  // displacement the mouse asks for (unit: m)
  Vec3 anchor_ = Vec3::Zero();  // rest position of the grabbed point (unit: m)
  bool grabbed_ = false;
  double radius_ = 1.0;
  Profile profile_;
};

}  // namespace pliant::viewer
