#include "viewer.hpp"

#include "pliant/core/surface_picker.hpp"
#include "pliant/io/atomic_file.hpp"
#include "pliant/render/color_range.hpp"
#include "pliant/render/framing.hpp"
#include "pliant/render/gl_renderer.hpp"
#include "pliant/render/guides.hpp"
#include "pliant/render/image.hpp"
#include "pliant/render/shapes.hpp"

#include <GL/gl.h>
#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <vector>

namespace pliant::viewer {

Result<ScriptedDrag> parse_scripted_drag(const std::string& text) {
  ScriptedDrag d;
  char tail = 0;
  if (std::sscanf(text.c_str(), "%lf,%lf,%lf,%lf,%d%c", &d.x0, &d.y0, &d.x1, &d.y1, &d.frames, &tail) != 5 ||
      d.frames < 1)
    return Error{"--script-drag '" + text + "': expected x0,y0,x1,y1,frames (pixels, frames >= 1)"};
  return d;
}

std::string pick_field(const std::vector<std::string>& names, const std::string& wanted,
                       const std::string& default_field) {
  for (const std::string& candidate : {wanted, default_field})
    if (!candidate.empty() && std::find(names.begin(), names.end(), candidate) != names.end())
      return candidate;
  return {};
}

namespace {

std::string join(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

// Where a ray meets the plane through `point` with normal `normal` in front of its origin (unit: m), or
// nothing for a ray along the plane or one pointing away from it: a drag's target (a grab, an instrument).
std::optional<Vec3> on_plane(const Ray& ray, const Vec3& point, const Vec3& normal) {
  const double denom = ray.direction.dot(normal);
  if (std::abs(denom) <= 1e-9) return std::nullopt;
  const double t = (point - ray.origin).dot(normal) / denom;
  return t > 0 ? std::optional<Vec3>(ray.at(t)) : std::nullopt;
}

enum class Gesture { none, grab, orbit, pan, instrument };

class Viewer {
 public:
  Viewer(ViewerModel& model, const ViewerOptions& options)
      : model_(model),
        options_(options),
        show_grid_(options.grid),
        show_axes_(options.axes),
        show_fixed_(options.fixed_markers),
        instrument_mode_(options.instrument_mode) {}
  Status run();

 private:
  void update_picking();
  void press(double x, double y, int button);
  void move(double x, double y);
  void release_button();
  void drive_instrument(double x, double y);
  void set_instrument_mode(bool on);
  void toggle_jaws();
  void add_instrument_force(render::Frame& f);
  void frame_camera();
  void reset();
  void add_tools(render::Frame& f);
  void add_guides(render::Frame& f);
  Status choose_field(bool strict);
  void report_loading(const LoadingState& loading);
  void draw_loading(const LoadingState& loading);
  void draw_panel();
  render::Frame build_frame();
  Status screenshot(const std::filesystem::path& path);

  ViewerModel& model_;
  ViewerOptions options_;
  GLFWwindow* window_ = nullptr;
  render::Camera camera_;
  render::GlRenderer renderer_;
  SurfacePicker picker_;  // the model's surfaces, refitted every frame, rebuilt on topology changes

  Gesture gesture_ = Gesture::none;
  double last_x_ = 0, last_y_ = 0;
  // The grab: which surface point is held, and the plane (through it, facing the camera) in which
  // the mouse ray places its target.
  std::size_t grab_surface_ = 0;
  Index grab_triangle_ = -1;
  double grab_u_ = 0, grab_v_ = 0;
  // The plane a drag moves in (a grab's target, an instrument's tip): through the point under the mouse
  // when it began (the instrument's tip), facing the camera.
  Vec3 drag_plane_point_ = Vec3::Zero();
  Vec3 drag_plane_normal_ = Vec3::UnitZ();
  Vec3 grab_target_ = Vec3::Zero();
  double force_scale_ = 0.0;  // largest force seen, sets the arrow length (unit: N)
  // Instrument mode: a left-drag moves the model's instrument tip (instead of grabbing a body) in the
  // drag plane through the tip, keeping the offset between the tip and the point under the mouse when
  // the drag began (instrument_mode_ below says whether a left-drag does that).
  Vec3 instrument_offset_ = Vec3::Zero();
  double instrument_force_scale_ = 0.0;  // largest instrument force seen (unit: N)

  bool paused_ = false;
  bool step_once_ = false;
  int field_index_ = 0;       // 0: none, else field_names()[i - 1]
  std::string field_name_;    // the coloured field's name
  std::string field_wanted_;  // --field or the user's pick in the panel, kept across scene switches
  int color_map_ = 0;
  int shading_ = 0;
  bool wireframe_ = false;
  int show_ = 0;  // 0: body surfaces; 1: and their interior points (phyxels, FEM nodes); 2: points only
  bool show_grid_ = true;         // floor grid at the scene's floor, else just below the bodies
  bool show_axes_ = true;         // world axes at the grid's corner
  bool show_fixed_ = true;        // markers on the fixed surface nodes
  bool instrument_mode_ = false;  // a left-drag moves the model's instrument (the I key)
  TriMesh grid_mesh_;             // borrowed by the frame
  Aabb guide_box_;                // the bodies' box when last framed: where the grid and axes go
  render::PointGlyphs fixed_glyphs_;
  // Per drawn surface, its main pieces' nodes (render::main_piece_nodes) and the triangles they were
  // found on.
  struct MainNodes {
    std::vector<Tri> triangles;
    std::vector<std::uint8_t> main;
  };
  std::vector<MainNodes> main_nodes_;
  std::vector<Vec3> fixed_points_;
  render::PointGlyphs point_glyphs_;
  std::vector<std::vector<double>> field_values_;
  std::vector<std::vector<double>>
      drawn_values_;  // a body's surface field before it is carried to its render mesh
  // Tool cylinders, meshed each frame (the render Frame borrows these arrays).
  render::CylinderMeshes tool_meshes_;
  render::ContactShapes contact_shapes_;  // colliders and contact points, borrowed by the frame
  // The panel's rectangle in window units, as drawn last (the camera frames bodies right of it).
  float panel_right_ = kPanelMargin + kPanelWidth;
  bool panel_open_ = true;
  // Progress lines on the terminal while the model loads.
  bool was_loading_ = true;  // set from options_ in run()
  double loading_reported_s_ = 0.0;
  std::string field_unit_;
  double field_min_ = 0, field_max_ = 1;
  double step_ms_ = 0, draw_ms_ = 0;
  long frame_ = 0;
  std::uint64_t surfaces_generation_ = 0, scene_generation_ = 0;
};

// The last GLFW error, folded into the one-line message run_viewer returns (GLFW reports through a
// callback, before the failing call returns).
std::string& glfw_error_text() {
  static std::string text;
  return text;
}

// GLFW reports why a call failed through a callback; the last report, for messages.
void record_glfw_errors() {
  glfwSetErrorCallback([](int code, const char* text) {
    glfw_error_text() = "GLFW error " + std::to_string(code) + ": " + text;
  });
}

// " (GLFW error N: what)" on one line, or "" when GLFW said nothing.
std::string glfw_error() {
  std::string text = glfw_error_text();
  std::replace(text.begin(), text.end(), '\n', ' ');
  return text.empty() ? std::string() : " (" + text + ")";
}

// glfwInit, or the one-line error saying there is no display.
Status init_glfw() {
  if (!glfwInit())
    return Error{"cannot open the viewer window: no display" + glfw_error() +
                 "; run it on a desktop, or headless under xvfb-run"};
  return {};
}

void Viewer::update_picking() {
  // A model that replaced its surfaces: the held triangle means nothing in the new ones.
  if (model_.surfaces_generation() != surfaces_generation_) {
    surfaces_generation_ = model_.surfaces_generation();
    // So does a drag of the instrument: the new world's instrument starts at its own pose.
    if (gesture_ == Gesture::grab || gesture_ == Gesture::instrument) {
      gesture_ = Gesture::none;
      grab_triangle_ = -1;
    }
    picker_.invalidate();
  }
  picker_.resize(model_.surface_count());
  for (std::size_t i = 0; i < picker_.size(); ++i) {
    const ViewerSurface s = model_.surface(i);
    picker_.update(i, s.positions, s.triangles, s.topology_version);
  }
}

void Viewer::press(double x, double y, int button) {
  last_x_ = x;
  last_y_ = y;
  if (button == GLFW_MOUSE_BUTTON_LEFT && instrument_mode_) {
    if (const std::optional<ViewerInstrument> in = model_.instrument()) {
      drag_plane_point_ = in->tip;
      drag_plane_normal_ = camera_.forward();
      // The tip keeps its offset from the point under the mouse: it does not jump to the cursor.
      const std::optional<Vec3> under = on_plane(camera_.ray(x, y), drag_plane_point_, drag_plane_normal_);
      instrument_offset_ = under ? Vec3(in->tip - *under) : Vec3::Zero();
      gesture_ = Gesture::instrument;
      return;
    }
  }
  if (button == GLFW_MOUSE_BUTTON_LEFT) {
    const Ray ray = camera_.ray(x, y);
    const std::optional<SurfaceHit> picked = picker_.pick(ray);
    const std::optional<RayHit> best = picked ? std::optional<RayHit>(picked->hit) : std::nullopt;
    const std::size_t best_surface = picked ? picked->surface : 0;
    if (best && model_.grab(best_surface, best->triangle, best->u, best->v)) {
      gesture_ = Gesture::grab;
      grab_surface_ = best_surface;
      grab_triangle_ = best->triangle;
      grab_u_ = best->u;
      grab_v_ = best->v;
      drag_plane_point_ = ray.at(best->t);
      drag_plane_normal_ = camera_.forward();
      grab_target_ = drag_plane_point_;
      return;
    }
    gesture_ = Gesture::orbit;
  } else {
    gesture_ = Gesture::pan;
  }
}

void Viewer::move(double x, double y) {
  const double dx = x - last_x_, dy = y - last_y_;
  last_x_ = x;
  last_y_ = y;
  switch (gesture_) {
    case Gesture::orbit:
      camera_.orbit(-0.008 * dx, 0.008 * dy);
      break;
    case Gesture::pan:
      camera_.pan(dx, dy);
      break;
    case Gesture::grab:
      if (const std::optional<Vec3> target =
              on_plane(camera_.ray(x, y), drag_plane_point_, drag_plane_normal_)) {
        grab_target_ = *target;
        model_.move_grab(grab_target_);
      }
      break;
    case Gesture::instrument:
      drive_instrument(x, y);
      break;
    case Gesture::none:
      break;
  }
}

// Where the mouse ray meets the instrument's plane, plus the offset taken when the drag began.
void Viewer::drive_instrument(double x, double y) {
  if (const std::optional<Vec3> under = on_plane(camera_.ray(x, y), drag_plane_point_, drag_plane_normal_))
    model_.move_instrument(*under + instrument_offset_);
}

void Viewer::set_instrument_mode(bool on) {
  if (gesture_ == Gesture::grab || gesture_ == Gesture::instrument) release_button();
  instrument_mode_ = on;
}

void Viewer::toggle_jaws() {
  if (const std::optional<ViewerInstrument> in = model_.instrument(); in && in->grasper)
    model_.close_jaws(!in->jaws_closed);
}

// The bodies' contact force on the instrument, as an arrow at its tip labelled in N, whenever it is
// not zero (the mouse or its own track moving it); the largest seen is drawn half a scene radius long.
void Viewer::add_instrument_force(render::Frame& f) {
  const std::optional<ViewerInstrument> in = model_.instrument();
  if (!in || !in->tip.allFinite() || !in->force.allFinite()) return;
  const double magnitude = in->force.norm();
  instrument_force_scale_ = std::max(instrument_force_scale_, magnitude);
  if (!(magnitude > 0) || !(instrument_force_scale_ > 0)) return;
  char label[32];
  std::snprintf(label, sizeof label, "%.3g N", magnitude);
  // Beside the tip as seen from the camera (across both the force and the view direction), clear of
  // the instrument by the arrow head's radius: a probe's force runs along its own shaft, which would
  // hide an arrow starting at the tip.
  const double radius = camera_.scene_radius / 80.0;  // the renderer's default arrow shaft
  Vec3 side = in->force.cross(camera_.forward());
  side = side.norm() > 1e-6 * magnitude ? Vec3(side.normalized()) : camera_.right();
  const Vec3 start = in->tip + (in->reach + 3.0 * radius) * side;
  f.arrows.push_back({start,
                      start + (0.5 * camera_.scene_radius / instrument_force_scale_) * in->force,
                      {0.95f, 0.3f, 0.15f},
                      radius,
                      label});
}

void Viewer::release_button() {
  if (gesture_ == Gesture::grab) model_.release();  // an instrument stays where the drag left it
  gesture_ = Gesture::none;
  grab_triangle_ = -1;
}

void Viewer::frame_camera() {
  Aabb box;
  for (std::size_t i = 0; i < model_.surface_count(); ++i)
    for (const Vec3& p : model_.surface(i).positions)
      if (p.allFinite()) box.extend(p);
  // Frame the bodies in the part of the window the panel (left) and the colour bar with its values
  // (right, when the model has fields to colour by) leave free, unless that part is too narrow to be
  // useful (then the panel covers a side of the view, which the user can pan).
  int ww = 0, wh = 0;
  glfwGetWindowSize(window_, &ww, &wh);
  const double sx = ww > 0 ? static_cast<double>(camera_.width) / ww : 1.0;
  double left = options_.show_panel && panel_open_ ? (panel_right_ + kPanelMargin) * sx : 0.0;
  guide_box_ = box;
  const double right =
      model_.field_names().empty() ? camera_.width : render::color_bar_left(camera_.width, camera_.height);
  if (right - left < camera_.width / 3.0) left = 0.0;
  camera_.frame_region(box, left, 0.0, right, camera_.height, 1.15);
}

// The floor grid (at the scene's floor, else a twentieth of the bodies' size below them), the world
// axes at the grid's near corner, and the fixed nodes as yellow octahedra. Sizes follow the bodies'
// box when the camera framed them, so the grid stays put while they deform.
void Viewer::add_guides(render::Frame& f) {
  Aabb box = guide_box_;
  if (box.empty())
    for (const render::Surface& s : f.surfaces)
      for (const Vec3& p : s.positions)
        if (p.allFinite()) box.extend(p);
  if (box.empty()) return;
  const double size = std::max(box.diagonal(), 1e-9);
  const double floor = model_.floor_height().value_or(box.min.y() - 0.05 * size);
  if (show_grid_) {
    // A hair above the floor collider's quad, so the lines win the depth test.
    grid_mesh_ = render::floor_grid(box, floor + 1e-3 * size, 2e-3 * size);
    render::Surface s;
    s.positions = grid_mesh_.positions;
    s.triangles = grid_mesh_.triangles;
    s.color = render::kGridColor;
    s.shading = render::Shading::unlit;
    f.surfaces.push_back(s);
  }
  if (show_axes_) {
    const Vec3 corner(box.min.x() - 0.1 * size, floor, box.max.z() + 0.1 * size);
    for (const render::Arrow& a : render::axes_arrows(corner, 0.2 * size)) f.arrows.push_back(a);
  }
  if (show_fixed_) {
    fixed_points_ = model_.fixed_points();
    if (!fixed_points_.empty()) {
      const std::span<const Vec3> cloud = fixed_points_;
      fixed_glyphs_.add_to(f, std::span<const std::span<const Vec3>>(&cloud, 1), size / 80.0);
      f.surfaces.back().color = render::kFixedColor;
    }
  }
}

// Tools as closed grey cylinders, meshed by the render module like the CLI's PNG frames.
void Viewer::add_tools(render::Frame& f) {
  std::vector<render::Cylinder> cylinders;
  for (const ViewerTool& t : model_.tools()) cylinders.push_back({t.centre, t.axis, t.radius, t.half_length});
  tool_meshes_.add_to(f, cylinders);
  // Colliders (slate blue) and the held contact points (orange), as in the CLI's PNG frames.
  Aabb around;
  for (const render::Surface& s : f.surfaces)
    for (const Vec3& p : s.positions) around.extend(p);
  contact_shapes_.add_to(f, model_.collider_surfaces(around), model_.contact_points(),
                         camera_.scene_radius / 120.0);
}

// The field shown when a scene appears (the first, or another one): --field or the user's pick if
// the scene has it, else the scene's own output field. `strict`: a --field the scene lacks is an
// error (checked once the first scene is there).
Status Viewer::choose_field(bool strict) {
  const std::vector<std::string> names = model_.field_names();
  field_name_ = pick_field(names, field_wanted_, model_.default_field());
  const auto it = std::find(names.begin(), names.end(), field_name_);
  field_index_ = it == names.end() ? 0 : static_cast<int>(it - names.begin()) + 1;
  if (strict && !options_.field.empty() && field_name_ != options_.field)
    return Error{"--field '" + options_.field + "': the model has no such field" +
                 (names.empty() ? std::string() : " (it has: " + join(names) + ")")};
  return {};
}

// Lines on stderr while the model builds with nothing to show: when it starts, every 5 s (every 15 s
// after the first 30 s), when done.
void Viewer::report_loading(const LoadingState& loading) {
  if (!options_.progress_on_terminal) return;
  // The caller announced the first build (it may have finished before the first frame), so the
  // first frame that shows the scene says "ready".
  if (loading.active && !was_loading_) {
    std::fprintf(stderr, "building %s (the window shows it when ready)...\n", loading.what.c_str());
    loading_reported_s_ = 0.0;
  } else if (const double every = loading_reported_s_ < 30.0 ? 5.0 : 15.0;
             loading.active && loading.seconds >= loading_reported_s_ + every) {
    loading_reported_s_ = every * std::floor(loading.seconds / every);
    std::fprintf(stderr, "  still building %s: %.0f s\n", loading.what.c_str(), loading_reported_s_);
  } else if (!loading.active && was_loading_) {
    std::fprintf(stderr, "ready: %s\n", model_.title().c_str());
  }
  was_loading_ = loading.active;
}

// A progress bar in the middle of the free part of the window while nothing can be drawn. The scene
// layer reports no progress of its own: the bar sweeps and the elapsed time counts.
void Viewer::draw_loading(const LoadingState& loading) {
  const ImVec2 size = ImGui::GetIO().DisplaySize;
  const float left = options_.show_panel ? panel_right_ + kPanelMargin : 0.0f;
  const float width = std::min(420.0f, std::max(160.0f, size.x - left - 40.0f));
  ImGui::SetNextWindowPos(ImVec2(left + 0.5f * (size.x - left), 0.5f * size.y), ImGuiCond_Always,
                          ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSize(ImVec2(width, 0), ImGuiCond_Always);
  ImGui::Begin("##loading", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoInputs);
  ImGui::Text("Building %s ...", loading.what.c_str());
  ImGui::TextWrapped(
      "Precomputing the bodies (a Green body's response takes seconds); the scene appears "
      "when ready.");
  char label[48];
  std::snprintf(label, sizeof label, "%.1f s", loading.seconds);
  const float sweep = static_cast<float>(loading.seconds / 2.0);
  ImGui::ProgressBar(sweep - std::floor(sweep), ImVec2(-1, 0), label);
  ImGui::End();
}

void Viewer::reset() {
  release_button();
  model_.reset();
  force_scale_ = 0;
  instrument_force_scale_ = 0;
}

render::Frame Viewer::build_frame() {
  render::Frame f;
  f.camera = camera_;
  const std::vector<std::string> names = model_.field_names();
  if (field_index_ > static_cast<int>(names.size())) field_index_ = 0;
  field_name_ = field_index_ > 0 ? names[static_cast<std::size_t>(field_index_ - 1)] : std::string();
  if (field_name_.empty()) field_unit_.clear();
  field_values_.resize(model_.surface_count());
  bool any_field = false;
  double lo = INFINITY, hi = -INFINITY;
  for (std::size_t i = 0; i < model_.surface_count(); ++i) {
    const ViewerSurface s = model_.surface(i);
    // A body with a render mesh is drawn as that mesh, its field carried over from the surface's.
    const std::optional<ViewerSurface> drawn = model_.drawn_surface(i);
    render::Surface r;
    r.positions = drawn ? drawn->positions : s.positions;
    r.triangles = drawn ? drawn->triangles : s.triangles;
    r.shading = static_cast<render::Shading>(shading_);
    r.wireframe = wireframe_;
    r.color_map = static_cast<render::ColorMap>(color_map_);
    field_values_[i].clear();
    if (field_index_ > 0 &&
        model_.field(i, names[static_cast<std::size_t>(field_index_ - 1)], field_values_[i], field_unit_) &&
        field_values_[i].size() == s.positions.size()) {
      if (drawn) {
        drawn_values_.resize(model_.surface_count());
        model_.drawn_field(i, field_values_[i], drawn_values_[i]);
        field_values_[i].swap(drawn_values_[i]);
      }
      r.field = field_values_[i];
      // The PNG frames' rule (render/framing.hpp): a fragment falling away does not set the range. The
      // pieces are found again only when the triangles change (a cut, a tear).
      if (main_nodes_.size() <= i) main_nodes_.resize(model_.surface_count());
      MainNodes& m = main_nodes_[i];
      if (!std::ranges::equal(m.triangles, r.triangles) || m.main.size() != r.positions.size()) {
        m.triangles.assign(r.triangles.begin(), r.triangles.end());
        m.main = render::main_piece_nodes(r.positions, r.triangles);
      }
      for (std::size_t k = 0; k < field_values_[i].size() && k < m.main.size(); ++k)
        if (m.main[k] && std::isfinite(field_values_[i][k])) {
          lo = std::min(lo, field_values_[i][k]);
          hi = std::max(hi, field_values_[i][k]);
        }
      any_field = true;
    }
    f.surfaces.push_back(r);
  }
  if (any_field) {
    // The PNG frames' rule (render/color_range.hpp): a range below its floor is one colour.
    Aabb box;
    for (const render::Surface& r : f.surfaces)
      for (const Vec3& p : r.positions)
        if (p.allFinite()) box.extend(p);
    const render::ColorRange range =
        render::color_range(lo, hi, field_unit_, box.empty() ? 0.0 : box.diagonal());
    lo = range.min;
    hi = range.max;
    field_min_ = lo;
    field_max_ = hi;
    for (render::Surface& r : f.surfaces) {
      r.range_min = lo;
      r.range_max = hi;
    }
    f.color_bar = {true, static_cast<render::ColorMap>(color_map_), lo, hi,
                   render::color_bar_label(field_name_, field_unit_)};
  }
  if (show_ == 2) f.surfaces.clear();  // points only: the bodies' surfaces would hide them
  add_tools(f);                        // first: colliders' quads are sized around the bodies, not the grid
  add_guides(f);
  if (show_ > 0) {
    const std::vector<std::span<const Vec3>> clouds = model_.interior_points();
    point_glyphs_.add_to(f, clouds, camera_.scene_radius / 150.0);
  }
  add_instrument_force(f);
  if (gesture_ == Gesture::grab && grab_triangle_ >= 0 && grab_surface_ < model_.surface_count()) {
    const ViewerSurface s = model_.surface(grab_surface_);
    if (static_cast<std::size_t>(grab_triangle_) < s.triangles.size()) {
      const Tri& t = s.triangles[static_cast<std::size_t>(grab_triangle_)];
      const Vec3 point = (1 - grab_u_ - grab_v_) * s.positions[t[0]] + grab_u_ * s.positions[t[1]] +
                         grab_v_ * s.positions[t[2]];
      const Vec3 force = model_.has_reaction() ? model_.grab_reaction() : Vec3::Zero();
      const double magnitude = force.allFinite() ? force.norm() : 0.0;
      force_scale_ = std::max(force_scale_, magnitude);
      // The largest force seen so far is drawn half a scene radius long.
      if (magnitude > 0 && force_scale_ > 0) {
        char label[32];
        std::snprintf(label, sizeof label, "%.3g N", magnitude);
        f.arrows.push_back({point,
                            point + (0.5 * camera_.scene_radius / force_scale_) * force,
                            {0.95f, 0.3f, 0.15f},
                            0.0,
                            label});
      }
      // A thin line to where the mouse holds the point.
      f.arrows.push_back({point, grab_target_, {0.3f, 0.8f, 1.0f}, camera_.scene_radius / 250.0, ""});
    }
  }
  return f;
}

void Viewer::draw_panel() {
  ImGui::SetNextWindowPos(ImVec2(kPanelMargin, kPanelMargin), ImGuiCond_FirstUseEver);
  // The full window height from the start: sized to its content, the panel would keep the height of
  // whatever it showed first (a scene still building shows little).
  ImGui::SetNextWindowSize(ImVec2(kPanelWidth, ImGui::GetIO().DisplaySize.y - 2 * kPanelMargin),
                           ImGuiCond_FirstUseEver);
  panel_open_ = ImGui::Begin("Pliant");
  panel_right_ = ImGui::GetWindowPos().x + ImGui::GetWindowWidth();
  if (!panel_open_) {
    ImGui::End();
    return;
  }
  ImGui::PushItemWidth(ImGui::GetWindowWidth() * kPanelItemWidth);  // room for the labels on the right
  ImGui::Text("%.1f FPS  step %.2f ms  draw %.2f ms", ImGui::GetIO().Framerate, step_ms_, draw_ms_);
  if (ImGui::CollapsingHeader("Bodies", ImGuiTreeNodeFlags_DefaultOpen)) {
    for (std::size_t i = 0; i < model_.surface_count(); ++i) {
      const ViewerSurface s = model_.surface(i);
      ImGui::BulletText("%s: %zu nodes, %zu triangles", s.name.c_str(), s.positions.size(),
                        s.triangles.size());
    }
  }
  if (ImGui::CollapsingHeader("Simulation", ImGuiTreeNodeFlags_DefaultOpen)) {
    if (ImGui::Button(paused_ ? "Run" : "Pause")) paused_ = !paused_;
    ImGui::SameLine();
    if (ImGui::Button("Step")) step_once_ = true;
    ImGui::SameLine();
    if (ImGui::Button("Reset")) reset();
    model_.panel();
  }
  if (ImGui::CollapsingHeader("Display", ImGuiTreeNodeFlags_DefaultOpen)) {
    std::vector<std::string> names = model_.field_names();
    std::string items = std::string("none") + '\0';
    for (const std::string& n : names) items += n + '\0';
    if (ImGui::Combo("field", &field_index_, items.c_str()))
      field_wanted_ = field_index_ > 0 ? names[static_cast<std::size_t>(field_index_ - 1)] : std::string();
    ImGui::Combo("colour map", &color_map_, "viridis\0turbo\0greys\0coolwarm\0");
    ImGui::Combo("shading", &shading_, "smooth\0flat\0unlit\0");
    ImGui::Checkbox("wireframe", &wireframe_);
    ImGui::Checkbox("floor grid", &show_grid_);
    ImGui::SameLine();
    ImGui::Checkbox("axes", &show_axes_);
    ImGui::SameLine();
    ImGui::Checkbox("fixed nodes", &show_fixed_);
    ImGui::Combo("show", &show_, "surfaces\0surfaces + interior points\0interior points only\0");
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("interior points: phyxels of meshless bodies, nodes of fem bodies");
    if (field_index_ > 0) ImGui::Text("range %.4g .. %.4g %s", field_min_, field_max_, field_unit_.c_str());
    if (ImGui::Button("Frame all (F)")) frame_camera();
  }
  if (const std::optional<ViewerInstrument> in = model_.instrument();
      in && ImGui::CollapsingHeader("Instrument", ImGuiTreeNodeFlags_DefaultOpen)) {
    bool mode = instrument_mode_;
    if (ImGui::Checkbox("instrument mode (I)", &mode)) set_instrument_mode(mode);
    if (instrument_mode_)
      ImGui::TextWrapped(
          "instrument mode: left-drag moves %s (%s; wheel while dragging: nearer or "
          "farther)",
          in->name.c_str(), in->type.c_str());
    else
      ImGui::TextWrapped("%s (%s; I: drive it with the mouse)", in->name.c_str(), in->type.c_str());
    ImGui::Text("contact force %.4g N  (%.3g, %.3g, %.3g)", in->force.norm(), in->force.x(), in->force.y(),
                in->force.z());
    ImGui::Text("contacts %d", in->contacts);
    if (in->grasper) {
      if (ImGui::Button(in->jaws_closed ? "Open jaws (J)" : "Close jaws (J)")) toggle_jaws();
      ImGui::SameLine();
      ImGui::Text("gap %.2f mm  grip %.3g N", 1e3 * in->gap, in->grip);
    }
  }
  if (gesture_ == Gesture::grab && model_.has_reaction()) {
    const Vec3 f = model_.grab_reaction();
    ImGui::TextWrapped("grab reaction %.4g N  (%.3g, %.3g, %.3g)", f.norm(), f.x(), f.y(), f.z());
  } else if (gesture_ == Gesture::grab) {
    ImGui::TextWrapped("grab: no reaction force (this model has no physics)");
  }
  if (const Profile* p = model_.profile();
      p != nullptr && ImGui::CollapsingHeader("Timings", ImGuiTreeNodeFlags_DefaultOpen)) {
    if (ImGui::BeginTable("stages", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp)) {
      const auto row = [](const char* name, double ms) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(name);
        ImGui::TableNextColumn();
        ImGui::Text("%8.3f ms", ms);
      };
      for (const Profile::Stage& s : p->stages) row(s.name.c_str(), s.ms);
      row("step total", p->total_ms());
      row("viewer step", step_ms_);
      row("draw", draw_ms_);
      ImGui::EndTable();
    }
  }
  if (ImGui::CollapsingHeader("Help")) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(
        "Left-drag a body: grab it (red arrow: the force it pulls back with). Left-drag elsewhere: "
        "orbit. Right or middle drag: pan. Wheel: zoom.\n"
        "Space: pause/run. S: one step. R: reset. F: frame all. P: fire a projectile along the mouse ray "
        "(speed in the panel). Esc: quit.\n"
        "I: instrument mode (a scene with an instrument): left-drag moves its tip in the plane facing "
        "you, the wheel while dragging moves it nearer or farther; red arrow at the tip: the bodies' "
        "force on it. J: close/open a grasper's jaws.");
    ImGui::PopTextWrapPos();
  }
  ImGui::PopItemWidth();
  ImGui::End();
}

Status Viewer::screenshot(const std::filesystem::path& path) {
  render::Image img;
  int w = 0, h = 0;
  glfwGetFramebufferSize(window_, &w, &h);
  img.width = w;
  img.height = h;
  std::vector<std::uint8_t> rows(static_cast<std::size_t>(w) * h * 4);
  glReadBuffer(GL_BACK);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, rows.data());
  img.rgba.resize(rows.size());
  const std::size_t row = static_cast<std::size_t>(w) * 4;
  for (int y = 0; y < h; ++y)
    std::memcpy(img.rgba.data() + y * row, rows.data() + static_cast<std::size_t>(h - 1 - y) * row, row);
  for (std::size_t i = 3; i < img.rgba.size(); i += 4) img.rgba[i] = 255;  // the window is opaque
  auto png = render::encode_png(img);
  if (!png.ok()) return png.error();
  return io::write_file_atomically(path, *png);
}

Status Viewer::run() {
  was_loading_ = options_.progress_on_terminal;
  record_glfw_errors();
  if (Status display = init_glfw(); !display.ok()) return display;
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  glfwWindowHint(GLFW_SAMPLES, 4);
  window_ = glfwCreateWindow(options_.width, options_.height, ("Pliant - " + model_.title()).c_str(), nullptr,
                             nullptr);
  if (window_ == nullptr) {
    const std::string why = glfw_error();
    glfwTerminate();
    return Error{"cannot create a window with an OpenGL 3.3 core context" + why};
  }
  glfwMakeContextCurrent(window_);
  glfwSwapInterval(options_.vsync && options_.after == 0 ? 1 : 0);

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // no imgui.ini left in the working directory
  ImGui::StyleColorsDark();
  ImGui_ImplGlfw_InitForOpenGL(window_, true);
  ImGui_ImplOpenGL3_Init("#version 330");

  Status status = renderer_.init();
  if (status.ok()) {
    int w = 0, h = 0;
    glfwGetFramebufferSize(window_, &w, &h);
    camera_.width = std::max(w, 1);
    camera_.height = std::max(h, 1);
    scene_generation_ = model_.scene_generation();
    frame_camera();
    update_picking();
    field_wanted_ = options_.field;
    // While the first scene builds there are no fields yet: --field is checked when it appears.
    status = choose_field(!model_.loading().active);
  }
  bool field_checked = status.ok() && !model_.loading().active;
  bool was_down[3] = {false, false, false};
  bool key_down[8] = {false, false, false, false, false, false, false, false};
  while (status.ok() && !glfwWindowShouldClose(window_)) {
    glfwPollEvents();
    // Frames count (for --after and the screenshots) only once the model has something to show.
    const LoadingState loading = model_.loading();
    report_loading(loading);
    if (const std::string fatal = model_.fatal_error(); !fatal.empty()) {
      status = Error{fatal};
      break;
    }
    if (!loading.active) ++frame_;
    int fw = 0, fh = 0, ww = 0, wh = 0;
    glfwGetFramebufferSize(window_, &fw, &fh);
    glfwGetWindowSize(window_, &ww, &wh);
    camera_.width = std::max(fw, 1);
    camera_.height = std::max(fh, 1);
    const double sx = ww > 0 ? static_cast<double>(fw) / ww : 1.0,
                 sy = wh > 0 ? static_cast<double>(fh) / wh : 1.0;

    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
    const ImGuiIO& io = ImGui::GetIO();

    // Mouse (cursor in window units, camera in framebuffer pixels).
    double cx = 0, cy = 0;
    glfwGetCursorPos(window_, &cx, &cy);
    cx *= sx;
    cy *= sy;
    const int buttons[3] = {GLFW_MOUSE_BUTTON_LEFT, GLFW_MOUSE_BUTTON_RIGHT, GLFW_MOUSE_BUTTON_MIDDLE};
    for (int b = 0; b < 3; ++b) {
      const bool down = glfwGetMouseButton(window_, buttons[b]) == GLFW_PRESS;
      if (down && !was_down[b] && !io.WantCaptureMouse && gesture_ == Gesture::none)
        press(cx, cy, buttons[b]);
      if (!down && was_down[b] && gesture_ != Gesture::none) release_button();
      was_down[b] = down;
    }
    if (gesture_ != Gesture::none && !options_.script_drag) move(cx, cy);
    if (!io.WantCaptureMouse && io.MouseWheel != 0.0f) {
      if (gesture_ == Gesture::instrument) {
        // Wheel forward pushes the instrument away from the camera, a twentieth of the scene per notch.
        drag_plane_point_ += (0.05 * camera_.scene_radius * io.MouseWheel) * drag_plane_normal_;
        drive_instrument(cx, cy);
      } else {
        camera_.zoom(std::pow(0.9, io.MouseWheel));
      }
    }
    if (!io.WantCaptureKeyboard) {
      // ImGui 1.86 names only a few keys: read GLFW's, acting on the press edge.
      const int keys[8] = {GLFW_KEY_SPACE,  GLFW_KEY_S, GLFW_KEY_R, GLFW_KEY_F,
                           GLFW_KEY_ESCAPE, GLFW_KEY_P, GLFW_KEY_I, GLFW_KEY_J};
      for (int k = 0; k < 8; ++k) {
        const bool down = glfwGetKey(window_, keys[k]) == GLFW_PRESS;
        if (down && !key_down[k]) {
          if (k == 0) paused_ = !paused_;
          if (k == 1) step_once_ = true;
          if (k == 2) reset();
          if (k == 3) frame_camera();
          if (k == 4) glfwSetWindowShouldClose(window_, GLFW_TRUE);
          if (k == 5) model_.fire(camera_.ray(cx, cy));  // a projectile along the mouse ray
          if (k == 6) set_instrument_mode(!instrument_mode_);
          if (k == 7) toggle_jaws();
        }
        key_down[k] = down;
      }
    }
    // Scripted drag: the same press/move path as the mouse, in framebuffer pixels.
    if (const auto& d = options_.script_drag) {
      const long k = frame_ - d->start;
      if (k == 0) press(d->x0 * sx, d->y0 * sy, GLFW_MOUSE_BUTTON_LEFT);
      if (k >= 1 && k <= d->frames) {
        const double a = static_cast<double>(k) / d->frames;
        move((d->x0 + a * (d->x1 - d->x0)) * sx, (d->y0 + a * (d->y1 - d->y0)) * sy);
      }
    }

    model_.poll();
    Stopwatch step_watch;
    if (!paused_ || step_once_) {
      model_.step();
      step_once_ = false;
    }
    step_ms_ = step_watch.ms();
    update_picking();
    if (model_.scene_generation() != scene_generation_) {
      // Another scene: frame it, and colour by the field picked before if it has one, else by its
      // own output field.
      scene_generation_ = model_.scene_generation();
      force_scale_ = 0;
      instrument_force_scale_ = 0;
      frame_camera();
      glfwSetWindowTitle(window_, ("Pliant - " + model_.title()).c_str());
      const bool strict = !field_checked && !model_.loading().active;
      status = choose_field(strict);
      field_checked = field_checked || strict;
      if (!status.ok()) break;
    }

    Stopwatch draw_watch;
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    renderer_.draw(build_frame());
    draw_ms_ = draw_watch.ms();
    if (options_.show_panel) draw_panel();
    if (loading.active) draw_loading(loading);
    ImGui::Render();
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());

    if (!loading.active && frame_ == 1 && !options_.first_screenshot.empty())
      status = screenshot(options_.first_screenshot);
    if (status.ok() && !loading.active && options_.after > 0 && frame_ >= options_.after) {
      if (!options_.screenshot.empty()) status = screenshot(options_.screenshot);
      glfwSetWindowShouldClose(window_, GLFW_TRUE);
    }
    glfwSwapBuffers(window_);
    if (loading.active) glfwWaitEventsTimeout(0.03);  // nothing moves: do not spin while waiting
  }
  release_button();
  renderer_.release();
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  glfwDestroyWindow(window_);
  glfwTerminate();
  return status;
}

}  // namespace

Status check_display() {
  record_glfw_errors();
  // GLFW stays initialised for run_viewer (whose glfwInit then does nothing): closing the connection
  // would make a display with no other client (Xvfb) reset, and the viewer's own connection a moment
  // later could fail while it does.
  return init_glfw();
}

Status run_viewer(ViewerModel& model, const ViewerOptions& options) {
  Viewer viewer(model, options);
  return viewer.run();
}

}  // namespace pliant::viewer
