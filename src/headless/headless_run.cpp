#include "pliant/headless/headless_run.hpp"

#include "pliant/core/threads.hpp"
#include "pliant/io/atomic_file.hpp"
#include "pliant/io/pvd.hpp"
#include "pliant/io/vtu.hpp"
#include "pliant/scene/capabilities.hpp"
#include "pliant/scene/collider_mesh.hpp"
#include "pliant/scene/plausibility.hpp"
#include "pliant/scene/reactions.hpp"
#include "pliant/scene/tool_cylinders.hpp"

#if PLIANT_HAS_RENDER
#include "pliant/render/color_range.hpp"
#include "pliant/render/framing.hpp"
#include "pliant/render/line_plot.hpp"
#include "pliant/render/offscreen.hpp"
#include "pliant/render/shapes.hpp"
#endif

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <map>
#include <stdexcept>
#include <tuple>
#include <utility>

namespace pliant::headless {
namespace {

// The run's writers stop at the first failure a user can fix; run_scene turns it into its Result.
struct RunFailure : std::runtime_error {
  using std::runtime_error::runtime_error;
};
[[noreturn]] void fail(const std::string& message) { throw RunFailure(message); }
template <class T>
T unwrap(Result<T> result) {
  if (!result) fail(result.message());
  return std::move(result).value();
}
void unwrap(const Result<void>& status) {
  if (!status) fail(status.message());
}

struct StageStats {
  double total = 0.0;
  double max = 0.0;
};

// Body names become file names: keep them to a portable set.
void check_file_name(const std::string& name) {
  const bool ok =
      !name.empty() &&
      std::all_of(name.begin(), name.end(),
                  [](char c) {
                    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
                  }) &&
      name != "." && name != "..";
  if (!ok)
    fail(fmt::format("body name \"{}\": use letters, digits, '_', '-' or '.' (it names output files)", name));
}

class FrameWriter {
 public:
  FrameWriter(const scene::World& world, const std::filesystem::path& dir) : world_(world), dir_(dir) {
    series_.resize(world.body_count());
    interior_series_.resize(world.body_count());
    render_series_.resize(world.body_count());
  }

  void write(int frame) {
    for (std::size_t b = 0; b < world_.body_count(); ++b) {
      const scene::Body& body = world_.body(static_cast<Index>(b));
      TriMesh mesh;
      const auto x = body.surface_positions();
      const auto x0 = body.surface_rest_positions();
      mesh.positions.assign(x.begin(), x.end());
      mesh.triangles.assign(body.surface_triangles().begin(), body.surface_triangles().end());
      std::vector<io::Field> fields;
      io::Field u{"displacement_vector", 3, std::vector<double>(3 * x.size())};
      for (std::size_t i = 0; i < x.size(); ++i) {
        const Vec3 d = x[i] - x0[i];
        for (int k = 0; k < 3; ++k) u.values[3 * i + static_cast<std::size_t>(k)] = d[k];
      }
      fields.push_back(std::move(u));
      for (scene::SurfaceField& f : scene::copy_fields(body))
        fields.push_back({f.name, 1, std::move(f.value)});
      if (world_.contact_enabled())
        fields.push_back(
            {std::string(scene::kContactPressureField), 1, world_.contact_pressure(static_cast<Index>(b))});
      const std::string file = fmt::format("{}_{:05d}.vtu", body.name(), frame);
      unwrap(io::write_vtu(dir_ / file, mesh, fields));
      series_[b].push_back({world_.time(), file});
      unwrap(io::write_pvd(dir_ / (body.name() + ".pvd"), series_[b]));
      ++files_;
      if (const scene::RenderMesh* render = world_.render_mesh(static_cast<Index>(b))) {
        // The render mesh as a third series: its displacement and the surface fields sampled on it.
        const std::string stem = body.name() + "_render";
        const std::string inner = fmt::format("{}_{:05d}.vtu", stem, frame);
        unwrap(io::write_vtu(dir_ / inner, render_surface(*render), render_fields(*render, fields)));
        render_series_[b].push_back({world_.time(), inner});
        unwrap(io::write_pvd(dir_ / (stem + ".pvd"), render_series_[b]));
        ++files_;
      }
      if (const auto* interior = scene::capability<scene::InteriorOutput>(body)) {
        // The body's interior (phyxels, tets) as a second series beside its surface.
        const std::string stem = body.name() + "_" + std::string(interior->interior_name());
        const std::string inner = fmt::format("{}_{:05d}.vtu", stem, frame);
        unwrap(interior->write_interior_vtu(dir_ / inner));
        interior_series_[b].push_back({world_.time(), inner});
        unwrap(io::write_pvd(dir_ / (stem + ".pvd"), interior_series_[b]));
        ++files_;
      }
    }
  }
  int files() const { return files_; }

 private:
  static TriMesh render_surface(const scene::RenderMesh& render) {
    TriMesh mesh;
    mesh.positions.assign(render.positions().begin(), render.positions().end());
    mesh.triangles = render.rest().triangles;
    return mesh;
  }
  // The body's surface fields (one value per surface node) sampled at the render vertices, after the
  // render mesh's own displacement.
  static std::vector<io::Field> render_fields(const scene::RenderMesh& render,
                                              const std::vector<io::Field>& surface_fields) {
    const auto x = render.positions();
    const auto& x0 = render.rest().positions;
    std::vector<io::Field> out;
    io::Field u{"displacement_vector", 3, std::vector<double>(3 * x.size())};
    for (std::size_t i = 0; i < x.size(); ++i)
      for (int k = 0; k < 3; ++k) u.values[3 * i + static_cast<std::size_t>(k)] = x[i][k] - x0[i][k];
    out.push_back(std::move(u));
    for (const io::Field& f : surface_fields) {
      if (f.components != 1) continue;
      io::Field g{f.name, 1, std::vector<double>(x.size())};
      render.sample_surface_field(f.values, g.values);
      out.push_back(std::move(g));
    }
    return out;
  }

  const scene::World& world_;
  std::filesystem::path dir_;
  std::vector<std::vector<io::PvdEntry>> series_, interior_series_, render_series_;
  int files_ = 0;
};

#if PLIANT_HAS_RENDER
// PNG frames. Every frame is drawn with one colour range and one camera, both taken over the whole
// run, so colours compare between frames and no body of interest leaves the picture: frames are kept
// (surface positions, triangles, the field and the tools, a few hundred kB each) and drawn when the
// run ends, or early when they pass a memory budget, after which the range and camera stay as they
// were then (the range can still grow; the camera widens only when a body of interest has left its
// view). The camera frames the bodies' main pieces (render/framing.hpp: a fragment holding under 5 %
// of its body's surface nodes does not widen it) and the scripted grabs' points and targets, in the
// part of the image the colour bar leaves free. A field whose range is below its floor
// (render/color_range.hpp; a body at rest) is one colour with a one-value bar. Held grabs are drawn
// as markers with their reaction arrow labelled in N, and the simulated time in the top-left corner.
class PngWriter {
 public:
  PngWriter(const scene::Scene& scene, const std::filesystem::path& dir)
      : dir_(dir), field_(scene.output.color_field), arrows_(scene.output.contact_arrows) {
    render::OffscreenDef def;
    def.width = scene.output.png_width;
    def.height = scene.output.png_height;
    renderer_ = unwrap(render::OffscreenRenderer::create(def));
  }

  void add(const scene::World& world, int frame) {
    Snapshot shot;
    shot.frame = frame;
    shot.bodies.resize(world.body_count());
    for (std::size_t b = 0; b < world.body_count(); ++b) {
      const scene::Body& body = world.body(static_cast<Index>(b));
      BodyShot& out = shot.bodies[b];
      // A body with a render mesh is drawn as that mesh, its field sampled from the surface's.
      const scene::RenderMesh* render = world.render_mesh(static_cast<Index>(b));
      if (render) {
        out.positions.assign(render->positions().begin(), render->positions().end());
        out.triangles.assign(render->triangles().begin(), render->triangles().end());
      } else {
        out.positions.assign(body.surface_positions().begin(), body.surface_positions().end());
        out.triangles.assign(body.surface_triangles().begin(), body.surface_triangles().end());
      }
      // The World's contact pressure, or a field of the body's own.
      const bool pressure = field_ == scene::kContactPressureField && world.contact_enabled();
      if (const int f = pressure ? -1 : scene::find_field(body, field_); pressure || f >= 0) {
        std::vector<double> surface(body.surface_positions().size());
        if (pressure)
          surface = world.contact_pressure(static_cast<Index>(b));
        else
          body.fill_field(static_cast<std::size_t>(f), surface);
        if (render) {
          out.values.resize(out.positions.size());
          render->sample_surface_field(surface, out.values);
        } else {
          out.values = std::move(surface);
        }
        if (unit_.empty()) unit_ = pressure ? "Pa" : body.fields()[static_cast<std::size_t>(f)].unit;
      }
      // The range and the camera follow the body's main pieces (render/framing.hpp): a fragment
      // falling away sets neither.
      const std::vector<std::uint8_t> main = render::main_piece_nodes(out.positions, out.triangles);
      for (std::size_t i = 0; i < out.values.size() && i < main.size(); ++i)
        if (main[i] && std::isfinite(out.values[i])) {
          lo_ = std::min(lo_, out.values[i]);
          hi_ = std::max(hi_, out.values[i]);
        }
      for (std::size_t i = 0; i < main.size(); ++i)
        if (main[i] && out.positions[i].allFinite()) box_.extend(out.positions[i]);
      held_bytes_ += out.positions.size() * sizeof(Vec3) + out.triangles.size() * sizeof(Tri) +
                     out.values.size() * sizeof(double);
    }
    add_grabs(world, shot);
    shot.time = world.time();
    for (const scene::ToolCylinder& c : scene::tool_cylinders(world))
      shot.tools.push_back({c.centre, c.axis, c.radius, c.half_length});
    // Colliders at their pose now (a plane's quad is sized when drawn, around every frame's bodies),
    // and the held nodes.
    for (const scene::Collider& c : world.colliders())
      shot.colliders.push_back({&c, c.pose_at(world.time())});
    for (const scene::ContactPoint& c : world.contact_points()) shot.contact_points.push_back(c.position);
    if (arrows_)
      for (const scene::ContactEvent& e : world.contact_events())
        shot.contact_forces.push_back({e.position, e.force});
    held_bytes_ += shot.contact_points.size() * sizeof(Vec3);
    held_.push_back(std::move(shot));
    if (held_bytes_ > kBudgetBytes) flush();
  }

  /// Draws and writes the frames kept so far.
  void flush() {
    camera_.width = renderer_->width();
    camera_.height = renderer_->height();
    const double right = render::color_bar_left(camera_.width, camera_.height);
    if (!box_.empty() && (!framed_ || !render::in_view(camera_, box_, 0.0, 0.0, right, camera_.height))) {
      camera_.frame_region(box_, 0.0, 0.0, right, camera_.height, 1.2);
      framed_ = true;
    }
    for (const Snapshot& shot : held_) draw(shot);
    held_.clear();
    held_bytes_ = 0;
  }
  int files() const { return files_; }

 private:
  struct BodyShot {
    std::vector<Vec3> positions;
    std::vector<Tri> triangles;
    std::vector<double> values;
  };
  struct GrabShot {
    Vec3 point = Vec3::Zero();     // the held point (unit: m)
    Vec3 reaction = Vec3::Zero();  // the force the body exerts on the grab (unit: N)
  };
  struct Snapshot {
    int frame = 0;
    double time = 0.0;  // (unit: s)
    std::vector<GrabShot> grabs;
    std::vector<BodyShot> bodies;
    std::vector<render::Cylinder> tools;
    std::vector<std::pair<const scene::Collider*, Pose>> colliders;  // the World's, which outlives us
    std::vector<Vec3> contact_points;                                // (unit: m)
    std::vector<std::pair<Vec3, Vec3>> contact_forces;               // per pair: where and what (unit: m, N)
  };
  static constexpr std::size_t kBudgetBytes = std::size_t{256} << 20;

  void draw(const Snapshot& shot) {
    // One range for every frame, with a floor (render/color_range.hpp): a body at rest is one colour.
    const render::ColorRange range =
        render::color_range(lo_, hi_, unit_, box_.empty() ? 0.0 : box_.diagonal());
    const double lo = range.min, hi = range.max;
    render::Frame f;
    for (const BodyShot& body : shot.bodies) {
      render::Surface s;
      s.positions = body.positions;
      s.triangles = body.triangles;
      s.field = body.values;
      s.range_min = lo;
      s.range_max = hi;
      f.surfaces.push_back(s);
    }
    tools_.add_to(f, shot.tools);
    add_contact(f, shot);
    add_grab_shapes(f, shot);
    f.caption = fmt::format("t = {:.3f} s", shot.time);
    f.camera = camera_;
    f.color_bar = {true, render::ColorMap::viridis, lo, hi, render::color_bar_label(field_, unit_)};
    const render::Image image = renderer_->render(f);
    const std::string file = fmt::format("frame_{:05d}.png", shot.frame);
    unwrap(io::write_file_atomically(dir_ / file, unwrap(render::encode_png(image))));
    ++files_;
  }

  // Colliders in a translucent-looking slate blue (flat, apart from the tool grey), the held nodes as
  // small orange octahedra, and with contact_arrows each pair's force as an arrow scaled so that the
  // largest in the frame is a fifth of the scene's size.
  void add_contact(render::Frame& f, const Snapshot& shot) {
    const double size = box_.empty() ? 1.0 : std::max(box_.diagonal(), 1e-6);
    std::vector<TriMesh> colliders;
    colliders.reserve(shot.colliders.size());
    for (const auto& [collider, pose] : shot.colliders)
      colliders.push_back(scene::collider_surface(*collider, pose, box_));
    contact_shapes_.add_to(f, std::move(colliders), shot.contact_points, 0.006 * size);
    double largest = 0.0;
    for (const auto& [at, force] : shot.contact_forces) largest = std::max(largest, force.norm());
    for (const auto& [at, force] : shot.contact_forces) {
      if (!(largest > 0.0)) break;
      render::Arrow a;
      a.origin = at;
      a.tip = at + (0.2 * size / largest) * force;
      a.color = render::kContactColor;
      a.label = fmt::format("{:.3g} N", force.norm());
      f.arrows.push_back(a);
    }
  }

  // Every scripted grab the body holds now: its point (the handle node, or the grabbed surface point
  // for a family that lists no nodes) and reaction. The points, and the targets the script will move
  // them to, widen the frame: a pull is framed from the first frame on.
  void add_grabs(const scene::World& world, Snapshot& shot) {
    scene::reaction_forces(world, reactions_);
    const std::span<const scene::ScriptedGrab> grabs = world.scripted_grabs();
    for (std::size_t i = 0; i < grabs.size(); ++i) {
      const scene::ScriptedGrab& g = grabs[i];
      if (g.body < 0 || static_cast<std::size_t>(g.body) >= world.body_count()) continue;
      const scene::Body& body = world.body(g.body);
      if (g.placed)
        for (const scene::Keyframe& k : g.track)
          if (const Vec3 target = g.anchor + k.offset; target.allFinite()) box_.extend(target);
      if (!g.id.valid() || !body.holds(g.id)) continue;
      const std::span<const Vec3> x = body.surface_positions();
      const std::span<const Tri> tris = body.surface_triangles();
      const std::span<const Index> nodes = body.grab_nodes(g.id);
      Vec3 point = Vec3::Zero();
      if (!nodes.empty() && nodes[0] >= 0 && static_cast<std::size_t>(nodes[0]) < x.size())
        point = x[static_cast<std::size_t>(nodes[0])];
      else if (scene::on_surface(g.point, tris)) {
        const Tri& t = tris[static_cast<std::size_t>(g.point.triangle)];
        point = (1.0 - g.point.u - g.point.v) * x[static_cast<std::size_t>(t[0])] +
                g.point.u * x[static_cast<std::size_t>(t[1])] + g.point.v * x[static_cast<std::size_t>(t[2])];
      } else {
        continue;
      }
      if (!point.allFinite()) continue;
      const Vec3 reaction = i < reactions_.size() && reactions_[i].allFinite() ? reactions_[i] : Vec3::Zero();
      shot.grabs.push_back({point, reaction});
      box_.extend(point);
      largest_grab_force_ = std::max(largest_grab_force_, reaction.norm());
    }
  }

  // Grab points as magenta octahedra and their reactions as arrows labelled in N, the run's largest
  // a quarter of the scene's size long (lengths compare between frames).
  void add_grab_shapes(render::Frame& f, const Snapshot& shot) {
    if (shot.grabs.empty()) return;
    const double size = box_.empty() ? 1.0 : std::max(box_.diagonal(), 1e-6);
    grab_markers_.positions.clear();
    grab_markers_.triangles.clear();
    for (const GrabShot& g : shot.grabs) {
      render::append_point_glyphs(std::span<const Vec3>(&g.point, 1), 0.025 * size, grab_markers_);
      const double magnitude = g.reaction.norm();
      if (!(magnitude > 0.0) || !(largest_grab_force_ > 0.0)) continue;
      render::Arrow a;
      a.origin = g.point;
      a.tip = g.point + (0.25 * size / largest_grab_force_) * g.reaction;
      a.color = render::kGrabColor;
      a.label = fmt::format("{:.3g} N", magnitude);
      f.arrows.push_back(a);
    }
    render::Surface s;
    s.positions = grab_markers_.positions;
    s.triangles = grab_markers_.triangles;
    s.color = render::kGrabColor;
    s.shading = render::Shading::flat;
    f.surfaces.push_back(s);
  }

  std::filesystem::path dir_;
  std::string field_;
  bool arrows_ = false;
  std::vector<Vec3> reactions_;      // reaction_forces' scratch (unit: N)
  double largest_grab_force_ = 0.0;  // over the frames so far (unit: N)
  TriMesh grab_markers_;
  render::ContactShapes contact_shapes_;
  std::string unit_;
  std::unique_ptr<render::OffscreenRenderer> renderer_;
  render::Camera camera_;
  render::CylinderMeshes tools_;
  bool framed_ = false;
  double lo_ = INFINITY, hi_ = -INFINITY;  // the field's range over the frames so far
  Aabb box_;  // the bounds of the bodies' main pieces and the grabs over the frames so far
  std::vector<Snapshot> held_;
  std::size_t held_bytes_ = 0;
  int files_ = 0;
};

// forces.png: |F| of every reaction source (reactions.hpp) over time, one curve each, beside the frames.
void write_force_plot(const scene::ReactionSeries& series, const std::string& scene_name,
                      const std::filesystem::path& file) {
  const std::size_t k = series.names().size();
  std::vector<render::PlotCurve> curves(k);
  for (std::size_t j = 0; j < k; ++j) {
    curves[j].label = series.names()[j];
    curves[j].y.reserve(series.rows());
    for (std::size_t r = 0; r < series.rows(); ++r) curves[j].y.push_back(series.forces()[r * k + j].norm());
  }
  render::LinePlotDef def;
  def.title = "REACTION FORCES: " + scene_name;
  def.x_label = "TIME (S)";
  def.y_label = "FORCE MAGNITUDE (N)";
  const render::Image image = render::line_plot(def, series.times(), curves);
  unwrap(io::write_file_atomically(file, unwrap(render::encode_png(image))));
}
#endif

}  // namespace

Result<void> prepare_output_directory(const std::filesystem::path& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return Error{fmt::format("{}: cannot create output directory: {}", dir.string(), ec.message())};
  if (::access(dir.c_str(), W_OK | X_OK) != 0)
    return Error{fmt::format("{}: output directory is not writable: {}", dir.string(), std::strerror(errno))};
  return {};
}

std::string physical_range_problem(std::span<const Vec3> x, std::span<const Vec3> rest) {
  for (const Vec3& p : x) {
    if (!p.allFinite()) return "became unstable (non-finite positions)";
  }
  Vec3 lo = Vec3::Constant(INFINITY), hi = Vec3::Constant(-INFINITY);
  for (const Vec3& p : rest) lo = lo.cwiseMin(p), hi = hi.cwiseMax(p);
  const double size = rest.empty() ? 1e-3 : std::max((hi - lo).stableNorm(), 1e-3);
  const double limit = kMaxDisplacementPerSize * size;
  const std::size_t n = std::min(x.size(), rest.size());
  for (std::size_t i = 0; i < n; ++i) {
    // The largest coordinate difference never overflows where the Euclidean norm's square would.
    const double d = (x[i] - rest[i]).cwiseAbs().maxCoeff();
    if (!(d <= limit)) {
      return fmt::format(
          "left any physical range (a surface node moved {:.3g} m, more than {:.0e} times the body's size of "
          "{:.3g} m)",
          d, kMaxDisplacementPerSize, size);
    }
  }
  return {};
}

namespace {

RunReport run_checked(scene::Scene& scene, const RunOptions& options) {
  scene::World& world = *scene.world;
  for (std::size_t b = 0; b < world.body_count(); ++b)
    check_file_name(world.body(static_cast<Index>(b)).name());
  unwrap(prepare_output_directory(options.out_dir));
  const int steps = options.steps >= 0 ? options.steps : scene.steps;
  const int every = scene.output.every;

  FrameWriter vtu(world, options.out_dir);
  // Every scripted grab's and collider's force per step, for forces.csv and summary.json's "forces".
  scene::ReactionSeries reactions(world);
#if PLIANT_HAS_RENDER
  std::unique_ptr<PngWriter> png;
  if (options.render || scene.output.png) png = std::make_unique<PngWriter>(scene, options.out_dir);
#else
  if (options.render || scene.output.png)
    fail("this pliant was built without the render module (PLIANT_WITH_RENDER=OFF)");
#endif
  auto write_frame = [&](int frame) {
    if (scene.output.vtu) vtu.write(frame);
#if PLIANT_HAS_RENDER
    if (png) png->add(world, frame);
#endif
  };

  std::map<std::string, StageStats> stages;
  std::vector<std::string> stage_order;
  std::map<std::string, int> events;
  constexpr std::size_t kMaxLoggedEvents = 10000;
  nlohmann::json event_log = nlohmann::json::array();
  std::vector<double> tool_max_force(world.tools().size(), 0.0);
  std::vector<int> tool_max_contacts(world.tools().size(), 0);
  // Per body–collider and body–body pair: the largest forces and contact counts seen, and the last step's.
  struct PairStats {
    double max_normal_force = 0.0, max_penetration = 0.0, max_pressure = 0.0;
    int max_contacts = 0, steps_in_contact = 0;
    scene::ContactEvent last;
  };
  std::map<std::tuple<Index, Index, Index>, PairStats> contact_pairs;  // (body, collider, other body)
  int frame = 0;
  write_frame(frame++);
  Stopwatch wall;
  // How the run ends: after `done` steps, normally, after Ctrl-C (`interrupted`) or when a body failed
  // (`failure`); the summary below is written in every case, so a run that ends badly still reports.
  int done = 0;
  bool interrupted = false;
  std::string failure;
  double good_time = world.time();  // simulated time at the last step without a failure (unit: s)
  for (int s = 1; s <= steps && failure.empty(); ++s) {
    world.step();
    auto note = [&](const std::string& name, double ms) {
      auto [it, inserted] = stages.try_emplace(name);
      if (inserted) stage_order.push_back(name);
      it->second.total += ms;
      it->second.max = std::max(it->second.max, ms);
    };
    for (const auto& st : world.profile().stages) note(st.name, st.ms);
    for (std::size_t b = 0; b < world.body_count(); ++b) {
      for (const auto& st : world.body_profile(static_cast<Index>(b)).stages) {
        note(world.body(static_cast<Index>(b)).name() + "/" + st.name, st.ms);
      }
    }
    for (const scene::WorldEvent& e : world.events()) {
      const std::string kind(e.brief.kind);
      ++events[kind];
      if (event_log.size() < kMaxLoggedEvents) {
        const Vec3& p = e.brief.position;
        event_log.push_back({{"step", s},
                             {"time_s", e.time},
                             {"body", world.body(e.body).name()},
                             {"kind", kind},
                             {"category", std::string(e.category)},
                             {"node", e.brief.node},
                             {"position_m", {p.x(), p.y(), p.z()}}});
        if (!e.brief.quantity.empty()) event_log.back()[std::string(e.brief.quantity)] = e.brief.value;
      }
    }
    // Peak contact pressure per pair, over the held body's nodes of that pair (unit: Pa).
    if (!world.contact_points().empty()) {
      std::map<Index, std::vector<double>> pressure;
      for (const scene::ContactPoint& c : world.contact_points()) {
        auto it = pressure.find(c.body);
        if (it == pressure.end()) it = pressure.emplace(c.body, world.contact_pressure(c.body)).first;
        PairStats& p = contact_pairs[{c.body, c.collider, c.other_body}];
        p.max_pressure = std::max(p.max_pressure, it->second[static_cast<std::size_t>(c.node)]);
      }
    }
    for (const scene::ContactEvent& e : world.contact_events()) {
      PairStats& p = contact_pairs[{e.body, e.collider, e.other_body}];
      p.max_normal_force = std::max(p.max_normal_force, e.normal_force);
      p.max_penetration = std::max(p.max_penetration, e.max_penetration);
      p.max_contacts = std::max(p.max_contacts, e.contacts);
      ++p.steps_in_contact;
      p.last = e;
    }
    for (std::size_t k = 0; k < world.tools().size(); ++k) {
      const scene::ScriptedTool& tool = world.tools()[k];
      tool_max_force[k] = std::max(tool_max_force[k], tool.force.norm());
      tool_max_contacts[k] = std::max(tool_max_contacts[k], tool.contacts);
    }
    // A blown-up body would fill every later frame with NaN, or with finite positions so far off that
    // every distance overflows (a 1e300 kg projectile threw a fem body's nodes 1e299 m away, and the
    // summary read 0.0): stop with the step and the body (physical_range_problem).
    for (std::size_t b = 0; b < world.body_count(); ++b) {
      const scene::Body& body = world.body(static_cast<Index>(b));
      if (const std::string problem =
              physical_range_problem(body.surface_positions(), body.surface_rest_positions());
          !problem.empty()) {
        failure = fmt::format("scene {}: step {}: body \"{}\" {}; lower its time step, stiffness or loads",
                              scene.name, s, body.name(), problem);
      }
      if (!failure.empty()) break;
    }
    if (!failure.empty()) break;  // the frames up to the blow-up are flushed below
    done = s;
    good_time = world.time();
    reactions.record(world);
    if ((every > 0 && s % every == 0) || s == steps) write_frame(frame++);
    if (options.after_step) options.after_step();
    if (s < steps && options.stop_requested && options.stop_requested()) {
      if (every == 0 || s % every != 0) write_frame(frame++);  // the last state reached
      interrupted = true;
      break;
    }
  }
  const double wall_s = wall.seconds();
  // Written like every output, whole or not at all; a run that failed keeps the steps before it.
  unwrap(io::write_file_atomically(options.out_dir / "forces.csv", reactions.csv()));
#if PLIANT_HAS_RENDER
  if (png) {
    png->flush();
    write_force_plot(reactions, scene.name, options.out_dir / "forces.png");
  }
#endif

  nlohmann::json summary;
  summary["scene"] = scene.name;
  summary["steps"] = done;
  summary["time_s"] = good_time;
  summary["wall_s"] = wall_s;
  // Simulated time per wall-clock second of stepping: below 1 the scene runs slower than real time.
  summary["realtime_factor"] = wall_s > 0.0 ? good_time / wall_s : 0.0;
  summary["interrupted"] = interrupted;
  summary["last_good_step"] = done;
  if (!failure.empty()) summary["failure"] = failure;
  summary["threads"] = solver_threads();
  summary["state_hash"] = fmt::format("{:016x}", world.state_hash());
  if (options.load_s >= 0.0) summary["load_s"] = options.load_s;
  summary["events"] = events;
  summary["event_log"] = event_log;  // the first 10000 events, in order
  nlohmann::json bodies = nlohmann::json::array();
  for (std::size_t b = 0; b < world.body_count(); ++b) {
    const scene::Body& body = world.body(static_cast<Index>(b));
    double max_disp = 0.0;
    std::size_t non_finite = 0;
    const auto x = body.surface_positions();
    const auto x0 = body.surface_rest_positions();
    for (std::size_t i = 0; i < x.size(); ++i) {
      // stableNorm: a distance beyond 1e154 m must not overflow to inf and be skipped (the run stops
      // before that, see physical_range_problem; a body read back or driven in code may not).
      const double d = (x[i] - x0[i]).stableNorm();
      if (!std::isfinite(d)) {  // a non-finite node
        ++non_finite;
        continue;
      }
      max_disp = std::max(max_disp, d);
    }
    bodies.push_back({{"name", body.name()},
                      {"family", body.family()},
                      {"surface_nodes", x.size()},
                      {"surface_triangles", body.surface_triangles().size()},
                      {"max_displacement_m", max_disp},
                      {"non_finite_nodes", non_finite},
                      {"series", body.name() + ".pvd"}});
    if (const auto* interior = scene::capability<scene::InteriorOutput>(body))
      bodies.back()["interior_series"] = body.name() + "_" + std::string(interior->interior_name()) + ".pvd";
    if (const scene::RenderMesh* render = world.render_mesh(static_cast<Index>(b)))
      bodies.back()["render_mesh"] = {
          {"series", body.name() + "_render.pvd"},
          {"nodes", render->positions().size()},
          {"triangles", render->triangles().size()},
          {"embedding",
           render->embedding() == scene::RenderMesh::Embedding::tets ? "tets" : "surface_frames"},
          {"max_offset_m", render->max_offset()}};
  }
  summary["bodies"] = bodies;
  nlohmann::json tools = nlohmann::json::array();
  for (std::size_t k = 0; k < world.tools().size(); ++k) {
    const Vec3 c = world.tools()[k].centre;
    tools.push_back({{"max_force_n", tool_max_force[k]},
                     {"max_contacts", tool_max_contacts[k]},
                     {"final_centre_m", {c.x(), c.y(), c.z()}}});
  }
  summary["tools"] = tools;
  // Per source of forces.csv: its peak |F| and the largest change between two consecutive steps
  // (a kick a haptic device would render), each with the step where it happened.
  nlohmann::json force_stats = nlohmann::json::array();
  const std::vector<scene::ReactionSeries::Stats> stats = reactions.stats();
  for (std::size_t j = 0; j < stats.size(); ++j)
    force_stats.push_back({{"name", reactions.names()[j]},
                           {"peak_n", stats[j].peak},
                           {"peak_step", stats[j].peak_step},
                           {"max_jump_n", stats[j].max_jump},
                           {"max_jump_step", stats[j].max_jump_step}});
  summary["forces"] = {
      {"file", "forces.csv"}, {"rows", reactions.rows() * reactions.names().size()}, {"series", force_stats}};
#if PLIANT_HAS_RENDER
  if (png) summary["forces"]["plot"] = "forces.png";
#endif
  if (!world.colliders().empty() || !contact_pairs.empty()) {
    nlohmann::json contacts = nlohmann::json::array();
    for (const auto& [pair, p] : contact_pairs) {
      const auto [b, collider, other] = pair;
      contacts.push_back({{"body", world.body(b).name()},
                          {"steps_in_contact", p.steps_in_contact},
                          {"max_contacts", p.max_contacts},
                          {"max_normal_force_n", p.max_normal_force},
                          {"max_penetration_m", p.max_penetration},
                          {"max_pressure_pa", p.max_pressure},
                          {"last_in_contact",
                           {{"contacts", p.last.contacts},
                            {"sticking", p.last.sticking},
                            {"slipping", p.last.slipping},
                            {"normal_force_n", p.last.normal_force},
                            {"tangential_force_n", p.last.tangential_force},
                            {"force_n", {p.last.force.x(), p.last.force.y(), p.last.force.z()}}}}});
      // The pair's other side: a collider, or the body whose surface holds this one's nodes.
      if (collider >= 0)
        contacts.back()["collider"] = world.colliders()[static_cast<std::size_t>(collider)].name;
      else
        contacts.back()["other_body"] = world.body(other).name();
    }
    summary["contacts"] = contacts;
  }
  nlohmann::json stage_json = nlohmann::json::array();
  std::vector<scene::StageTime> stage_times;
  for (const std::string& name : stage_order) {
    const StageStats& st = stages[name];
    const double mean_ms = done > 0 ? st.total / done : 0.0;
    stage_json.push_back({{"stage", name}, {"mean_ms", mean_ms}, {"max_ms", st.max}});
    stage_times.push_back({name, mean_ms});
  }
  summary["stages"] = stage_json;
  // What looked unintended when the scene loaded, and whether it kept up with real time.
  std::vector<scene::PlausibilityWarning> warnings = scene.warnings;
  if (auto w = scene::check_realtime(good_time, wall_s, done, stage_times)) warnings.push_back(std::move(*w));
  nlohmann::json warning_json = nlohmann::json::array();
  for (const scene::PlausibilityWarning& w : warnings)
    warning_json.push_back({{"body", w.body}, {"kind", w.kind}, {"message", w.message}});
  summary["warnings"] = warning_json;
  summary["vtu_files"] = vtu.files();
#if PLIANT_HAS_RENDER
  summary["png_files"] = png ? png->files() : 0;
#else
  summary["png_files"] = 0;
#endif
  RunReport report;
  report.summary_json = summary.dump(2) + "\n";
  unwrap(io::write_file_atomically(options.out_dir / "summary.json", report.summary_json));
  if (!failure.empty()) fail(failure);  // after the summary, which records it and the last good step
  report.steps = done;
  report.time_s = good_time;
  report.wall_s = wall_s;
  report.interrupted = interrupted;
  report.state_hash = summary["state_hash"].get<std::string>();
  report.vtu_files = vtu.files();
  report.png_files = summary["png_files"].get<int>();
  return report;
}

}  // namespace

Result<RunReport> run_scene(scene::Scene& scene, const RunOptions& options) {
  try {
    return run_checked(scene, options);
  } catch (const RunFailure& e) {
    return Error{e.what()};
  }
}

}  // namespace pliant::headless
